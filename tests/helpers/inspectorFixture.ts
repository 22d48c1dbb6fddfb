/** An engine in a temp home with a little real traffic, for the inspector's handler tests. */
import { parseConfig, type ConfigInput } from "../../core/config/config";
import { createEngine, type Engine } from "../../core/engine/engine";
import { createHandlers, type Handlers } from "../../core/inspector/handlers/handlers";
import type { InspectorHost } from "../../core/inspector/handlers/host";
import { FakeClock, memoryLogger } from "../../core/runtime";
import { tempHome } from "./tempHome";
import { join } from "node:path";

export const SECRET_TEXT =
  "deploy settings\n" +
  "x".repeat(13_000) +
  "\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEYq3\ntoken: ghp_8fK2mQ9xLp4RtY7wZ3vB6nC1dS5hJ0aEuXoG\nend\n";

/** A build log of `lines` lines with a failure at line 1234 (0-based). */
export function buildLog(lines = 3_000): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      i === 1234 ? "ERROR: linker failed: undefined symbol frobnicate_widget" : `step ${i}: compiled src/mod${i}.ts in ${i % 97} ms`,
    );
  return out.join("\n") + "\n";
}

export interface Fixture {
  engine: Engine;
  handlers: Handlers;
  clock: FakeClock;
  home: string;
  configPath: string;
  logId: string;
  secretId: string;
  close(): Promise<void>;
}

export async function inspectorFixture(host: Partial<InspectorHost> = {}, config: ConfigInput = {}): Promise<Fixture> {
  const home = tempHome("spillway-inspector-");
  const clock = new FakeClock(Date.UTC(2026, 2, 14, 9, 0, 0));
  const engine = createEngine({ home: home.path, config: parseConfig(config), clock, logger: memoryLogger() });
  const log = buildLog();
  const a = engine.transformToolResult({ sessionId: "sess-a", tool: "run_build", server: "ci", args: { target: "all" }, text: log });
  clock.advance(60_000);
  engine.transformToolResult({ sessionId: "sess-a", tool: "run_build", server: "ci", args: { target: "all" }, text: log });
  engine.transformToolResult({ sessionId: "sess-a", tool: "echo", text: "small result" });
  clock.advance(60_000);
  engine.fetch({ sessionId: "sess-a", id: a.blobId, mode: "grep", args: { pattern: "ERROR" } });
  const s = engine.transformToolResult({ sessionId: "sess-b", tool: "read_env", text: SECRET_TEXT });
  await engine.idle();
  const configPath = join(home.path, "config.json");
  const handlers = createHandlers({
    engine,
    configPath,
    exportBlob: (id, masked, filename) => ({ kind: "download", href: `/x/${id}?m=${masked}`, path: null, filename }),
    ...host,
  });
  return {
    engine,
    handlers,
    clock,
    home: home.path,
    configPath,
    logId: a.blobId!,
    secretId: s.blobId!,
    async close() {
      await engine.close();
      home.cleanup();
    },
  };
}
