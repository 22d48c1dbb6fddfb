// The leak test at the engine's boundary: secrets planted in a tool result, then everything the
// model can get of it in mask mode (the handle, every fetch mode, recall, a second copy in JSON,
// and a search over it) is checked for every planted value.
import { readFileSync } from "node:fs";
import { createEngine, engineInternals } from "./engine";
import { FakeClock, memoryLogger } from "../runtime";
import { buildLeakFixture } from "../../tests/fixtures/secrets/leakFixture";
import { tempHome } from "../../tests/helpers/tempHome";

function leaks(text: string, values: string[]): string[] {
  return values.filter((v) => text.includes(v));
}

describe("no secret reaches the model in mask mode", () => {
  const { text, planted } = buildLeakFixture();
  const values = [...new Set(planted.map((p) => p.value))];
  const kinds = new Set(planted.map((p) => p.kind));

  it("plants at least 20 kinds of secrets", () => {
    expect(kinds.size).toBeGreaterThanOrEqual(20);
    for (const v of values) expect(text).toContain(v);
  });

  it("handle, stat, outline, search, grep, chain, range, full and recall show none of them", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, clock: new FakeClock(), logger: memoryLogger() });
    const padded = text + "\n" + "ordinary log line without anything sensitive\n".repeat(400);
    const r = e.transformToolResult({ sessionId: "s", tool: "cat_env", args: { path: ".env" }, text: padded });
    expect(r.outcome).toBe("rescued");
    expect(leaks(r.text, values)).toEqual([]);
    expect(engineInternals(e).store.meta(r.blobId!)!.label).toBe("credential");
    // encrypted at rest: no planted value in the blob file
    const onDisk = readFileSync(engineInternals(e).store.files.pathOf(r.blobId!)).toString("latin1");
    expect(leaks(onDisk, values)).toEqual([]);

    const answers: string[] = [];
    const ask = (mode: string, args: Record<string, unknown> = {}) => {
      const a = e.fetch({ sessionId: "s", id: r.blobId, mode, args });
      answers.push(`${mode}: ${a.text}`);
      return a;
    };
    ask("stat");
    ask("outline");
    for (const q of ["aws secret access key", "password", "private key", "token", "authorization bearer", "connection string"])
      ask("search", { query: q, top_k: 10 });
    for (const p of ["key", "secret", "token", "password", "BEGIN", "bearer", "://", "sig=", "=", ":"]) ask("grep", { pattern: p });
    ask("chain", { pattern: "PRIVATE KEY", context: 30 });
    for (let start = 0; start < 400; start += 40) ask("range", { start, count: 40 });
    for (let c = 0; c < text.length; c += 3000) ask("range", { start_char: c, count_chars: 3000 });
    const full = ask("full");
    expect(full.isError).toBe(true);
    expect(full.text).toMatch(/withheld|credential|secret/i);
    answers.push(e.recall("s", r.blobId).text);
    const readBack = e.readBlob("s", r.blobId!);
    answers.push(JSON.stringify(readBack));
    for (const a of answers) expect(leaks(a, values), a.slice(0, 200)).toEqual([]);
    // and the secrets are still there for the operator, byte for byte
    expect(engineInternals(e).store.read(r.blobId!)).toBe(padded);
    await e.close();
    home.cleanup();
  });

  it("the same secrets in a shell tool's JSON answer (escaped lines and quotes): none reaches the model, and what it gets is still JSON", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, logger: memoryLogger() });
    // Each command's output on its own passes through (masked in place); all of it is rescued.
    const pieces = text.split(/\n(?=\$ )/);
    expect(pieces.length).toBeGreaterThan(10);
    const answers: string[] = [];
    for (const [i, stdout] of pieces.entries()) {
      const r = e.transformToolResult({ sessionId: "s", tool: "run_command", text: JSON.stringify({ exit_code: 0, stdout }) });
      expect(r.outcome).toBe("passthrough");
      const given = JSON.parse(r.text) as { exit_code: number; stdout: string };
      // the lines are all still there, one for one
      expect(given.stdout.split("\n").length, `piece ${i}`).toBe(stdout.split("\n").length);
      answers.push(r.text);
    }
    const whole = JSON.stringify({ exit_code: 0, stdout: text + "\n" + "ordinary log line without anything sensitive\n".repeat(400) });
    const r = e.transformToolResult({ sessionId: "s", tool: "run_command", text: whole });
    expect(r.outcome).toBe("rescued");
    expect(engineInternals(e).store.meta(r.blobId!)!.label).toBe("credential");
    answers.push(r.text);
    for (const p of ["key", "token", "password", "BEGIN", "://", "="])
      answers.push(e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: p } }).text);
    for (let c = 0; c < whole.length; c += 3000)
      answers.push(e.fetch({ sessionId: "s", id: r.blobId, mode: "range", args: { start_char: c, count_chars: 3000 } }).text);
    const q = e.fetch({ sessionId: "s", id: r.blobId, mode: "query", args: { expression: "stdout" } });
    expect(q.isError).toBe(false);
    answers.push(q.text);
    for (const a of answers) expect(leaks(a, values), a.slice(0, 200)).toEqual([]);
    await e.close();
    home.cleanup();
  });

  it("a Dockerfile's `ENV NAME value` and a YAML block scalar: masked when passed through (as text and in a JSON answer) and in the fetches of a rescued copy", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, clock: new FakeClock(), logger: memoryLogger() });
    const files = text.split(/\n(?=\$ )/).filter((p) => p.startsWith("$ cat Dockerfile") || p.startsWith("$ cat values.yaml"));
    expect(files).toHaveLength(2);
    const fileValues = planted.filter((p) => /^(?:dockerfile_env|yaml_block)_/.test(p.kind)).map((p) => p.value);
    expect(fileValues).toHaveLength(4);
    for (const file of files) expect(leaks(file, fileValues).length).toBeGreaterThan(0);
    const answers: string[] = [];
    for (const file of files) {
      const plain = e.transformToolResult({ sessionId: "s", tool: "read_file", text: file });
      expect(plain.outcome).toBe("passthrough");
      expect(plain.text.split("\n").length).toBe(file.split("\n").length);
      expect(plain.text).toContain("[masked:");
      const json = e.transformToolResult({ sessionId: "s", tool: "run_command", text: JSON.stringify({ exit_code: 0, stdout: file }) });
      expect(json.outcome).toBe("passthrough");
      expect((JSON.parse(json.text) as { stdout: string }).stdout.split("\n").length).toBe(file.split("\n").length);
      answers.push(plain.text, json.text);
    }
    const padded = files.join("\n") + "\n" + "ordinary log line without anything sensitive\n".repeat(400);
    const r = e.transformToolResult({ sessionId: "s", tool: "read_file", text: padded });
    expect(r.outcome).toBe("rescued");
    expect(engineInternals(e).store.meta(r.blobId!)!.label).toBe("credential");
    answers.push(r.text);
    const ask = (mode: string, args: Record<string, unknown> = {}) =>
      answers.push(e.fetch({ sessionId: "s", id: r.blobId, mode, args }).text);
    for (const p of ["ENV", "PASSWORD", "password", "secret", "^    "]) ask("grep", { pattern: p });
    ask("range", { start: 0, count: 40 });
    ask("search", { query: "db password client secret", top_k: 10 });
    answers.push(e.recall("s", r.blobId).text);
    for (const a of answers) expect(leaks(a, fileValues), a.slice(0, 300)).toEqual([]);
    await e.close();
    home.cleanup();
  });

  it("secrets in a JSON result: the JMESPath query answer is masked too", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, logger: memoryLogger() });
    const records = planted.map((p, i) => ({
      id: i,
      kind: p.kind,
      note: "config value follows",
      value: `${p.kind.toUpperCase()}_SECRET=${p.value}`,
    }));
    const json = JSON.stringify({ items: records, filler: "x".repeat(13_000) }, null, 2);
    const r = e.transformToolResult({ sessionId: "s", tool: "get_config", text: json });
    expect(r.outcome).toBe("rescued");
    expect(leaks(r.text, values)).toEqual([]);
    const q = e.fetch({ sessionId: "s", id: r.blobId, mode: "query", args: { expression: "items[].value" } });
    expect(q.isError).toBe(false);
    expect(leaks(q.text, values)).toEqual([]);
    await e.close();
    home.cleanup();
  });

  it("a secret in the arguments labels the result credential, so it is encrypted and full is withheld", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, logger: memoryLogger() });
    const token = planted.find((p) => p.kind.includes("github"))?.value ?? planted[0]!.value;
    const r = e.transformToolResult({
      sessionId: "s",
      tool: "http_get",
      args: { headers: { Authorization: `token ${token}` } },
      text: "plain page text\n".repeat(1000),
    });
    expect(engineInternals(e).store.meta(r.blobId!)).toMatchObject({ label: "credential", encrypted: true });
    expect(e.fetch({ sessionId: "s", id: r.blobId, mode: "full" }).isError).toBe(true);
    await e.close();
    home.cleanup();
  });

  it("audit mode labels and records but does not mask", async () => {
    const home = tempHome();
    const { parseConfig } = await import("../config/config");
    const e = createEngine({ home: home.path, config: parseConfig({ sensitivity: { mode: "audit" } }), logger: memoryLogger() });
    const r = e.transformToolResult({ sessionId: "s", tool: "cat_env", text: text + "\n" + "filler line\n".repeat(1500) });
    expect(engineInternals(e).store.meta(r.blobId!)!.label).toBe("credential");
    const g = e.fetch({ sessionId: "s", id: r.blobId, mode: "range", args: { start: 0, count: 30 } });
    expect(leaks(g.text, values).length).toBeGreaterThan(0);
    await e.close();
    home.cleanup();
  });
});
