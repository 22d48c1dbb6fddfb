// A home on a read-only file system (a read-only mount, a backup volume): the commands say the
// folder cannot be written and what to do, instead of SQLite's "unable to open database file", and
// doctor's home check fails on it. The mount is a real read-only bind mount; where this process
// may not mount (not root, or no mount(8)) the test says it was skipped and why.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";

function tryMountReadOnly(source: string, target: string): string | null {
  try {
    execFileSync("mount", ["--bind", source, target], { stdio: "pipe" });
    execFileSync("mount", ["-o", "remount,bind,ro", target], { stdio: "pipe" });
    return null;
  } catch (err) {
    try {
      execFileSync("umount", [target], { stdio: "pipe" });
    } catch {
      /* not mounted */
    }
    return String((err as { stderr?: Buffer }).stderr ?? err).trim() || "mount failed";
  }
}

describe("a read-only home", () => {
  const dir = tempHome("spillway-ro-");
  const source = join(dir.path, "home");
  const mounted = join(dir.path, "mounted");
  let cannot: string | null = null;

  beforeAll(async () => {
    mkdirSync(source);
    mkdirSync(mounted);
    // A store with a result in it, then the same folder seen read-only.
    const engine = createEngine({ home: source, logger: memoryLogger() });
    engine.transformToolResult({ sessionId: "s", tool: "build", text: "step compiled\n".repeat(2_000) });
    await engine.idle();
    await engine.close();
    cannot = tryMountReadOnly(source, mounted);
    if (cannot) console.log(`read-only home tests skipped: this process cannot make a read-only mount here (${cannot})`);
  });
  afterAll(() => {
    if (!cannot) execFileSync("umount", [mounted]);
    dir.cleanup();
  });

  it("status names the read-only folder and the way out; doctor fails its home check", async (ctx) => {
    if (cannot) ctx.skip();
    const status = await runCli(mounted, "status");
    expect(status.code).toBe(1);
    expect(status.err).toMatch(
      /its folder cannot be written: a read-only file system; .*point --home or SPILLWAY_HOME at a writable folder/,
    );
    const doctor = await runCli(mounted, "doctor", "--quick");
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(/FAIL\s+home\s+.* cannot be written \(a read-only file system\)/);
  });
});
