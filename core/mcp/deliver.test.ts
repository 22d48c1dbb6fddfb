import Database from "better-sqlite3";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../config/config";
import { createEngine, type Engine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { smallSecrets } from "../../tests/fixtures/secrets/smallSecrets";
import { deliverResult, repeatsText, splitLike } from "./deliver";
import { deliverResource } from "./deliverResource";

const secrets = smallSecrets(3);
const leaks = (v: unknown) => secrets.values.filter((s) => JSON.stringify(v).includes(s));

function log(lines: number, seed = "x"): string {
  return Array.from({ length: lines }, (_, i) => `[${seed}] step ${i}: compiled module ${i} in ${i % 89} ms`).join("\n");
}

describe("what the client gets for an upstream result", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  beforeEach(() => {
    home = tempHome();
    engine = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
  });
  afterEach(async () => {
    await engine.close();
    home.cleanup();
  });
  const deliver = (result: CallToolResult, note: string | null = null) =>
    deliverResult(engine, { sessionId: "s", tool: "read", server: "fs", args: { p: 1 }, result, note });

  it("returns a small result exactly as the upstream sent it", () => {
    const result: CallToolResult = { content: [{ type: "text", text: "ok" }], structuredContent: { ok: true }, _meta: { x: 1 } };
    expect(deliver(result)).toBe(result);
  });

  it("replaces large text by the handle and a resource_link, keeping images after them", () => {
    const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
    const out = deliver({ content: [{ type: "text", text: log(2000) }, image] });
    expect(out.content).toHaveLength(3);
    expect(out.content[0]).toMatchObject({ type: "text" });
    expect((out.content[0] as { text: string }).text).toMatch(/PREVIEW/);
    expect(out.content[1]).toMatchObject({
      type: "resource_link",
      uri: expect.stringMatching(/^spillway:\/\/blob\/[0-9a-f]{12}$/),
      mimeType: "text/plain",
    });
    expect(out.content[2]).toEqual(image);
  });

  it("drops large structuredContent that only repeats the text (server-filesystem's shape)", () => {
    const text = log(2000);
    const out = deliver({ content: [{ type: "text", text }], structuredContent: { content: text } });
    expect(out.structuredContent).toBeUndefined();
    expect(out.content.filter((c) => c.type === "resource_link")).toHaveLength(1);
  });

  it("passes a large image or binary resource as sent, dropping the structuredContent that repeats it (server-filesystem's read_media_file) instead of adding a handle of its base64", () => {
    const data = Buffer.alloc(50_000, 7).toString("base64");
    const image = { type: "image" as const, data, mimeType: "image/png" };
    const out = deliver({ content: [image], structuredContent: { content: [{ type: "image", data, mimeType: "image/png" }] } });
    expect(out.content).toEqual([image]);
    expect(out.structuredContent).toBeUndefined();
    const resource = { type: "resource" as const, resource: { uri: "file:///b.bin", blob: data, mimeType: "application/octet-stream" } };
    const out2 = deliver({
      content: [resource],
      structuredContent: { content: [{ type: "resource", resource: { ...resource.resource } }] },
    });
    expect(out2.content).toEqual([resource]);
    expect(out2.structuredContent).toBeUndefined();
    // Nothing was withheld from the model, so nothing was rescued or counted as saved.
    const total = engine.savings("total")[0]!;
    expect([total.rescued, total.netChars]).toEqual([0, 0]);
  });

  it("stores large structuredContent of its own as a second blob, never breaking a schema", () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item-${i}` }));
    const out = deliver({ content: [{ type: "text", text: "2000 items" }], structuredContent: { items } });
    expect(out.structuredContent).toBeUndefined();
    expect(out.content[0]).toEqual({ type: "text", text: "2000 items" });
    expect((out.content[1] as { text: string }).text).toMatch(/PREVIEW/);
    expect(out.content[2]).toMatchObject({ type: "resource_link", mimeType: "application/json" });
    const id = (out.content[2] as { uri: string }).uri.slice(-12);
    expect(engine.recall("s", id).text.length).toBeGreaterThan(0);
  });

  it("stores a large embedded text resource like a large text: the handle and a link in its place, the exact text recalled, a repeat stubbed", () => {
    const text = log(800);
    const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
    const result: CallToolResult = {
      content: [
        { type: "text", text: "read 1 file" },
        { type: "resource", resource: { uri: "file:///repo/build.log", mimeType: "text/plain", text } },
        image,
      ],
    };
    const out = deliver(result);
    expect(out.content[0]).toEqual({ type: "text", text: "read 1 file" });
    const handle = (out.content[1] as { text: string }).text;
    expect(handle).toMatch(/^file:\/\/\/repo\/build\.log:\n\[spillway: output of read stored as [0-9a-f]{12}/);
    expect(handle).toMatch(/PREVIEW/);
    expect(handle.length).toBeLessThan(text.length / 4);
    expect(out.content[2]).toMatchObject({ type: "resource_link", uri: expect.stringMatching(/^spillway:\/\/blob\/[0-9a-f]{12}$/) });
    expect(out.content[3]).toEqual(image);
    const id = (out.content[2] as { uri: string }).uri.slice(-12);
    expect(engine.recall("s", id).text).toBe(text);
    // the call's audit counts it: chars returned and given, not the 0 of a call with no text
    const db = new Database(join(home.path, "index.sqlite"), { readonly: true });
    const calls = db.prepare("SELECT returned_chars AS returned, given_chars AS given FROM calls WHERE session_id = 's'").all() as {
      returned: number;
      given: number;
    }[];
    db.close();
    expect(calls.some((c) => c.returned === text.length && c.given < text.length / 4)).toBe(true);
    // the same call again: a stub in its place
    const again = deliver(result);
    expect((again.content[1] as { text: string }).text).toMatch(/recall_result\(result_id="[0-9a-f]{12}"\)/);
    expect(JSON.stringify(again).length).toBeLessThan(2_000);
  });

  it("appends the note about a denied spill: token", () => {
    const out = deliver({ content: [{ type: "text", text: "ok" }] }, "[spillway: spill:abc was not expanded]");
    expect(out.content.at(-1)).toEqual({ type: "text", text: "[spillway: spill:abc was not expanded]" });
    // A host that shows structuredContent instead (Codex, Claude Code) must not miss it: it goes.
    const written = {
      content: [{ type: "text" as const, text: "Successfully wrote to out.txt" }],
      structuredContent: { content: "Successfully wrote to out.txt" },
    };
    const noted = deliver(written, "[spillway: spill:abc was not expanded]");
    expect(noted.structuredContent).toBeUndefined();
    expect(noted.content.map((c) => (c as { text: string }).text)).toEqual([
      "Successfully wrote to out.txt",
      "[spillway: spill:abc was not expanded]",
    ]);
  });

  it("masks a small pass-through in every text it carries, keeping its shape and its images", () => {
    const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
    const [a, b, c] = [secrets.lines.slice(0, 5).join("\n"), secrets.lines.slice(5, 9).join("\n"), secrets.lines.slice(9).join("\n")];
    const result: CallToolResult = {
      content: [
        { type: "text", text: a },
        image,
        { type: "text", text: b },
        { type: "resource", resource: { uri: "file:///x.env", text: c } },
      ],
      structuredContent: { env: { SESSION_SECRET: secrets.values[6], note: secrets.lines[0] }, count: 3 },
    };
    const out = deliver(result);
    expect(leaks(out)).toEqual([]);
    expect(out.content.map((x) => x.type)).toEqual(["text", "image", "text", "resource"]);
    expect(out.content[1]).toBe(image);
    expect((out.content[0] as { text: string }).text.split("\n")).toHaveLength(5);
    expect((out.content[2] as { text: string }).text).toContain("Cookie: [masked:cookie]");
    expect(out.structuredContent).toEqual({
      env: { SESSION_SECRET: "[masked:secret]", note: expect.stringContaining("[masked:") },
      count: 3,
    });
    expect(leaks(result)).toHaveLength(secrets.values.length); // the upstream's result object is left alone
  });

  it("returns an opted-out tool's result exactly as sent", async () => {
    const e = createEngine({ home: home.path, config: parseConfig({ sensitivity: { unmaskedTools: ["read"] } }), logger: memoryLogger() });
    const result: CallToolResult = { content: [{ type: "text", text: secrets.lines.join("\n") }] };
    expect(deliverResult(e, { sessionId: "s", tool: "read", server: "fs", args: {}, result, note: null })).toBe(result);
    await e.close();
  });

  it("masks a small upstream resource read and keeps a clean or binary one as sent", () => {
    const secret = { uri: "file:///app/.env", mimeType: "text/plain", text: secrets.lines.join("\n") };
    const blob = { uri: "file:///logo.png", mimeType: "image/png", blob: "aGk=" };
    const out = deliverResource(engine, { sessionId: "s", server: "fs", uri: secret.uri, result: { contents: [secret, blob] } });
    expect(leaks(out)).toEqual([]);
    expect(out.contents[0]).toMatchObject({ uri: secret.uri, mimeType: "text/plain", text: expect.stringContaining("[masked:") });
    expect(out.contents[1]).toBe(blob);
    const clean = { contents: [{ uri: "file:///README", text: "hello" }] };
    expect(deliverResource(engine, { sessionId: "s", server: "fs", uri: "file:///README", result: clean })).toBe(clean);
  });

  it("cuts a masked join back into its parts by their newlines", () => {
    expect(splitLike("a\nb [m]\nc\nd", ["a", "b x\nc", "d"])).toEqual(["a", "b [m]\nc", "d"]);
    expect(splitLike("only", ["only"])).toEqual(["only"]);
    expect(splitLike("a b", ["a", "b"])).toBeNull();
  });

  it("judges repetition by what is left once the repeated strings are set aside", () => {
    const big = "y".repeat(50_000);
    expect(repeatsText({ a: big, n: 1 }, JSON.stringify({ a: big, n: 1 }).length, `x${big}x`, 12_000)).toBe(true);
    expect(repeatsText({ a: big }, 50_010, "other text", 12_000)).toBe(false);
    const many = Array.from({ length: 3000 }, (_, i) => i);
    expect(repeatsText({ a: big, many }, JSON.stringify({ a: big, many }).length, big, 1_000)).toBe(false);
  });
});
