import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { backgroundFlushes, stageFileAtomic, TEMP_SUFFIX } from "./fsUtil";
import { SPARE_MAX_AGE_MS, SPARE_TOUCH_MS, SpareTemp } from "./spareTemp";

const nextTick = () => new Promise((r) => setImmediate(r));

describe("SpareTemp", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());
  const temps = () => readdirSync(home.path).filter((n) => n.endsWith(TEMP_SUFFIX));

  it("has none at first, keeps two after the call that asked (a burst finds one each), and hands each out once", async () => {
    const spare = new SpareTemp(home.path);
    expect(spare.take()).toBeUndefined();
    expect(temps()).toEqual([]);
    await nextTick();
    expect(temps()).toHaveLength(2);
    const a = spare.take()!;
    const b = spare.take()!;
    expect(a.path).not.toBe(b.path);
    expect(spare.take()).toBeUndefined();
    writeSync(a.fd, "mine");
    expect(readFileSync(a.path, "utf8")).toBe("mine");
    // two more are made after this call, under other names
    await nextTick();
    expect(temps()).toHaveLength(4);
    stageFileAtomic(join(home.path, "blob"), "x", false, a).commit();
    stageFileAtomic(join(home.path, "blob2"), "y", false, b).abort();
    expect(temps()).toHaveLength(2);
    spare.dispose();
    expect(temps()).toEqual([]);
  });

  it("removes a spare older than five minutes instead of handing it out (repair may delete it at ten)", async () => {
    let wall = 1_000_000;
    const spare = new SpareTemp(home.path, () => wall);
    spare.take();
    await nextTick();
    const old = temps();
    expect(old).toHaveLength(2);
    wall += SPARE_MAX_AGE_MS;
    expect(spare.take()).toBeUndefined();
    for (const name of old) expect(existsSync(join(home.path, name))).toBe(false);
    await nextTick();
    expect(temps()).toHaveLength(2);
    expect(spare.take()).toBeDefined();
    spare.dispose();
  });

  it("makes none once disposed, and fails quietly when its folder is gone", async () => {
    const spare = new SpareTemp(join(home.path, "gone"));
    spare.take();
    await nextTick();
    expect(spare.take()).toBeUndefined();
    const kept = new SpareTemp(home.path);
    kept.take();
    kept.dispose();
    await nextTick();
    expect(temps()).toEqual([]);
    rmSync(join(home.path), { recursive: true, force: true });
    await backgroundFlushes();
  });

  it("keeps its spares fresh while the process idles: touched, they are handed out past five minutes, and repair sees them new", async () => {
    let wall = Date.now();
    const spare = new SpareTemp(home.path, () => wall);
    spare.take();
    await nextTick();
    wall += SPARE_TOUCH_MS;
    spare.touch();
    for (const name of temps()) expect(Math.abs(statSync(join(home.path, name)).mtimeMs - wall)).toBeLessThan(1000);
    wall += SPARE_MAX_AGE_MS - SPARE_TOUCH_MS;
    expect(spare.take()).toBeDefined();
    spare.dispose();
  });
});
