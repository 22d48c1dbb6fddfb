import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { backgroundFlushes } from "../fs/fsUtil";
import { makeShardsLater, SHARD_NAMES } from "./shardFolders";

describe("makeShardsLater", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("makes every missing shard folder, owner-only, and names each one, the existing ones too", async () => {
    const root = join(home.path, "blobs");
    mkdirSync(join(root, "a7"), { recursive: true, mode: 0o700 });
    const made = new Set<string>();
    makeShardsLater(
      root,
      (d) => made.add(d),
      () => false,
    );
    // Off the call's path: nothing is made before the next turn of the event loop.
    expect(readdirSync(root)).toEqual(["a7"]);
    await backgroundFlushes();
    expect(readdirSync(root).sort()).toEqual([...SHARD_NAMES]);
    expect(made.size).toBe(256);
    for (const n of SHARD_NAMES) expect(statSync(join(root, n)).mode & 0o777).toBe(0o700);
  });

  it("keeps the event loop awake until it is done, so idle() and close() never wait for some other event", async () => {
    // With only unref'd immediates pending, the loop sleeps in its poll phase: each turn then
    // waited for a timer or a message (seconds in an idle \`spillway mcp\`).
    const root = join(home.path, "blobs");
    mkdirSync(root);
    const before = process.getActiveResourcesInfo().filter((r) => r === "Immediate").length;
    makeShardsLater(
      root,
      () => {},
      () => false,
    );
    expect(process.getActiveResourcesInfo().filter((r) => r === "Immediate").length).toBe(before + 1);
    await backgroundFlushes();
    expect(readdirSync(root)).toHaveLength(256);
  });

  it("stops once the store is closed, and never makes again a blobs folder removed meanwhile", async () => {
    const root = join(home.path, "blobs");
    mkdirSync(root);
    let closed = false;
    makeShardsLater(
      root,
      () => {},
      () => closed,
    );
    closed = true;
    await backgroundFlushes();
    expect(readdirSync(root)).toEqual([]);

    makeShardsLater(
      root,
      () => {},
      () => false,
    );
    rmSync(root, { recursive: true });
    await backgroundFlushes();
    expect(existsSync(root)).toBe(false);
  });
});
