/**
 * The e2e world: the renderer built, a store filled by real agent traffic through the MCP
 * endpoint of `spillway serve` (plus a 50 MB log), a second store with 100,000 index rows, both
 * served by real `spillway serve` processes, and a signed-in browser storage for the specs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine, engineInternals } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { ROOT, writeConfig } from "../mcp/helpers/setup";
import { putBigBlob } from "./support/bigBlob";
import { insertBulkBlobs } from "./support/bulkBlobs";
import { api, loginCookie, startServe, type Served } from "./support/serve";
import { STATE_DIR, STATE_FILE, STORAGE_FILE, type E2EState } from "./support/state";
import { generateTraffic, upstreamConfig, writeFiles } from "./support/traffic";
import { generateHookSession, generateLongSession, HOOK_SESSION } from "./support/longSession";
import { insertManySessions } from "./support/manySessions";
import { generateManyCalls, MANY_CALLS_SESSION } from "./support/manyCalls";

function newestMtime(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return t;
}

/** Builds the renderer when dist/renderer is missing or older than its sources. */
function buildRenderer(): void {
  const index = join(ROOT, "dist/renderer/index.html");
  if (existsSync(index) && statSync(index).mtimeMs > newestMtime(join(ROOT, "renderer"))) return;
  const r = spawnSync(process.execPath, [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "renderer", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("building the renderer failed");
}

async function waitForTokenCounts(s: Served): Promise<void> {
  const until = Date.now() + 90_000;
  for (;;) {
    const ov = await api<{ total: { pendingTokenCounts: number } }>(s, "overview.get");
    if (ov.total.pendingTokenCounts === 0) return;
    if (Date.now() > until) throw new Error("token counts did not finish in 90 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const t0 = Date.now();
  buildRenderer();
  const root = mkdtempSync(join(tmpdir(), "spillway-e2e-"));
  const mainHome = join(root, "main");
  const bulkHome = join(root, "bulk");
  const manyHome = join(root, "many");
  // An empty store for the Import and Replay views, so their imports leave the other specs' figures alone.
  const historyHome = join(root, "history");
  // One session of 2,000 calls, in a store of its own so the other stores' figures stay as they are.
  const callsHome = join(root, "calls");
  const files = join(root, "files");
  writeFiles(files);
  writeConfig(mainHome, upstreamConfig(files, join(root, "memory.jsonl")));
  writeConfig(bulkHome, {});
  // This one runs with a config file outside its home: the connect snippets must name it.
  const manyConfig = join(root, "team-config.json");
  mkdirSync(manyHome, { recursive: true, mode: 0o700 });
  writeFileSync(manyConfig, "{}\n");
  writeConfig(historyHome, {});
  writeConfig(callsHome, {});
  const big = await putBigBlob(mainHome);
  const bulkEngine = createEngine({ home: bulkHome, logger: memoryLogger() });
  insertBulkBlobs(engineInternals(bulkEngine).store.db, Date.now());
  await bulkEngine.close();
  const manyEngine = createEngine({ home: manyHome, logger: memoryLogger() });
  insertManySessions(engineInternals(manyEngine).store.db, Date.now());
  await manyEngine.close();
  const callsEngine = createEngine({ home: callsHome, logger: memoryLogger() });
  generateManyCalls(callsEngine);
  await callsEngine.idle();
  await callsEngine.close();

  const [main, bulk, many, history, calls] = await Promise.all([
    startServe(mainHome),
    startServe(bulkHome),
    startServe(manyHome, ["--config", manyConfig]),
    startServe(historyHome),
    startServe(callsHome),
  ]);
  const servers = [main, bulk, many, history, calls];
  try {
    const ids = await generateTraffic(main.url, main.token, files);
    const gamma = await generateLongSession(main.url, main.token, files);
    await generateHookSession(main.url, main.token, readFileSync(join(files, "nightly-batch.log"), "utf8"), mainHome);
    await waitForTokenCounts(main);
    const cookies = await Promise.all(servers.map((s) => loginCookie(s.loginUrl)));
    mkdirSync(STATE_DIR, { recursive: true });
    writeFileSync(
      STORAGE_FILE,
      JSON.stringify({
        cookies: cookies.map((c) => ({
          ...c,
          domain: "127.0.0.1",
          path: "/",
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: "Strict",
        })),
        origins: [],
      }),
    );
    const state: E2EState = {
      main: { url: main.url, token: main.token, home: mainHome },
      bulk: { url: bulk.url, token: bulk.token, home: bulkHome },
      many: { url: many.url, token: many.token, home: manyHome, config: manyConfig },
      history: { url: history.url, token: history.token, home: historyHome },
      calls: { url: calls.url, token: calls.token, home: callsHome, session: MANY_CALLS_SESSION },
      ids: { ...ids, big: big.id, gamma: gamma.session, gammaLog: gamma.buildLog, hook: HOOK_SESSION },
      big: { chars: big.chars, lines: big.lines },
      setupMs: Date.now() - t0,
    };
    writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
    console.log(
      `e2e setup: ${state.setupMs} ms (renderer, traffic through MCP and hooks, 50 MB blob, 100,000 rows, 1,500 sessions, a 2,000-call session)`,
    );
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    throw err;
  }
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(root, { recursive: true, force: true });
  };
}
