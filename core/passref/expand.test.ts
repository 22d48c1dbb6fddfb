import { defaultConfig } from "../config/config";
import type { Label } from "../types";
import { SPILL_TOKEN, expandArguments, type PassrefBlob, type PassrefResolve } from "./expand";

const CSV = "id,name\n1,Ada\n2,Alan\n";
const blobs: Record<string, PassrefBlob> = {
  aaaaaaaaaaaa: { id: "aaaaaaaaaaaa", content: CSV, label: "public", tool: "fs__read_file" },
  bbbbbbbbbbbb: { id: "bbbbbbbbbbbb", content: "x".repeat(600_000), label: "public", tool: "fs__read_file" },
  cccccccccccc: { id: "cccccccccccc", content: "AWS_SECRET_ACCESS_KEY=…", label: "credential", tool: "env" },
  dddddddddddd: { id: "dddddddddddd", content: "$& $1 $$ literal dollars", label: "personal", tool: "hr" },
  eeeeeeeeeeee: { id: "eeeeeeeeeeee", content: "y".repeat(400_000), label: "public", tool: "fs" },
};
const resolve: PassrefResolve = (id) =>
  blobs[id] ? { ok: true, blob: blobs[id]! } : { ok: false, reason: `no blob ${id} is held by this session.` };
const cfg = defaultConfig().passref;
const T = (id: string) => `spill:${id}`;
const brokenResolve: PassrefResolve = (id) => {
  if (id === "aaaaaaaaaaaa") throw new Error("disk on fire");
  return undefined as never;
};

describe("SPILL_TOKEN", () => {
  it("matches 12 lowercase hex digits, word-bounded", () => {
    expect(SPILL_TOKEN.test("see spill:0123456789ab.")).toBe(true);
    for (const s of [
      "xspill:0123456789ab",
      "_spill:0123456789ab",
      "spill:0123456789abc",
      "spill:0123456789a",
      "spill:0123456789AB",
      "spill:0123456789ag",
    ]) {
      expect(SPILL_TOKEN.test(s)).toBe(false);
    }
  });
});

describe("expandArguments", () => {
  it("replaces a whole-string token with the content and substitutes tokens in place, at any depth", () => {
    const args = {
      path: "/tmp/out.txt",
      data: T("aaaaaaaaaaaa"),
      files: [{ name: "a" }, { name: "b" }, { name: "c", text: `header\n${T("aaaaaaaaaaaa")}\nfooter` }],
      deep: { a: { b: { c: [[`prefix ${T("dddddddddddd")} suffix`]] } } },
      n: 42,
      flag: true,
      none: null,
    };
    const r = expandArguments({ tool: "analyze_csv", args }, resolve, cfg);
    expect(r.changed).toBe(true);
    const out = r.args as typeof args;
    expect(out.data).toBe(CSV);
    expect(out.files[2]!.text).toBe(`header\n${CSV}\nfooter`);
    expect(out.deep.a.b.c[0]![0]).toBe("prefix $& $1 $$ literal dollars suffix");
    expect(out).toMatchObject({ path: "/tmp/out.txt", n: 42, flag: true, none: null });
    expect(r.expansions.map((e) => [e.path, e.outcome, e.chars])).toEqual([
      ["args.data", "expanded", CSV.length],
      ["args.files[2].text", "expanded", CSV.length],
      ["args.deep.a.b.c[0][0]", "expanded", blobs.dddddddddddd!.content.length],
    ]);
  });

  it("does not mutate the input and shares untouched branches", () => {
    const args = { keep: { big: [1, 2, 3] }, list: ["plain", T("aaaaaaaaaaaa")] };
    const snapshot = structuredClone(args);
    const r = expandArguments({ tool: "summarize", args }, resolve, cfg);
    expect(args).toEqual(snapshot);
    const out = r.args as typeof args;
    expect(out).not.toBe(args);
    expect(out.keep).toBe(args.keep);
    expect(out.list).toEqual(["plain", CSV]);
  });

  it("returns the same object and changed=false when there is nothing to expand", () => {
    const args = { text: "no tokens here, xspill:0123456789ab neither" };
    const r = expandArguments({ tool: "summarize", args }, resolve, cfg);
    expect(r).toEqual({ args, expansions: [], changed: false });
    expect(r.args).toBe(args);
  });

  it.each(["bash", "run_shell_command", "write_file", "http_post", "send_slack_message", "filesystem__write_file"])(
    "denies every token for the sink %s and leaves it as written",
    (tool) => {
      const args = { command: `cat <<EOF\n${T("aaaaaaaaaaaa")}\nEOF` };
      const r = expandArguments({ tool, args }, resolve, cfg);
      expect(r.changed).toBe(false);
      expect(r.args).toBe(args);
      expect(r.expansions).toHaveLength(1);
      expect(r.expansions[0]).toMatchObject({ token: T("aaaaaaaaaaaa"), outcome: "denied", path: "args.command" });
      expect(r.expansions[0]!.reason).toMatch(new RegExp(`^${tool} can run commands or send data out`));
      expect(r.expansions[0]!.reason).toContain("passref.allowedTools");
    },
  );

  it("lets passref.allowedTools re-allow a sink, by exact name or glob", () => {
    for (const allowedTools of [["filesystem__write_file"], ["filesystem__*"]]) {
      const r = expandArguments({ tool: "filesystem__write_file", args: { content: T("aaaaaaaaaaaa") } }, resolve, {
        ...cfg,
        allowedTools,
      });
      expect(r.args).toEqual({ content: CSV });
    }
  });

  it("denies unknown, foreign or expired ids with the resolver's reason", () => {
    const r = expandArguments({ tool: "summarize", args: { a: T("ffffffffffff"), b: T("aaaaaaaaaaaa") } }, resolve, cfg);
    expect(r.args).toEqual({ a: T("ffffffffffff"), b: CSV });
    expect(r.expansions[0]).toMatchObject({ outcome: "denied", chars: 0, reason: "no blob ffffffffffff is held by this session." });
  });

  it("survives a resolver that throws or returns junk", () => {
    const r = expandArguments({ tool: "summarize", args: [T("aaaaaaaaaaaa"), T("bbbbbbbbbbbb")] }, brokenResolve, cfg);
    expect(r.changed).toBe(false);
    expect(r.expansions.map((e) => e.reason)).toEqual([
      expect.stringContaining("disk on fire"),
      expect.stringContaining("no blob bbbbbbbbbbbb"),
    ]);
  });

  it("denies a token over the per-token cap instead of truncating it", () => {
    const r = expandArguments({ tool: "summarize", args: { text: T("bbbbbbbbbbbb") } }, resolve, cfg);
    expect(r.args).toEqual({ text: T("bbbbbbbbbbbb") });
    expect(r.expansions[0]).toMatchObject({ outcome: "denied", chars: 600_000 });
    expect(r.expansions[0]!.reason).toMatch(/600000 characters, over the limit of 500000 per reference \(passref\.maxChars\)/);
  });

  it("applies the per-call cap first come, first served", () => {
    const args = { parts: [T("eeeeeeeeeeee"), T("eeeeeeeeeeee"), T("eeeeeeeeeeee"), T("aaaaaaaaaaaa")] };
    const r = expandArguments({ tool: "summarize", args }, resolve, { ...cfg, totalMaxChars: 1_000_000 });
    expect(r.expansions.map((e) => e.outcome)).toEqual(["expanded", "expanded", "denied", "expanded"]);
    expect(r.expansions[2]!.reason).toMatch(/1200000 characters, over the limit of 1000000 per call \(passref\.totalMaxChars\)/);
    expect((r.args as typeof args).parts[2]).toBe(T("eeeeeeeeeeee"));
    expect((r.args as typeof args).parts[3]).toBe(CSV);
  });

  it("sends credential blobs only to passref.credentialDestinations", () => {
    const denied = expandArguments({ tool: "summarize", args: { env: T("cccccccccccc") } }, resolve, cfg);
    expect(denied.expansions[0]).toMatchObject({ outcome: "denied" });
    expect(denied.expansions[0]!.reason).toMatch(/holds credentials, and summarize is not listed in passref\.credentialDestinations/);
    const allowed = expandArguments({ tool: "vault__store", args: { env: T("cccccccccccc") } }, resolve, {
      ...cfg,
      credentialDestinations: ["vault__*"],
    });
    expect(allowed.args).toEqual({ env: blobs.cccccccccccc!.content });
  });

  it("does not expand tokens that appear inside expanded content", () => {
    const nested: PassrefResolve = (id) => ({
      ok: true,
      blob: { id, content: `see ${T("aaaaaaaaaaaa")}`, label: "public" as Label, tool: "t" },
    });
    const r = expandArguments({ tool: "summarize", args: { t: T("bbbbbbbbbbbb") } }, nested, cfg);
    expect(r.args).toEqual({ t: `see ${T("aaaaaaaaaaaa")}` });
    expect(r.expansions).toHaveLength(1);
  });

  it("quotes odd keys in paths and keeps `__proto__` an ordinary key", () => {
    const args = JSON.parse(`{"odd key": {"__proto__": "${T("aaaaaaaaaaaa")}"}}`);
    const r = expandArguments({ tool: "summarize", args }, resolve, cfg);
    expect(r.expansions[0]!.path).toBe('args["odd key"].__proto__');
    const inner = (r.args as Record<string, Record<string, unknown>>)["odd key"]!;
    expect(Object.getOwnPropertyDescriptor(inner, "__proto__")?.value).toBe(CSV);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
  });

  it("handles a bare string, deep nesting, huge strings and odd input without throwing", () => {
    expect(expandArguments({ tool: "summarize", args: T("aaaaaaaaaaaa") }, resolve, cfg).args).toBe(CSV);
    let deep: unknown = T("aaaaaaaaaaaa");
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = expandArguments({ tool: "summarize", args: deep }, resolve, cfg);
    let cur = r.args;
    while (Array.isArray(cur)) cur = cur[0];
    expect(cur).toBe(CSV);
    const huge = "z".repeat(5_000_000) + ` ${T("aaaaaaaaaaaa")}`;
    expect((expandArguments({ tool: "summarize", args: { huge } }, resolve, cfg).args as { huge: string }).huge.endsWith(CSV)).toBe(true);
    const cyclic: Record<string, unknown> = { t: T("aaaaaaaaaaaa") };
    cyclic.self = cyclic;
    expect(expandArguments({ tool: "summarize", args: cyclic }, resolve, cfg).expansions).toHaveLength(1);
    for (const odd of [undefined, null, 0, new Date(), Buffer.from(T("aaaaaaaaaaaa")), { n: 10n }]) {
      expect(expandArguments({ tool: "summarize", args: odd }, resolve, cfg).changed).toBe(false);
    }
    expect(expandArguments(undefined as never, resolve, cfg).changed).toBe(false);
  });
});
