import { existsSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { backgroundFlushes, ensurePrivateDir, FILE_MODE, stageFileAtomic, TEMP_SUFFIX, tempPath, writeFileAtomic } from "./fsUtil";

describe("atomic files", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());
  const temps = () => readdirSync(home.path).filter((n) => n.endsWith(TEMP_SUFFIX));

  it("keeps a staged file under a temp name until it is committed, then in place, exact and private", async () => {
    const path = join(home.path, "blob");
    const data = Buffer.from("x".repeat(200_000) + "😀");
    const staged = stageFileAtomic(path, [data.subarray(0, 1000), data.subarray(1000)]);
    expect(existsSync(path)).toBe(false);
    expect(temps()).toHaveLength(1);
    staged.commit();
    staged.commit(); // a second commit is a no-op
    expect(readFileSync(path).equals(data)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(temps()).toEqual([]);
    await backgroundFlushes();
  });

  it("leaves the old file in place when a staged replacement is aborted", () => {
    const path = join(home.path, "blob");
    writeFileAtomic(path, "old");
    const staged = stageFileAtomic(path, "new");
    staged.abort();
    staged.commit(); // after an abort, nothing to commit
    expect(readFileSync(path, "utf8")).toBe("old");
    expect(temps()).toEqual([]);
  });

  it("settles backgroundFlushes after staged, committed and aborted files alike (engine.idle and close wait on it, so it must never hang)", async () => {
    for (let i = 0; i < 20; i++) {
      const staged = stageFileAtomic(join(home.path, `f${i}`), `content ${i}`);
      if (i % 5 === 4) staged.abort();
      else staged.commit();
    }
    let settled = false;
    const wait = backgroundFlushes().then(() => (settled = true));
    expect(settled).toBe(false);
    await wait;
    expect(settled).toBe(true);
    expect(readdirSync(home.path).filter((n) => /^f\d+$/.test(n))).toHaveLength(16);
    expect(temps()).toEqual([]);
  });

  it("writes into a temp file opened ahead, in another folder, and renames it into place", async () => {
    const dir = join(home.path, "ab");
    ensurePrivateDir(dir);
    const path = join(dir, "blob");
    const tmp = tempPath(home.path);
    const staged = stageFileAtomic(path, Buffer.from("ahead"), true, { fd: openSync(tmp, "wx", FILE_MODE), path: tmp });
    expect(readFileSync(tmp, "utf8")).toBe("ahead");
    staged.commit();
    expect(readFileSync(path, "utf8")).toBe("ahead");
    expect(existsSync(tmp)).toBe(false);
    await backgroundFlushes();
  });

  it("makes the target's folder again when it was removed between the write and the commit", async () => {
    const dir = join(home.path, "cd");
    ensurePrivateDir(dir);
    const tmp = tempPath(home.path);
    const staged = stageFileAtomic(join(dir, "blob"), "kept", true, { fd: openSync(tmp, "wx", FILE_MODE), path: tmp });
    rmSync(dir, { recursive: true });
    staged.commit();
    expect(readFileSync(join(dir, "blob"), "utf8")).toBe("kept");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await backgroundFlushes();
  });
});
