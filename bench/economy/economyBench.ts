/**
 * `npm run bench -- economy`: prompt tokens per session under four modes (no interception,
 * exact dedup only, Spillway, Spillway without near-duplicate stubs), over scripted multi-turn
 * sessions against real MCP servers from npm and the fixture server. Every request re-sends the
 * system prompt (12 k or 1 k tokens), the tool definitions and the whole conversation; tokens
 * are counted with o200k. A question counts as answered only when its answer text is in what
 * the model was given.
 */
import { runSession, type Session, type SessionRun } from "./agent";
import { connect, MODE_LABEL, MODES, type Connection, type Mode } from "./connections";
import { codeTour, editLoop, repeat40k } from "./sessions/code";
import { buildLogs, ciDebugging } from "./sessions/ci";
import { knowledgeGraph } from "./sessions/memory";
import { mcpDebugging, smallResults } from "./sessions/mcp";

export const SESSIONS: Session[] = [codeTour, editLoop, repeat40k, ciDebugging, buildLogs, knowledgeGraph, mcpDebugging, smallResults];
const SYSTEM_PROMPTS = [12_000, 1_000];

type Runs = Record<Mode, SessionRun>;

async function runAll(session: Session): Promise<Runs> {
  const runs = {} as Runs;
  // The proxy does not pass its upstreams' instructions on; a host would still show them (they
  // are the same in every mode), so each mode pays for the ones the direct connection got.
  // Exact dedup alone leaves the upstream tool definitions as the servers wrote them (Spillway
  // strips outputSchema and says so in the description, see mcp/upstreamManager).
  let upstreamInstructions: string[] = [];
  let upstreamTools: Connection["tools"] = [];
  for (const mode of MODES) {
    const world = await session.setup();
    const conn = await connect(mode, world.servers);
    if (mode === "none") {
      upstreamInstructions = [...conn.instructions];
      upstreamTools = conn.tools;
    } else conn.instructions.push(...upstreamInstructions);
    if (mode === "exact") conn.tools = [...conn.tools.filter((t) => t.name === "recall_result"), ...upstreamTools];
    try {
      runs[mode] = await runSession(session, mode, conn, mode === "none" ? null : runs.none.raw);
    } finally {
      await conn.close();
      world.cleanup();
    }
  }
  return runs;
}

/** Tool definitions and instructions, re-sent on each of a run's requests. */
const perRequest = (r: SessionRun) => (r.byPart["tool defs + instructions"] ?? 0) / r.requests;
const total = (r: SessionRun, system: number) => r.promptTokens + r.requests * system;
const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
const k = (n: number) => `${(n / 1000).toFixed(1)} k`;

/** A run's prompt tokens by part, largest first, with the system prompt's share. */
function parts(r: SessionRun, system: number): string {
  const all: [string, number][] = [[`system prompt x ${r.requests}`, r.requests * system], ...Object.entries(r.byPart)];
  return all
    .sort((a, b) => b[1] - a[1])
    .map(([p, n]) => `${p} ${k(n)}`)
    .join(", ");
}

function table(all: [Session, Runs][], system: number): string[] {
  const head = ["session", ...MODES.flatMap((m) => (m === "none" ? [MODE_LABEL[m]] : [MODE_LABEL[m], "vs none"]))];
  const rows: string[][] = [];
  const sums = Object.fromEntries(MODES.map((m) => [m, 0])) as Record<Mode, number>;
  for (const [s, runs] of all) {
    const none = total(runs.none, system);
    rows.push([
      s.name,
      ...MODES.flatMap((m) => {
        const t = total(runs[m], system);
        sums[m] += t;
        return m === "none" ? [k(t)] : [k(t), pct(t, none)];
      }),
    ]);
  }
  rows.push(["all sessions", ...MODES.flatMap((m) => (m === "none" ? [k(sums.none)] : [k(sums[m]), pct(sums[m], sums.none)]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => "  " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), ...rows.map(line)];
}

export async function benchEconomy(only: string[] = []): Promise<Record<string, unknown>> {
  const sessions = only.length ? SESSIONS.filter((s) => only.includes(s.name)) : SESSIONS;
  const all: [Session, Runs][] = [];
  for (const s of sessions) {
    const runs = await runAll(s);
    all.push([s, runs]);
    const counts = MODES.map(
      (m) =>
        `${MODE_LABEL[m]}: ${runs[m].answered}/${runs[m].questions} answered, ${runs[m].requests} requests, ${runs[m].fetches} fetches, ${runs[m].recalls} recalls, tool defs ${runs[m].toolDefTokens} tokens`,
    );
    console.log(`  ${s.name} (${s.description})\n    ${counts.join("\n    ")}`);
    for (const m of MODES) for (const u of runs[m].unanswered) console.log(`    UNANSWERED (${MODE_LABEL[m]}): ${u}`);
    for (const m of MODES) console.log(`    where ${MODE_LABEL[m]}'s tokens went: ${parts(runs[m], SYSTEM_PROMPTS[0]!)}`);
  }
  for (const system of SYSTEM_PROMPTS) {
    console.log(
      `\n  prompt tokens per session, system prompt ${k(system)} tokens (every request re-sends it, the tool definitions and the conversation):`,
    );
    for (const l of table(all, system)) console.log(l);
    // The system prompt alone, re-sent on no interception's requests, bounds what any mode can save.
    const none = all.reduce((n, [, r]) => n + total(r.none, system), 0);
    const floor = all.reduce((n, [, r]) => n + r.none.requests * system, 0);
    const sp = all.reduce((n, [, r]) => n + r.spillway.requests * system, 0);
    const reqs = (m: Mode) => all.reduce((n, [, r]) => n + r[m].requests, 0);
    // With Spillway's tool definitions and instructions too (every request re-sends them): what it
    // would cost with no conversation at all and not one fetch.
    const defs = all.reduce((n, [, r]) => n + r.none.requests * (system + perRequest(r.spillway)), 0);
    console.log(
      `  floor: the system prompt alone on no interception's ${reqs("none")} requests is ${pct(floor, none)} vs none, the best any mode could do; on Spillway's ${reqs("spillway")} requests (its fetches included) ${pct(sp, none)}; with Spillway's definitions on no interception's requests ${pct(defs, none)}`,
    );
  }
  const result: Record<string, unknown> = {};
  for (const [s, runs] of all) {
    result[s.name] = Object.fromEntries(
      MODES.map((m) => [
        m,
        {
          requests: runs[m].requests,
          promptTokens: runs[m].promptTokens,
          answered: runs[m].answered,
          questions: runs[m].questions,
          fetches: runs[m].fetches,
          recalls: runs[m].recalls,
        },
      ]),
    );
  }
  return result;
}
