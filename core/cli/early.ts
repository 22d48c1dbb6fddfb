/**
 * What bin/spillway.js runs before the CLI: for `spillway mcp`, the early initialize answer
 * (mcp/earlyStdio.ts). Built as its own small bundle (build/cliBundle.mjs), so an agent's
 * initialize is answered before the CLI bundle, the MCP SDK and zod are loaded at all.
 */
import { startEarlyStdio, type StdinPrelude } from "../mcp/earlyStdio";

/**
 * How long the CLI waits to load for a first message that is not in the pipe yet. Hosts write
 * initialize as they spawn the server, so it is there when Node has booted; loading the CLI would
 * keep the event loop (and the answer) from it. A host that waits to write loses at most this.
 */
const FIRST_MESSAGE_WAIT_MS = 30;

/**
 * For an argv that serves MCP over stdio, the early stdin reader, once the first message was
 * answered (or judged, or not there within the wait); null for every other command.
 */
export async function startEarly(argv: string[]): Promise<StdinPrelude | null> {
  if (argv[0] !== "mcp" || argv.some((a) => a === "-h" || a === "--help")) return null;
  const prelude = startEarlyStdio(process.stdin, process.stdout);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([prelude.settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_MESSAGE_WAIT_MS)))]);
  clearTimeout(timer);
  return prelude;
}
