import { writeFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../config/config";
import { fileKeyProvider } from "../crypto/keys";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { BlobStore, type PutInfo } from "./blobStore";
import { Ledger } from "./ledger";
import { sweep } from "./lifecycle";

const HOUR = 3_600_000;
const info: PutInfo = { tool: "list_files", sessionId: "s1", kind: "text", shape: "text", lines: 1, label: "public" };

describe("lifecycle", () => {
  let home: ReturnType<typeof tempHome>;
  let clock: FakeClock;
  beforeEach(() => {
    home = tempHome();
    clock = new FakeClock();
  });
  afterEach(() => home.cleanup());

  const open = (storeCfg: Record<string, unknown> = {}) => {
    const store = new BlobStore({ home: home.path, clock, config: parseConfig({ store: storeCfg }).store, keys: fileKeyProvider(home.path) });
    return { store, ledger: new Ledger(store.db) };
  };

  it("expires blobs after 72 h, keeps blobs fetched 3+ times until 168 h, and never sweeps pinned ones", () => {
    const { store, ledger } = open();
    const cold = store.put("cold", info).meta.id;
    const hot = store.put("hot", info).meta.id;
    const pinned = store.put("pinned", info).meta.id;
    store.setPinned(pinned, true);
    for (let i = 0; i < 3; i++) store.touchFetch(hot);

    clock.advance(71 * HOUR);
    expect(sweep(store, ledger, memoryLogger()).expired).toBe(0);
    clock.advance(2 * HOUR);
    expect(sweep(store, ledger, memoryLogger()).expired).toBe(1);
    expect(store.meta(cold)!.state).toBe("tombstoned");
    expect(store.meta(hot)!.state).toBe("live");

    clock.advance(96 * HOUR); // 169 h
    sweep(store, ledger, memoryLogger());
    expect(store.meta(hot)!.state).toBe("tombstoned");
    expect(store.meta(pinned)!.state).toBe("pinned");
    expect(store.read(pinned)).toBe("pinned");
    store.close();
  });

  it("keeps tombstones for 720 h, then forgets them", () => {
    const { store, ledger } = open();
    const id = store.put("short-lived", info).meta.id;
    clock.advance(73 * HOUR);
    sweep(store, ledger, memoryLogger());
    expect(store.meta(id)!.state).toBe("tombstoned");
    clock.advance(719 * HOUR);
    sweep(store, ledger, memoryLogger());
    expect(store.meta(id)).not.toBeNull();
    clock.advance(2 * HOUR);
    expect(sweep(store, ledger, memoryLogger()).tombstonesDropped).toBe(1);
    expect(store.meta(id)).toBeNull();
    store.close();
  });

  it("evicts least recently used blobs first when the store passes its cap, counting sidecars", () => {
    // cap of 10 KB; each blob is 3 KB
    const { store, ledger } = open({ maxStoreMb: 10 / 1024 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(store.put(String(i).repeat(3 * 1024), info).meta.id);
      clock.advance(1000);
    }
    store.touchFetch(ids[0]!); // 0 is now the most recently used
    clock.advance(1000);
    store.setSidecarBytes(ids[2]!, 2 * 1024); // 11 KB in all: over the cap
    const report = sweep(store, ledger, memoryLogger());
    expect(report.evicted).toBe(1);
    expect(store.meta(ids[1]!)!.state).toBe("tombstoned"); // least recently used
    expect(store.meta(ids[0]!)!.state).toBe("live");
    expect(store.meta(ids[2]!)!.state).toBe("live");
    expect(ledger.eventsOfBlob(ids[1]!).map((e) => e.type)).toContain("evict");
    store.close();
  });

  it("enforces the cap on write, without waiting for a timed sweep", () => {
    const { store, ledger } = open({ maxStoreMb: 8 / 1024 });
    store.onGrow = () => {
      if (store.usedBytes() > store.capBytes()) sweep(store, ledger, memoryLogger());
    };
    const first = store.put("a".repeat(5 * 1024), info).meta.id;
    clock.advance(1000);
    store.put("b".repeat(5 * 1024), info);
    expect(store.meta(first)!.state).toBe("tombstoned");
    expect(store.usedBytes()).toBeLessThanOrEqual(store.capBytes());
    store.close();
  });

  it("a deep sweep removes leftovers of killed writes and repairs rows whose file vanished", () => {
    const { store, ledger } = open();
    const kept = store.put("kept", info).meta.id;
    const lost = store.put("lost", info).meta.id;
    store.files.remove(lost);
    const shard = join(home.path, "blobs", "ab");
    store.files.write("abcdefabcdef", Buffer.from("orphan with no row"));
    const tmp = join(shard, ".123-deadbeef.tmp");
    writeFileSync(tmp, "partial");
    const old = (Date.now() - 3_600_000) / 1000;
    utimesSync(tmp, old, old);
    utimesSync(store.files.pathOf("abcdefabcdef"), old, old);
    const r = sweep(store, ledger, memoryLogger(), { deep: true });
    expect(r).toMatchObject({ tempFiles: 1, orphanFiles: 1, repairedRows: 1 });
    expect(store.meta(lost)!.state).toBe("tombstoned");
    expect(store.read(kept)).toBe("kept");
    store.close();
  });
});
