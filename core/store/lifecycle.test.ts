import { existsSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../config/config";
import { fileKeyProvider } from "../crypto/keys";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { BlobStore, type PutInfo } from "./blobStore";
import { Ledger } from "./ledger";
import { EVICT_GRACE_MS, sweep } from "./lifecycle";

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
    const store = new BlobStore({
      home: home.path,
      clock,
      config: parseConfig({ store: storeCfg }).store,
      keys: fileKeyProvider(home.path),
    });
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
    clock.advance(EVICT_GRACE_MS + 1000); // all past the grace of a just-given handle
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
    clock.advance(EVICT_GRACE_MS + 1000);
    store.put("b".repeat(5 * 1024), info);
    expect(store.meta(first)!.state).toBe("tombstoned");
    expect(store.usedBytes()).toBeLessThanOrEqual(store.capBytes());
    store.close();
  });

  it("never evicts a result written or read within the grace: its handle was just given", () => {
    // cap of 8 KB; each result is 5 KB: every write crosses the cap
    const { store, ledger } = open({ maxStoreMb: 8 / 1024 });
    const a = store.put("a".repeat(5 * 1024), info).meta.id;
    clock.advance(30_000);
    const b = store.put("b".repeat(5 * 1024), info).meta.id;
    clock.advance(30_000);
    expect(sweep(store, ledger, memoryLogger()).evicted).toBe(0);
    expect(store.read(a)).toBe("a".repeat(5 * 1024));
    expect(store.read(b)).toBe("b".repeat(5 * 1024));
    // Read again now, `a` stays; once `b` has aged past the grace it is the one to go.
    clock.advance(EVICT_GRACE_MS - 29_000);
    store.touchFetch(a);
    expect(sweep(store, ledger, memoryLogger()).evicted).toBe(1);
    expect(store.meta(b)!.state).toBe("tombstoned");
    expect(store.meta(a)!.state).toBe("live");
    store.close();
  });

  it("a deep sweep removes leftovers of killed writes and repairs rows whose file vanished", () => {
    const { store, ledger } = open();
    const kept = store.put("kept", info).meta.id;
    const lost = store.put("lost", info).meta.id;
    const gone = store.put("tombstoned, but its file outlived the commit", info).meta.id;
    store.files.remove(lost);
    const shard = join(home.path, "blobs", "ab");
    store.files.write("abcdefabcdef", Buffer.from("orphan with no row"));
    const tmp = join(shard, ".123-deadbeef.tmp");
    writeFileSync(tmp, "partial");
    // the spare temp file of a killed process (SpareTemp), beside the shards; a live one's stays
    const spare = join(home.path, "blobs", ".124-feedbeef.tmp");
    const liveSpare = join(home.path, "blobs", ".125-cafebeef.tmp");
    writeFileSync(spare, "");
    writeFileSync(liveSpare, "");
    // a tombstone whose file a kill left behind (the removal runs after the commit)
    const file = readFileSync(store.files.pathOf(gone));
    store.tombstone(gone, "expired");
    store.files.write(gone, file);
    const old = (Date.now() - 3_600_000) / 1000;
    for (const p of [tmp, spare, store.files.pathOf("abcdefabcdef"), store.files.pathOf(gone)]) utimesSync(p, old, old);
    const r = sweep(store, ledger, memoryLogger(), { deep: true });
    expect(r).toMatchObject({ tempFiles: 2, orphanFiles: 1, repairedRows: 1, quarantined: 1, recovered: 0 });
    expect(existsSync(spare)).toBe(false);
    expect(existsSync(liveSpare)).toBe(true);
    expect(store.meta(lost)!.state).toBe("tombstoned");
    expect(store.files.exists(gone)).toBe(false);
    expect(store.read(kept)).toBe("kept");
    // a file that matches no id is not deleted: it waits in quarantine until the tombstone TTL
    expect(store.files.exists("abcdefabcdef")).toBe(false);
    const q = readdirSync(join(home.path, "quarantine"));
    expect(q).toHaveLength(1);
    expect(readFileSync(join(home.path, "quarantine", q[0]!), "utf8")).toBe("orphan with no row");
    clock.advance(721 * HOUR);
    expect(sweep(store, ledger, memoryLogger()).quarantineDropped).toBe(1);
    expect(readdirSync(join(home.path, "quarantine"))).toHaveLength(0);
    store.close();
  });

  it("a deep sweep registers files the index lost as recovered results and quarantines damaged blobs", () => {
    const { store, ledger } = open();
    const json = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ i, name: `item ${i}` })) }, null, 1);
    const lostRow = store.put(json, info).meta.id;
    const damaged = store.put("a result that will be damaged on disk\n".repeat(50), info).meta.id;
    // the index forgets one row (as when a crash takes the WAL), and one file gets a flipped byte
    store.db.prepare("DELETE FROM blobs WHERE id = ?").run(lostRow);
    flipByte(store.files.pathOf(damaged), 100);
    const old = (Date.now() - 3_600_000) / 1000;
    utimesSync(store.files.pathOf(lostRow), old, old);
    const removed: string[] = [];
    const recovered: string[] = [];
    const r = sweep(store, ledger, memoryLogger(), {
      deep: true,
      onRemoved: (id) => removed.push(id),
      onRecovered: (id) => recovered.push(id),
      describe: (text) => ({ kind: "json", shape: "object", lines: text.split("\n").length, label: "public" }),
    });
    expect(r).toMatchObject({ recovered: 1, quarantined: 1 });
    expect(store.meta(lostRow)).toMatchObject({ state: "live", tool: "unknown (recovered)", kind: "json", chars: json.length });
    expect(store.read(lostRow)).toBe(json);
    expect(recovered).toEqual([lostRow]);
    expect(store.row(damaged)).toMatchObject({ tombstone_reason: "corrupt" });
    expect(removed).toEqual([damaged]);
    expect(readdirSync(join(home.path, "quarantine"))[0]).toMatch(new RegExp(`^${damaged}\\.\\d+$`));
    expect(ledger.eventsOfBlob(damaged).map((e) => JSON.parse(e.data_json ?? "{}"))).toContainEqual(
      expect.objectContaining({ reason: "corrupt", problem: "corrupt" }),
    );
    store.close();
  });

  it("without a way to describe them, a sweep leaves recoverable files alone rather than deleting them", () => {
    const { store, ledger } = open();
    const id = store.put("x".repeat(5000), info).meta.id;
    store.db.prepare("DELETE FROM blobs WHERE id = ?").run(id);
    const old = (Date.now() - 3_600_000) / 1000;
    utimesSync(store.files.pathOf(id), old, old);
    sweep(store, ledger, memoryLogger(), { deep: true });
    expect(store.files.exists(id)).toBe(true);
    store.close();
  });

  it("quarantines blobs whose key is lost, and restores them when the key comes back", () => {
    const { store, ledger } = open();
    const id = store.put("password=hunter2-but-longer", { ...info, label: "credential" }).meta.id;
    store.close();
    const keyFile = join(home.path, "key");
    const key = readFileSync(keyFile);
    unlinkSync(keyFile);
    const again = open();
    expect(() => again.store.read(id)).toThrow(/cannot decrypt/);
    expect(sweep(again.store, again.ledger, memoryLogger(), { deep: true }).quarantined).toBe(1);
    expect(again.store.row(id)).toMatchObject({ tombstone_reason: "corrupt" });
    again.store.close();
    writeFileSync(keyFile, key, { mode: 0o600 });
    const restored = open();
    const r = sweep(restored.store, restored.ledger, memoryLogger(), {
      deep: true,
      describe: () => ({ kind: "text", shape: "text", lines: 1, label: "credential" }),
    });
    expect(r.recovered).toBe(1);
    expect(restored.store.read(id)).toBe("password=hunter2-but-longer");
    restored.store.close();
    void ledger;
  });

  it("deletes files only after the commit that tombstones them", () => {
    const { store } = open();
    const a = store.put("evicted in a transaction that rolls back", info).meta.id;
    const b = store.put("evicted in a transaction that commits", info).meta.id;
    expect(() =>
      store.transact(() => {
        store.tombstone(a, "evicted");
        expect(store.files.exists(a)).toBe(true);
        throw new Error("killed before the commit");
      }),
    ).toThrow(/killed/);
    expect(store.meta(a)!.state).toBe("live");
    expect(store.read(a)).toBe("evicted in a transaction that rolls back");
    store.transact(() => {
      store.tombstone(b, "evicted");
      expect(store.files.exists(b)).toBe(true);
    });
    expect(store.files.exists(b)).toBe(false);
    store.close();
  });
});

function flipByte(path: string, at: number): void {
  const buf = readFileSync(path);
  buf[at] = buf[at]! ^ 0x01;
  writeFileSync(path, buf);
}
