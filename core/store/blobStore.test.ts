import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../config/config";
import { fileKeyProvider } from "../crypto/keys";
import { FakeClock } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { checkBlobId } from "./blobId";
import { BlobStore, type PutInfo } from "./blobStore";

const info: PutInfo = { tool: "read_file", sessionId: "s1", kind: "text", shape: "text", lines: 1, label: "public" };

function open(home: string, clock = new FakeClock()) {
  return new BlobStore({ home, clock, config: defaultConfig().store, keys: fileKeyProvider(home) });
}

describe("BlobStore", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("makes every shard folder after its first write, so later results never make theirs on the call's path", async () => {
    const store = open(home.path);
    store.put("first result", info);
    await store.flushed();
    expect(readdirSync(join(home.path, "blobs"), { withFileTypes: true }).filter((d) => d.isDirectory())).toHaveLength(256);
    store.close();
  });

  it("never writes encoded bytes that a later encode reused: the put fails and stores nothing", () => {
    const store = open(home.path);
    const text = "first result\n".repeat(2_000);
    const prepared = store.prepareText(text, true);
    // Another result encoded meanwhile takes the scratch the first one's bytes were lent from.
    store.prepareText("second result\n".repeat(2_000), true);
    expect(() => store.put(text, info, prepared)).toThrow(/reused before they were written/);
    expect(store.meta(prepared.id)).toBeNull();
    expect(readdirSync(join(home.path, "blobs"), { recursive: true }).filter((f) => String(f).includes(prepared.id))).toEqual([]);
    const { meta } = store.put(text, info, store.prepareText(text, true));
    expect(store.read(meta.id)).toBe(text);
    store.close();
  });

  it("gives back exactly what was stored, including lone surrogates, NUL bytes and astral characters", () => {
    const store = open(home.path);
    // the last two straddle the 1 MiB slices the store encodes in, with a pair across the cut
    const texts = [
      "plain ascii",
      "naïve café — ünïcödé 😀",
      "half a pair: \ud83d and \udc00 alone",
      "nul\u0000inside",
      "x".repeat(300_000),
      "a".repeat((1 << 20) - 1) + "😀" + "b".repeat(1000),
      "c".repeat((1 << 20) - 1) + "\ud83dlone at the cut",
    ];
    for (const t of texts) {
      const { meta } = store.put(t, info);
      expect(meta.chars).toBe(t.length);
      expect(store.read(meta.id)).toBe(t);
    }
    store.close();
  });

  it("writes from the slices it encoded for the id: same id, same file, same text, plain or encrypted", () => {
    const store = open(home.path);
    const otherHome = tempHome();
    const other = open(otherHome.path);
    const texts = ["naïve café — ünïcödé 😀", "c".repeat((1 << 20) - 1) + "\ud83dlone at the cut", "d".repeat(3 << 20)];
    for (const [i, t] of texts.entries()) {
      for (const label of ["public", "credential"] as const) {
        const kept = store.prepareText(t + label, true);
        expect(kept.encoded).toBeDefined();
        expect(kept.id).toBe(store.idFor(t + label));
        const { meta } = store.put(t + label, { ...info, label, sessionId: `s${i}` }, kept);
        expect(meta.id).toBe(kept.id);
        expect(store.read(meta.id)).toBe(t + label);
        // a store that encodes twice writes the same plain file
        if (label === "public") {
          const again = other.put(t + label, info);
          expect(readFileSync(other.files.pathOf(again.meta.id)).equals(readFileSync(store.files.pathOf(meta.id)))).toBe(true);
          expect(store.row(meta.id)!.bytes).toBe(other.row(again.meta.id)!.bytes);
        }
      }
    }
    other.close();
    otherHome.cleanup();
    store.close();
  });

  it("stores equal content once, under one 12-hex id, and a repeat insert is a no-op", () => {
    const store = open(home.path);
    const a = store.put("same content", info);
    const b = store.put("same content", { ...info, sessionId: "s2" });
    expect(a.meta.id).toMatch(/^[0-9a-f]{12}$/);
    expect(b.meta.id).toBe(a.meta.id);
    expect(a.created).toBe(true);
    expect(b.created).toBe(false);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM blobs").get()).toEqual({ n: 1 });
    store.close();
  });

  it("derives ids with a per-store secret, so another store (or an outsider) gets a different id", () => {
    const other = tempHome();
    const s1 = open(home.path);
    const s2 = open(other.path);
    expect(s1.idFor("guessable content")).not.toBe(s2.idFor("guessable content"));
    // the same store reopened keeps its secret
    const id = s1.idFor("guessable content");
    s1.close();
    const again = open(home.path);
    expect(again.idFor("guessable content")).toBe(id);
    again.close();
    s2.close();
    other.cleanup();
  });

  it("keeps folders private (0700) and files private (0600)", () => {
    const store = open(home.path);
    const { meta } = store.put("private", info);
    expect(statSync(home.path).mode & 0o777).toBe(0o700);
    expect(statSync(join(home.path, "blobs")).mode & 0o777).toBe(0o700);
    expect(statSync(store.files.pathOf(meta.id)).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.path, "index.sqlite")).mode & 0o777).toBe(0o600);
    store.close();
  });

  it("encrypts credential blobs at rest and still reads them back exactly", () => {
    const store = open(home.path);
    const secret = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY and more text";
    const { meta } = store.put(secret, { ...info, label: "credential" });
    expect(meta.encrypted).toBe(true);
    const onDisk = readFileSync(store.files.pathOf(meta.id));
    expect(onDisk.includes(Buffer.from("wJalrXUtnFEMI"))).toBe(false);
    expect(store.read(meta.id)).toBe(secret);
    store.close();
  });

  it("encrypts a blob in place when its label rises to credential, and never lowers a label", () => {
    const store = open(home.path);
    const text = "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const { meta } = store.put(text, info);
    expect(readFileSync(store.files.pathOf(meta.id), "utf8")).toBe(text);
    store.raiseLabel(meta.id, "credential");
    expect(readFileSync(store.files.pathOf(meta.id)).includes(Buffer.from("ghp_"))).toBe(false);
    store.raiseLabel(meta.id, "public");
    expect(store.meta(meta.id)!.label).toBe("credential");
    expect(store.read(meta.id)).toBe(text);
    store.close();
  });

  it("turns a blob into a tombstone that remembers the tool, and revives it when the content comes back", () => {
    const store = open(home.path);
    const { meta } = store.put("soon gone", info);
    expect(store.tombstone(meta.id, "expired")).toBe(true);
    expect(store.read(meta.id)).toBeNull();
    expect(store.meta(meta.id)).toMatchObject({ state: "tombstoned", tool: "read_file" });
    expect(store.files.exists(meta.id)).toBe(false);
    const again = store.put("soon gone", info);
    expect(again.created).toBe(true);
    expect(again.meta.state).toBe("live");
    expect(store.read(meta.id)).toBe("soon gone");
    store.close();
  });

  it("puts a blob's file in place only when its transaction commits: a failed one leaves no file, no temp and no row", () => {
    const store = open(home.path);
    const text = "rolled back\n".repeat(20_000);
    const id = store.idFor(text);
    expect(() =>
      store.transact(() => {
        store.put(text, info);
        throw new Error("the caller failed after the put");
      }),
    ).toThrow("the caller failed");
    expect(store.row(id)).toBeUndefined();
    const shard = join(home.path, "blobs", id.slice(0, 2));
    expect(existsSync(shard) ? readdirSync(shard) : []).toEqual([]);
    // the same put, committed, is read back exactly
    const { meta } = store.transact(() => store.put(text, info));
    expect(store.read(meta.id)).toBe(text);
    store.close();
  });

  it("writes a new text's file ahead of its put, which takes it; unclaimed, sealed differently or failed, nothing stays", () => {
    const store = open(home.path);
    /** Files under blobs/ with content (spares are empty): name and inode. */
    const files = () =>
      readdirSync(join(home.path, "blobs"), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => ({ name: e.name, st: statSync(join(e.parentPath, e.name)) }))
        .filter((f) => f.st.size > 0);
    const written = () => files().map((f) => f.name);
    const text = "written ahead\n".repeat(5_000);
    let inode = -1;
    const prepared = store.prepareText(text, true);
    const meta = store.transact(() => {
      store.writeAhead(prepared, () => "public");
      // under a temp name while the call goes on: the bytes are on their way to the disk
      expect(written()).toHaveLength(1);
      expect(written()[0]).toMatch(/\.tmp$/);
      inode = files()[0]!.st.ino;
      return store.put(text, info, prepared).meta;
    });
    expect(written()).toEqual([meta.id]);
    // the very file written ahead, renamed into place: the put wrote no second copy
    expect(statSync(store.files.pathOf(meta.id)).ino).toBe(inode);
    expect(store.read(meta.id)).toBe(text);
    // a live copy: nothing is written ahead
    store.transact(() => {
      store.writeAhead(store.prepareText(text, true), () => "public");
      expect(written()).toEqual([meta.id]);
    });
    // written ahead, never put: removed at the end, no row
    const lone = store.prepareText("never put\n".repeat(100), true);
    store.transact(() => store.writeAhead(lone, () => "public"));
    expect(written()).toEqual([meta.id]);
    expect(store.row(lone.id)).toBeUndefined();
    // written in the clear ahead, then put as a credential: the put seals its own file
    const secret = "password=hunter2-but-longer\n".repeat(50);
    const sp = store.prepareText(secret, true);
    const sealed = store.transact(() => {
      store.writeAhead(sp, () => "public");
      return store.put(secret, { ...info, label: "credential" }, sp).meta;
    });
    expect(sealed.encrypted).toBe(true);
    expect(readFileSync(store.files.pathOf(sealed.id)).includes(Buffer.from("hunter2"))).toBe(false);
    expect(written().sort()).toEqual([meta.id, sealed.id].sort());
    // a failed transaction leaves neither the file nor its temp
    const failed = store.prepareText("rolled back ahead\n".repeat(100), true);
    expect(() =>
      store.transact(() => {
        store.writeAhead(failed, () => "credential");
        store.put(failed.text, info, failed);
        throw new Error("the caller failed");
      }),
    ).toThrow("the caller failed");
    expect(written().sort()).toEqual([meta.id, sealed.id].sort());
    expect(store.row(failed.id)).toBeUndefined();
    store.close();
    // closing removes the spare temp file too
    expect(readdirSync(join(home.path, "blobs")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("goes on storing when its blobs folder is removed by hand while it runs, spares and shard folders included", async () => {
    const store = open(home.path);
    const first = store.put("before the removal\n".repeat(100), info).meta;
    await new Promise((r) => setImmediate(r)); // the spares are made
    expect(readdirSync(join(home.path, "blobs")).filter((n) => n.endsWith(".tmp"))).toHaveLength(2);
    rmSync(join(home.path, "blobs"), { recursive: true });
    for (const n of [1, 2, 3]) {
      const text = `after the removal ${n}\n`.repeat(100);
      const { meta } = store.put(text, info);
      expect(store.read(meta.id)).toBe(text);
      await new Promise((r) => setImmediate(r));
    }
    // the same shard as a blob stored before: its folder was seen, and is made again
    const again = store.put("before the removal\n".repeat(100), info);
    expect(again.repaired ?? again.created).toBeTruthy();
    expect(store.read(first.id)).toBe("before the removal\n".repeat(100));
    store.close();
  });

  it("keeps the bytes the size cap counts exact through puts, sidecars, kept files, sealing, tombstones, revivals and deletes", () => {
    const store = open(home.path);
    // What usedBytes replaced: the sum over every live row, read here as the truth.
    const summed = () =>
      (
        store.db
          .prepare("SELECT COALESCE(SUM(bytes + sidecar_bytes + aux_bytes), 0) AS n FROM blobs WHERE tombstoned_at IS NULL")
          .get() as { n: number }
      ).n;
    const steps: string[] = [];
    const check = (step: string) => {
      steps.push(step);
      expect({ step, used: store.usedBytes() }).toEqual({ step, used: summed() });
    };
    check("empty");
    const a = store.put("token: ghp_abcdefghijklmnopqrstuvwxyz0123456789 " + "a".repeat(5_000), info).meta.id;
    const b = store.put("line of a log\n".repeat(90_000), info).meta.id;
    check("two puts");
    store.put("line of a log\n".repeat(90_000), info);
    check("a repeat put");
    store.setSidecarBytes(a, 1_234);
    check("a search sidecar");
    store.aux.put(b, "outline", Buffer.alloc(4_096, 1));
    check("a kept file");
    expect(store.row(b)!.aux_bytes).toBe(4_096);
    store.raiseLabel(a, "credential"); // sealed in place: its size changes
    check("sealed");
    store.tombstone(b, "evicted");
    check("tombstoned");
    store.put("line of a log\n".repeat(90_000), info);
    check("revived");
    store.tombstone(a, "expired");
    store.db.prepare("DELETE FROM blobs WHERE id = ?").run(a);
    check("a tombstone deleted");
    store.db.prepare("DELETE FROM blobs WHERE id = ?").run(b);
    check("a live row deleted");
    expect(store.usedBytes()).toBe(0);
    expect(steps).toHaveLength(10);
    store.close();
  });

  it("rejects malformed ids with a sentence", () => {
    expect(() => checkBlobId("../../etc/passwd")).toThrow(/not a Spillway id/);
    expect(checkBlobId("0123456789ab")).toBe("0123456789ab");
  });
});
