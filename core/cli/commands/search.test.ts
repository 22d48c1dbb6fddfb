import { tempHome } from "../../../tests/helpers/tempHome";
import { smallSecrets } from "../../../tests/fixtures/secrets/smallSecrets";
import { parseConfig } from "../../config/config";
import { createEngine } from "../../engine/engine";
import { memoryLogger } from "../../runtime";
import { main } from "../main";

function log(seed: string, extra: string): string {
  const lines = Array.from({ length: 900 }, (_, i) => `[${seed}] step ${i}: compiled src/${seed}/mod${i}.ts`);
  lines[611] = `[${seed}] ERROR: ${extra}`;
  return lines.join("\n") + "\n";
}

describe("spillway search", () => {
  const home = tempHome("spillway-cli-search-");
  const secret = smallSecrets(1).values[0]!;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const e = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
    ids.build = e.transformToolResult({
      sessionId: "s1",
      tool: "build",
      args: {},
      text: log("build", "checksum mismatch in vendor/zlib"),
    }).blobId!;
    ids.test = e.transformToolResult({
      sessionId: "s2",
      tool: "test",
      args: {},
      text: log("test", `login failed with key ${secret}`),
    }).blobId!;
    await e.idle();
    await e.close();
  });
  afterAll(() => home.cleanup());

  const run = async (...args: string[]) => {
    let out = "";
    let err = "";
    const code = await main(["search", ...args, "--home", home.path], { out: (l) => (out += l + "\n"), err: (l) => (err += l + "\n") });
    return { code, out, err };
  };

  it("finds the stored result that holds the words, with its id, tool, session, lines and a snippet", async () => {
    const r = await run("checksum", "mismatch");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^${ids.build} {2}build {2}session s1 {2}\\S+ {2}lines \\d+-\\d+$`, "m"));
    expect(r.out).toContain("checksum mismatch in vendor/zlib");
    expect(r.out).not.toContain(ids.test);
    expect(r.out).toContain("1 hit; read one with spillway fetch <id>");
  });

  it("narrows to a session or a tool, answers JSON, and exits 1 with a sentence when nothing matches", async () => {
    expect((await run("ERROR", "--session", "s2")).out).not.toContain(ids.build);
    expect((await run("ERROR", "--tool", "build")).out).not.toContain(ids.test);
    const json = JSON.parse((await run("ERROR", "--json")).out) as { hits: { id: string }[] };
    expect(json.hits.map((h) => h.id).sort()).toEqual([ids.build, ids.test].sort());
    const none = await run("xylophone");
    expect(none.code).toBe(1);
    expect(none.out).toContain('no stored result holds "xylophone"');
    expect((await run()).code).toBe(2);
  });

  it("never shows or matches a secret: the index holds the masked view", async () => {
    const r = await run("login", "failed");
    expect(r.out).toContain(ids.test);
    expect(r.out).toContain("[masked:");
    expect(r.out).not.toContain(secret);
    expect((await run(secret)).out).not.toContain(ids.test);
  });
});
