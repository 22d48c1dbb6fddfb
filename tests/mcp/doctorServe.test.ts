/**
 * `spillway doctor` finds the serve a user started with `--port N` (its home's process note names
 * the port), and checks the port given with its own `--port`.
 */
import { execFile } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { promisify } from "node:util";
import { startServe, SPILLWAY_BIN, type ServeProcess } from "../hosts/support/spillwayProcess";
import { tempHome } from "../helpers/tempHome";
import { ROOT, writeConfig } from "./helpers/setup";

const run = promisify(execFile);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("spillway doctor and a serve started with --port", { timeout: 60_000 }, () => {
  const home = tempHome("spillway-doctor-port-");
  let configured: number;
  let serve: ServeProcess;
  beforeAll(async () => {
    configured = await closedPort();
    writeConfig(home.path, { server: { port: configured } });
    serve = await startServe(home.path); // --port 0: not the config's port
  });
  afterAll(async () => {
    await serve?.stop();
    home.cleanup();
  });

  const serveLine = async (...extra: string[]) => {
    const r = await run(process.execPath, [SPILLWAY_BIN, "doctor", "--quick", "--home", home.path, ...extra], { cwd: ROOT }).catch(
      (e: { stdout: string }) => e,
    );
    return r.stdout.split("\n").find((l) => / serve /.test(l)) ?? r.stdout;
  };

  it("finds it on its own port and says the config names another", async () => {
    expect(serve.port).not.toBe(configured);
    const line = await serveLine();
    expect(line).toMatch(new RegExp(`^ok +serve +answers at http://127\\.0\\.0\\.1:${serve.port} `));
    expect(line).toContain(
      `pid ${serve.pid} (spillway.js serve) of this home, on port ${serve.port} rather than the config's ${configured}`,
    );
  });

  it("checks the port given with --port, and only that one", async () => {
    expect(await serveLine("--port", String(serve.port))).toMatch(
      new RegExp(`^ok +serve +answers at http://127\\.0\\.0\\.1:${serve.port} \\(`),
    );
    expect(await serveLine("--port", String(configured))).toMatch(
      new RegExp(`^ok +serve +not running at http://127\\.0\\.0\\.1:${configured}:`),
    );
  });
});
