// Hook intake waits for the background queue as MCP intake does: while the indexing backlog is over
// its budget (engine.backpressure() pending), a tool's output posted to /hooks/transform or a Claude
// Code PostToolUse is not taken; other hook calls are answered at once. Real engine, real HTTP.
import { readFileSync } from "node:fs";
import { parseConfig } from "../config/config";
import { createEngine, type Engine } from "../engine/engine";
import { createHttpServer, type HttpEndpoint } from "../http/server";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { mountHooks } from "./hookRoutes";

const TOKEN = "t".repeat(43);
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/claude-code/${name}.json`, import.meta.url), "utf8"));

describe("hook intake under a backlog", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  let http: HttpEndpoint;
  let url: string;
  let release: () => void;

  beforeEach(async () => {
    home = tempHome();
    engine = createEngine({ home: home.path, config: parseConfig({ rescue: { thresholdChars: 2_000 } }), logger: memoryLogger() });
    const open = new Promise<void>((r) => (release = r));
    // The real engine, its queue reported over budget until `release()`.
    const busy: Engine = Object.assign(Object.create(engine) as Engine, { backpressure: () => open });
    http = createHttpServer({ port: 0, token: TOKEN, logger: engine.logger });
    mountHooks(http, busy);
    ({ url } = await http.listen());
  });
  afterEach(async () => {
    await http.close();
    await engine.close();
    home.cleanup();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  /** Whether `p` settles within `ms`. */
  const settles = (p: Promise<unknown>, ms: number) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it("holds /hooks/transform until the backlog is under budget, then stores the result", async () => {
    const answer = post("/hooks/transform", { session_id: "s1", tool: "bash", text: "line\n".repeat(2_000) });
    expect(await settles(answer, 300)).toBe(false);
    // Other hook calls are not held: a turn, an expand.
    expect((await post("/hooks/turn", { session_id: "s1" })).status).toBe(200);
    release();
    const r = (await (await answer).json()) as { ok: boolean; value: { outcome: string } };
    expect(r).toMatchObject({ ok: true, value: { outcome: "rescued" } });
  });

  it("holds a Claude Code PostToolUse, not its PreToolUse", async () => {
    const pre = fixture("pre-bash");
    expect(await settles(post("/hooks/claude-code", pre), 2_000)).toBe(true);
    const postUse = post("/hooks/claude-code", fixture("post-bash"));
    expect(await settles(postUse, 300)).toBe(false);
    release();
    expect((await postUse).status).toBe(200);
  });
});
