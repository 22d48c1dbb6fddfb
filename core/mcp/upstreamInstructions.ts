/**
 * The upstreams' own instructions (the `instructions` of their initialize answers), passed on after
 * Spillway's in its initialize answer, each under a heading naming its server: connected directly,
 * a host puts a server's instructions in the model's system prompt, and behind a proxy that keeps
 * them to itself the model loses them. They reach the model, so they are masked as tool definitions
 * are (maskedTools.ts) before they are kept or sent; and a host may re-send them with every request,
 * so each server's are cut to SERVER_MAX_CHARS and all of them to TOTAL_MAX_CHARS, saying so.
 */

/** Most of one server's instructions passed on; server-everything's are about 1.5 KB. */
export const SERVER_MAX_CHARS = 4_000;
/** Most of all the upstreams' instructions passed on together. */
export const TOTAL_MAX_CHARS = 12_000;
/** Masked before cutting (a cut could halve a secret past recognition), but only this much of a huge text. */
const SCAN_MAX_CHARS = 64 * 1024;

/** One server's instructions as kept (masked and cut). */
export interface UpstreamInstructions {
  server: string;
  text: string;
}

/** `text` cut to about `max` characters, at a line or word end when one is near, with a note saying how much was left out. */
function cut(text: string, max: number, whole: number, why: string): string {
  if (text.length <= max) return text;
  let end = max;
  const line = text.lastIndexOf("\n", max);
  const word = text.lastIndexOf(" ", max);
  if (line > max * 0.8) end = line;
  else if (word > max * 0.8) end = word;
  return `${text.slice(0, end).trimEnd()}\n[Spillway cut these instructions here: ${end} of ${whole} characters shown, ${why}.]`;
}

/** An upstream's instructions as kept and passed on: credential-shaped spans masked, cut to SERVER_MAX_CHARS; null when it gave none. */
export async function keptInstructions(text: unknown): Promise<string | null> {
  if (typeof text !== "string" || !text.trim()) return null;
  // Loaded here, not at start: `spillway mcp` answers its first requests before the detector loads.
  const { maskSecrets } = await import("../sensitivity/secrets");
  const masked = maskSecrets(text.slice(0, SCAN_MAX_CHARS)).text.trim();
  return cut(masked, SERVER_MAX_CHARS, text.length, `at most ${SERVER_MAX_CHARS} per server`);
}

/** The heading a server's instructions go under: its name from the config, on one line. */
const heading = (server: string) => `## Instructions of the MCP server "${server.replace(/\s+/g, " ")}"`;

/** Spillway's own instructions, then each upstream's under its heading, in order, within TOTAL_MAX_CHARS. */
export function composeInstructions(own: string, upstreams: readonly UpstreamInstructions[]): string {
  let budget = TOTAL_MAX_CHARS;
  const parts = [own];
  for (const { server, text } of upstreams) {
    if (budget < 200) {
      parts.push(
        `${heading(server)}\n[Left out by Spillway: the upstreams' instructions passed on are capped at ${TOTAL_MAX_CHARS} characters.]`,
      );
      continue;
    }
    const body = cut(text, budget, text.length, `the upstreams' together are capped at ${TOTAL_MAX_CHARS}`);
    budget -= body.length;
    parts.push(`${heading(server)}\n${body}`);
  }
  return parts.join("\n\n");
}
