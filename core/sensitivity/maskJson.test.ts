import { memoryLogger } from "../runtime";
import { maskJsonText } from "./jsonText";
import { lazyMaskingLogger, maskJsonValue, maskingLogger } from "./maskJson";
import { maskSecrets } from "./secrets";

const mask = (t: string) => maskSecrets(t).text;
const TOKEN = "xoxb-" + "1234567890-".repeat(2) + "Ab3dEf5hIj7lMn9pQr1tUv3x";

describe("maskJsonValue", () => {
  it("returns the same value when nothing is secret", () => {
    const v = { items: [{ id: 1, name: "a" }], note: "plain", n: 3, ok: true, none: null };
    expect(maskJsonValue(v, mask)).toBe(v);
  });

  it("masks nested strings and copies only the branches it changed", () => {
    const v = { meta: { page: 1 }, rows: [{ log: `token ${TOKEN} sent` }, { log: "fine" }] };
    const out = maskJsonValue(v, mask);
    expect(out.rows[0]!.log).toBe("token [masked:slack_token] sent");
    expect(out.rows[1]).toBe(v.rows[1]);
    expect(out.meta).toBe(v.meta);
    expect(v.rows[0]!.log).toContain(TOKEN); // the input is left alone
  });

  it("judges a value with its key when the key names a secret", () => {
    const out = maskJsonValue({ user: "ada", password: "Tr0ub4dor&3", db_password: "changeme" }, mask);
    expect(out).toEqual({ user: "ada", password: "[masked:password]", db_password: "changeme" });
  });
});

describe("maskJsonText", () => {
  it("keeps the JSON valid where a text marker would break an escape", () => {
    const json = JSON.stringify({ args: { line: 'password=abc"def' } });
    const out = maskJsonText(json);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(out).not.toContain("abc");
  });

  it("masks a secret key's value in place", () => {
    const out = maskJsonText(JSON.stringify({ pattern: `Bearer ${TOKEN}`, mode: "grep" }));
    expect(JSON.parse(out)).toEqual({ pattern: "Bearer [masked:slack_token]", mode: "grep" });
  });
});

describe("maskingLogger", () => {
  it("masks messages and data before they reach the logger", () => {
    const inner = memoryLogger();
    const log = maskingLogger(inner, mask);
    log.warn(`upstream said token=${TOKEN}`, { error: `connect postgres://app:S3cr3tPw99@db/app failed` });
    expect(JSON.stringify(inner.entries)).not.toContain(TOKEN);
    expect(JSON.stringify(inner.entries)).not.toContain("S3cr3tPw99");
    expect(inner.entries[0]!.data!.error).toBe("connect postgres://app:[masked:url_credentials]@db/app failed");
  });

  it("lazily: loads the mask on the first entry, then writes every entry masked and in order", async () => {
    const inner = memoryLogger();
    let loads = 0;
    const log = lazyMaskingLogger(inner, async () => (loads++, mask));
    log.info("starting");
    log.warn(`token=${TOKEN}`, { error: `Bearer ${TOKEN}` });
    expect(inner.entries).toEqual([]); // waiting for the mask, not written in clear
    await log.flushed();
    log.error("after");
    expect(inner.entries.map((e) => e.msg)).toEqual(["starting", "token=[masked:slack_token]", "after"]);
    expect(JSON.stringify(inner.entries)).not.toContain(TOKEN);
    expect(loads).toBe(1);
  });

  it("lazily: when the mask cannot load, writes messages without their data", async () => {
    const inner = memoryLogger();
    const log = lazyMaskingLogger(inner, () => Promise.reject(new Error("no re2")));
    log.warn("upstream lost", { stderr: [`password=${TOKEN}`] });
    await log.flushed();
    expect(inner.entries).toEqual([{ level: "warn", msg: "upstream lost", data: undefined }]);
  });
});
