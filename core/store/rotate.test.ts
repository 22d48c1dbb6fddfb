// `spillway key rotate` cut short at every step, once and twice in a row: every credential result
// still reads back byte for byte, and once the store is opened again (or the next rotation runs)
// the rotation is finished and doctor's key check is clean. A kill is taken as a copy of the home
// at that instant (index, its WAL, the key, the blob files), which is what SIGKILL would leave.
import { checkKey } from "../cli/doctor/checks";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../config/config";
import { fileKeyProvider, type KeyProvider } from "../crypto/keys";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { BlobStore, openStoreParts, type PutInfo } from "./blobStore";
import { sweep } from "./lifecycle";
import { storeHealth } from "./read/health";
import { rebuildIndex } from "./rebuildIndex";
import { rotateStoreKey, type RotationHooks } from "./rotate";
import { scanStore } from "./scan";

const credential: PutInfo = { tool: "env", sessionId: "s1", kind: "text", shape: "text", lines: 1, label: "credential" };
const RESULTS = 6;

/** Where a rotation is cut short. The first two are reached through the key provider, the rest through the rotation's hooks. */
const POINTS = [
  "before the key switch",
  "after the key switch",
  "after recording the old key",
  "after staging",
  "after one commit",
  "after half the commits",
] as const;
type Point = (typeof POINTS)[number];

class Killed extends Error {}

let root: ReturnType<typeof tempHome>;
beforeEach(() => (root = tempHome("spillway-rotate-")));
afterEach(() => root.cleanup());

function open(home: string, keys: KeyProvider = fileKeyProvider(home)): BlobStore {
  return new BlobStore({ home, clock: new FakeClock(), config: defaultConfig().store, keys });
}

/** A home with credential results (encrypted) and one plain one; returns each id with its exact text. */
function seed(): { home: string; results: { id: string; text: string }[] } {
  const home = mkdtempSync(join(root.path, "home-"));
  const store = open(home);
  const results = [];
  for (let k = 0; k < RESULTS; k++) {
    const text = `AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY${String(k).padStart(8, "0")}\n` + `cred ${k} line\n`.repeat(3000);
    results.push({ id: store.put(text, credential).meta.id, text });
  }
  const plain = "a listing with nothing secret in it\n".repeat(500);
  results.push({ id: store.put(plain, { ...credential, label: "public" }).meta.id, text: plain });
  store.close();
  return { home, results };
}

/** Another live process with the store open: the store then leaves an interrupted rotation pending at open. */
function otherProcess(home: string): () => void {
  mkdirSync(join(home, "processes"), { recursive: true });
  const note = join(home, "processes", String(process.ppid));
  writeFileSync(note, JSON.stringify({ pid: process.ppid, what: "spillway.js serve", startedAt: 0 }));
  return () => unlinkSync(note);
}

/**
 * Opens `home` and runs a rotation that is killed at `point`; returns a new home holding what the
 * disk held at that instant. With `pendingAtOpen`, another process has the store open when it is
 * opened (so only the rotation itself can finish an earlier interrupted one).
 */
function rotateKilledAt(home: string, point: Point, pendingAtOpen = false): string {
  const copy = mkdtempSync(join(root.path, "killed-"));
  let killed = false;
  const kill = (at: Point) => {
    if (killed || at !== point) return;
    killed = true;
    cpSync(home, copy, { recursive: true, filter: (src) => !src.endsWith("-shm") && !src.includes(`${join(home, "processes")}`) });
    throw new Killed(point);
  };
  const file = fileKeyProvider(home);
  const keys: KeyProvider = {
    kind: file.kind,
    loadKey: () => file.loadKey(),
    createKey: () => file.createKey(),
    replaceKey(next) {
      kill("before the key switch");
      file.replaceKey(next);
      kill("after the key switch");
    },
  };
  const leave = pendingAtOpen ? otherProcess(home) : null;
  const store = open(home, keys);
  leave?.();
  let commits = 0;
  const hooks: RotationHooks = {
    afterRecord: () => kill("after recording the old key"),
    afterStage: () => kill("after staging"),
    afterCommit: () => {
      commits++;
      if (commits === 1) kill("after one commit");
      if (commits === Math.ceil(RESULTS / 2)) kill("after half the commits");
    },
  };
  try {
    rotateStoreKey(store, hooks);
  } catch {
    // The kill; what runs after it in this process is not part of the copy.
  }
  store.close();
  expect(killed, `the rotation reached "${point}"`).toBe(true);
  return copy;
}

function stagedCopies(home: string): string[] {
  return (readdirSync(join(home, "blobs"), { recursive: true }) as string[]).filter((f) => f.endsWith(".rotate.tmp"));
}

/** Opens the store as the next command would: every result reads back exactly, and doctor's key check has nothing to say. */
function expectIntact(home: string, results: { id: string; text: string }[]): void {
  const store = open(home);
  for (const r of results) expect(store.read(r.id)).toBe(r.text);
  const h = storeHealth(store, { verify: true });
  expect(h.scan.bad).toEqual([]);
  expect(h.key.status.check).toBe("ok");
  expect(h.key.underOtherKeys).toBe(0);
  expect(h.key.sample?.ok).toBe(true);
  expect(h.key.rotation ?? null).toBeNull();
  expect(store.keys.pendingRotation?.() ?? null).toBeNull();
  expect(stagedCopies(home)).toEqual([]);
  store.close();
}

describe("an interrupted key rotation", () => {
  it.each(POINTS)("killed %s: is finished (or undone) when the store opens again, every result intact", (point) => {
    const { home, results } = seed();
    expectIntact(rotateKilledAt(home, point), results);
  });

  it.each(POINTS.flatMap((a) => POINTS.map((b) => [a, b] as const)))(
    "killed %s, then the next rotation killed %s: every result intact",
    (first, second) => {
      const { home, results } = seed();
      // The second `key rotate` finds the first one pending (another process kept the store from finishing it at open).
      const twice = rotateKilledAt(rotateKilledAt(home, first), second, true);
      expectIntact(twice, results);
    },
  );

  it("killed after the key switch twice, with the store opened in between: every result intact", () => {
    const { home, results } = seed();
    expectIntact(rotateKilledAt(rotateKilledAt(home, "after the key switch"), "after the key switch"), results);
  });

  it("is finished by the next complete rotation, which then re-encrypts everything", () => {
    const { home, results } = seed();
    const killed = rotateKilledAt(home, "after the key switch");
    const leave = otherProcess(killed);
    const store = open(killed);
    leave();
    expect(rotateStoreKey(store)).toBe(RESULTS);
    store.close();
    expectIntact(killed, results);
  });

  it("while still pending, reads fine, doctor reports no lost key, and no sweep removes the staged copies", () => {
    const { home, results } = seed();
    const killed = rotateKilledAt(home, "after the key switch");
    const leave = otherProcess(killed);
    const store = open(killed);
    expect(stagedCopies(killed)).toHaveLength(RESULTS);
    for (const r of results) expect(store.read(r.id)).toBe(r.text);

    const h = storeHealth(store, { verify: true });
    expect(h.key.underOtherKeys).toBe(0);
    expect(h.key.status.check).toBe("ok");
    expect(h.key.sample?.ok).toBe(true);
    expect(h.key.rotation).toEqual({ fromKeyId: expect.stringMatching(/^[0-9a-f]{16}$/), blobs: RESULTS });
    // doctor's key line says so, and how it gets finished.
    expect(checkKey(killed, h)).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /an interrupted key rotation from key [0-9a-f]{16} is pending \(\d+ blobs still under that key, all readable\): it is finished when the store is next opened/,
      ),
    });
    expect(h.scan.staleTemps).toEqual([]);

    // Well past the sweep's grace for temp files.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of stagedCopies(killed)) utimesSync(join(killed, "blobs", f), hourAgo, hourAgo);
    const report = sweep(store, openStoreParts(store).ledger, memoryLogger(), { deep: true });
    expect(report.tempFiles).toBe(0);
    expect(report.quarantined).toBe(0);
    expect(stagedCopies(killed)).toHaveLength(RESULTS);
    store.close();
    leave();
    expectIntact(killed, results);
  });

  it("leaves a staged copy that is its blob's only readable copy to no sweep, even once the index forgot the rotation", () => {
    const { home } = seed();
    const killed = rotateKilledAt(home, "after the key switch");
    const leave = otherProcess(killed);
    const store = open(killed);
    // As an index rebuilt from a damaged one would: the old key is gone from it.
    store.db.prepare("DELETE FROM meta WHERE key = 'rotating_old_key'").run();
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of stagedCopies(killed)) utimesSync(join(killed, "blobs", f), hourAgo, hourAgo);
    expect(scanStore(store, { verify: false }).staleTemps).toEqual([]);
    store.close();
    leave();
  });

  it.each(["after the key switch", "after one commit"] as const)(
    "killed %s, then the index rebuilt by doctor --repair: every result intact",
    (point) => {
      const { home, results } = seed();
      const killed = rotateKilledAt(home, point);
      rebuildIndex(killed);
      const store = open(killed);
      sweep(store, openStoreParts(store).ledger, memoryLogger(), { deep: true });
      store.close();
      expectIntact(killed, results);
    },
  );
});

describe("a key provider that fails while saving the new key", () => {
  function failingProvider(home: string, saves: boolean): KeyProvider {
    const file = fileKeyProvider(home);
    return {
      kind: "keychain",
      loadKey: () => file.loadKey(),
      createKey: () => file.createKey(),
      replaceKey(next) {
        if (saves) file.replaceKey(next);
        throw new Error("the keychain's mirror could not be written");
      },
    };
  }

  it("after it did save it: the rotation goes on to the end", () => {
    const { home, results } = seed();
    const store = open(home, failingProvider(home, true));
    expect(rotateStoreKey(store)).toBe(RESULTS);
    for (const r of results) expect(store.read(r.id)).toBe(r.text);
    store.close();
    expectIntact(home, results);
  });

  it("before it saved it: nothing changed", () => {
    const { home, results } = seed();
    const before = fileKeyProvider(home).loadKey();
    const store = open(home, failingProvider(home, false));
    expect(() => rotateStoreKey(store)).toThrow(/key rotation failed, nothing changed/);
    store.close();
    expect(fileKeyProvider(home).loadKey()).toEqual(before);
    expect(existsSync(join(home, "key"))).toBe(true);
    expectIntact(home, results);
  });
});
