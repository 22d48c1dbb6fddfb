/** bin/spillway.js as users run it: the prebuilt bundle, rebuilt when a source changes, and tsx as the fallback. */
import { execFile } from "node:child_process";
import { readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempHome } from "../helpers/tempHome";
import { BIN, ROOT, writeConfig } from "./helpers/setup";

const run = promisify(execFile);
const spillway = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
const manifest = () =>
  JSON.parse(readFileSync(join(ROOT, "dist/cli/manifest.json"), "utf8")) as {
    bundle: string;
    early: string;
    builtAt: number;
    inputs: [string, number, number][];
  };

describe("the spillway command", () => {
  it("gives the same answers from the bundle as through tsx, with paths that point into the checkout", async () => {
    const bundled = await spillway(["connect", "cursor"]);
    const viaTsx = await spillway(["connect", "cursor"], { SPILLWAY_NO_BUNDLE: "1" });
    // stderr holds the snippet's notes and nothing else (no warning from the bundle).
    expect(bundled.stderr).toBe(viaTsx.stderr);
    expect(bundled.stderr).toMatch(/^Move the MCP servers[^\n]*\n`spillway connect cursor --write`[^\n]*\n$/);
    expect(bundled.stdout).toBe(viaTsx.stdout);
    expect(bundled.stdout).toContain(JSON.stringify(join(ROOT, "bin/spillway.js")));
    // A config error comes from zod's English messages, the one locale the bundle keeps.
    const home = tempHome("spillway-bundle-");
    writeConfig(home.path, { rescue: { thresholdChars: "many" } });
    const failures = await Promise.all(
      ([{}, { SPILLWAY_NO_BUNDLE: "1" }] as Record<string, string>[]).map((env) =>
        spillway(["status", "--home", home.path], env).then(
          () => "",
          (e: { stderr: string }) => e.stderr,
        ),
      ),
    );
    home.cleanup();
    expect(failures[0]).toMatch(/"rescue\.thresholdChars": Invalid input: expected number, received string/);
    expect(failures[0]).toBe(failures[1]);
    expect(manifest().inputs.map(([rel]) => rel)).toEqual(
      expect.arrayContaining(["core/cli/main.ts", "core/mcp/proxyServer.ts", "package.json"]),
    );
  });

  it("answers initialize from an early bundle that holds neither zod nor the MCP SDK", async () => {
    await spillway(["--version"]);
    const read = (name: string) => readFileSync(join(ROOT, "dist/cli", name), "utf8");
    const { bundle, early, inputs } = manifest();
    // One string of each that the CLI bundle has: zod's issue code, the SDK protocol's cancellation.
    for (const text of ["invalid_type", "notifications/cancelled"]) {
      expect(read(bundle)).toContain(text);
      expect(read(early)).not.toContain(text);
    }
    expect(read(early).length).toBeLessThan(32 * 1024);
    expect(inputs.map(([rel]) => rel)).toEqual(expect.arrayContaining(["core/cli/early.ts", "core/mcp/earlyStdio.ts"]));
  });

  it("rebuilds the bundle before running when a source it was built from changed", async () => {
    await spillway(["--version"]);
    const before = manifest();
    const source = join(ROOT, "core/mcp/version.ts");
    const later = new Date(Math.max(Date.now(), before.builtAt) + 1_000);
    utimesSync(source, later, later);
    expect((await spillway(["--version"])).stdout).toBe("spillway 0.1.0\n");
    const after = manifest();
    expect(after.builtAt).toBeGreaterThan(before.builtAt);
    // File systems keep mtimes finer or coarser than a millisecond.
    expect(Math.abs(after.inputs.find(([rel]) => rel === "core/mcp/version.ts")![1] - later.getTime())).toBeLessThan(1);
  });
});
