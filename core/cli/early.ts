/**
 * What bin/spillway.js runs before the CLI: for `spillway mcp`, the early answers to initialize
 * and tools/list (mcp/earlyStdio.ts). Built as its own small bundle (build/cliBundle.mjs), so an
 * agent's first requests are answered before the CLI bundle, the MCP SDK and zod load at all.
 */
import { parseArgs } from "node:util";
import { configPath, resolveHome } from "../home/paths";
import { startEarlyStdio, type StdinPrelude } from "../mcp/earlyStdio";
import { configFingerprint, readCachedAnswers, type ListKey } from "../mcp/toolsListCache";

/**
 * How long the CLI waits to load for a request that is not in the pipe yet. Hosts write
 * initialize as they spawn the server, and tools/list as soon as they read its answer; loading the
 * CLI would keep the event loop (and the answers) from them. A host that waits longer to write
 * loses at most this, and its request is answered by the Server as before.
 */
const REQUEST_WAIT_MS = 30;

/** The key of the cached tools/list for these options, or null when they cannot be read here (main reports that). */
function listKey(argv: string[], build: string | undefined): ListKey | null {
  if (!build) return null;
  try {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { home: { type: "string" }, config: { type: "string" }, session: { type: "string" }, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    const home = resolveHome({ home: values.home });
    const path = configPath(home, { config: values.config });
    return { home, build, configPath: path, config: configFingerprint(path) };
  } catch {
    return null;
  }
}

/**
 * For an argv that serves MCP over stdio, the early stdin reader, once it has nothing more to
 * answer (or nothing arrived within the wait); null for every other command. `build` names the CLI
 * bundle: a tools/list answer is only given again by the build that gave it.
 */
export async function startEarly(argv: string[], build?: string): Promise<StdinPrelude | null> {
  if (argv[0] !== "mcp" || argv.some((a) => a === "-h" || a === "--help")) return null;
  // Only a config that has already served a complete tools/list (the cached one, kept by config
  // file, size and time) is known to load: with any other, the CLI answers initialize itself, after
  // reading the config, so a bad one ends the process before the host counts it as connected
  // (it showed "connected", then lost every tool, the reason only on stderr).
  const key = listKey(argv, build);
  const cached = key ? readCachedAnswers(key) : null;
  const prelude = startEarlyStdio(process.stdin, process.stdout, {
    cachedList: () => cached?.list ?? null,
    answer: cached !== null,
    instructions: cached?.instructions,
  });
  let timer: NodeJS.Timeout | undefined;
  const wait = () => new Promise<void>((resolve) => (timer = setTimeout(resolve, REQUEST_WAIT_MS)));
  await Promise.race([prelude.settled, wait()]);
  clearTimeout(timer);
  // Before the CLI reads the config, so the kept list is keyed by the config it was made from.
  if (key) prelude.listKey = key;
  return prelude;
}
