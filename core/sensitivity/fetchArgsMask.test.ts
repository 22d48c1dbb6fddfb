import { fetchArgSecrets, redactRuns, storedFetchArgs } from "./fetchArgsMask";

const SECRET = "keyboard-cat-" + "5a40".repeat(4);
const exact = `SESSION_SECRET=${SECRET}\nready\n`;
const masked = "SESSION_SECRET=[masked:secret]\nready\n";

describe("fetch arguments as the ledger stores them", () => {
  it("masks a pattern that names a secret of the blob by its bare value", () => {
    expect(storedFetchArgs({ pattern: `${SECRET}|ready` }, exact, masked)).toEqual({ pattern: "[masked:fetch_argument]|ready" });
    expect(storedFetchArgs({ pattern: "keyboard-cat" }, exact, masked)).toEqual({ pattern: "[masked:fetch_argument]" });
  });

  it("masks a generated-looking run even when the blob does not hold it", () => {
    const token = "C5Dlen" + "OWtS72nl".repeat(2);
    expect(storedFetchArgs({ query: `where is ${token} used` }, "plain", "plain")).toEqual({
      query: "where is [masked:fetch_argument] used",
    });
  });

  it("masks the long random part of a prefixed key, and keeps names built of short parts", () => {
    const keys = [
      "sk_live_" + "4eC39HqLyjWD".repeat(2),
      "xoxb-123456789012-1234567890123-" + "AbCdEfGhIjKl".repeat(2),
      // Written in two parts, so no scanner of this repository takes them for real keys.
      ["glpat-", "x7Yz2Kq9Lm4Np8Rt3Vw6"].join(""),
      ["AKIA", "IOSFODNN7EXAMPLE"].join(""),
      // a session secret: a word, then hex
      SECRET,
    ];
    for (const key of keys) expect(storedFetchArgs({ pattern: key }, "plain", "plain")).toEqual({ pattern: "[masked:fetch_argument]" });
    const names = { pattern: "MARKER-b200-1507|build-20241103-a9f3e2|user_42_session_Tmp|src/module1234/Index.ts" };
    expect(storedFetchArgs(names, "plain", "plain")).toBe(names);
  });

  it("keeps ordinary patterns, commit hashes and UUIDs as written", () => {
    const args = { pattern: "linker\\s+failed|error", query: "failed payments", expression: "items[?status=='failed'].name" };
    expect(storedFetchArgs(args, exact, masked)).toBe(args);
    const ids = { pattern: "9fceb02d0ae598e95dc970b74767f19372d61af8|550e8400-e29b-41d4-a716-446655440000" };
    expect(storedFetchArgs(ids, exact, masked)).toBe(ids);
  });

  it("masks the runs in the answers and messages that echo them", () => {
    const runs = fetchArgSecrets({ pattern: SECRET }, exact, masked);
    expect(runs).toEqual([SECRET]);
    expect(redactRuns(`No line matches /${SECRET}/i in 0123456789ab.`, runs)).toBe(
      "No line matches /[masked:fetch_argument]/i in 0123456789ab.",
    );
    const rpc = { method: "tools/call", params: { arguments: { pattern: SECRET, mode: "grep" } } };
    expect(redactRuns(rpc, runs)).toEqual({
      method: "tools/call",
      params: { arguments: { pattern: "[masked:fetch_argument]", mode: "grep" } },
    });
    expect(redactRuns(rpc, [])).toBe(rpc);
  });
});
