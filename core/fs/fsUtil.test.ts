import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { backgroundFlushes, stageFileAtomic, TEMP_SUFFIX, writeFileAtomic } from "./fsUtil";

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
});
