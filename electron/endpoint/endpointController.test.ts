import { describe, expect, it } from "vitest";
import { createEndpointController, type RunningEndpoint } from "./endpointController";
import { setupEndpoint } from "./setupEndpoint";

/** A start function whose servers are counted, so overlapping starts would show. */
function counting() {
  const state = { open: 0, starts: 0, fail: false };
  const start = async (): Promise<RunningEndpoint> => {
    state.starts++;
    await new Promise((r) => setTimeout(r, 5));
    if (state.fail) throw new Error("listen EACCES: permission denied");
    state.open++;
    return { url: "http://127.0.0.1:1", mcpUrl: "http://127.0.0.1:1/mcp", close: async () => void state.open-- };
  };
  return { state, start };
}

describe("endpoint controller", () => {
  it("serialises rapid start/stop clicks so at most one server is ever open", async () => {
    const { state, start } = counting();
    const c = createEndpointController(start, () => 42);
    const phases: string[] = [];
    c.onChange((s) => phases.push(s.phase));
    await Promise.all([c.start(), c.start(), c.toggle(), c.stop(), c.start()]);
    expect(state.open).toBe(1);
    expect(c.status()).toMatchObject({ phase: "running", running: true, mcpUrl: "http://127.0.0.1:1/mcp", startedAt: 42, error: null });
    expect(phases[0]).toBe("starting");
    await c.stop();
    expect(state.open).toBe(0);
    expect(c.status()).toMatchObject({ phase: "stopped", url: null, startedAt: null });
  });

  it("reports a failed start as a sentence and recovers on the next start", async () => {
    const { state, start } = counting();
    const c = createEndpointController(start);
    state.fail = true;
    const s = await c.start();
    expect(s).toMatchObject({
      phase: "stopped",
      running: false,
      error: "the MCP endpoint could not start: listen EACCES: permission denied",
    });
    state.fail = false;
    expect((await c.start()).error).toBeNull();
    await c.stop();
  });

  it("keeps going when a listener throws", async () => {
    const c = createEndpointController(counting().start);
    c.onChange(() => {
      throw new Error("tray destroyed");
    });
    expect((await c.start()).running).toBe(true);
    await c.stop();
  });
});

describe("setupEndpoint", () => {
  it("starts the endpoint with the app only when asked, reports failures, and stops it on teardown", async () => {
    const { state, start } = counting();
    const errors: string[] = [];
    const off = createEndpointController(start);
    await setupEndpoint({ endpoint: off, startWithApp: false, onError: (m) => errors.push(m) })();
    expect(state.starts).toBe(0);

    const on = createEndpointController(start);
    const running = new Promise<void>((resolve) => on.onChange((s) => s.running && resolve()));
    const teardown = setupEndpoint({ endpoint: on, startWithApp: true, onError: (m) => errors.push(m) });
    await running;
    expect(on.status().running).toBe(true);
    await teardown();
    expect(state.open).toBe(0);

    state.fail = true;
    const failing = createEndpointController(start);
    const reported = new Promise<void>((resolve) =>
      setupEndpoint({ endpoint: failing, startWithApp: true, onError: (m) => (errors.push(m), resolve()) }),
    );
    await reported;
    expect(errors).toEqual(["the MCP endpoint could not start: listen EACCES: permission denied"]);
  });
});
