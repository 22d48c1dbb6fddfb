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
import { featureWork, incidentLong } from "./sessions/long";

/** The 8 short sessions (12–24 requests each), then the long ones (60–80 requests, one piece of work each). */
const SHORT: Session[] = [codeTour, editLoop, repeat40k, ciDebugging, buildLogs, knowledgeGraph, mcpDebugging, smallResults];
export const SESSIONS: Session[] = [...SHORT, featureWork, incidentLong];
const SYSTEM_PROMPTS = [12_000, 1_000];

type Runs = Record<Mode, SessionRun>;

async function runAll(session: Session): Promise<Runs> {
  const runs = {} as Runs;
  // Spillway passes its upstreams' instructions on in its own (under a heading per server, cut at a
  // few KB each, see mcp/upstreamInstructions), so its modes pay for them once, in what it answers.
  // Exact dedup alone (a host plugin, the servers connected directly) pays for the ones the direct
  // connection got, and leaves the upstream tool definitions as the servers wrote them (Spillway
  // strips outputSchema and says so in the description, see mcp/upstreamManager).
  let upstreamInstructions: string[] = [];
  let upstreamTools: Connection["tools"] = [];
  for (const mode of MODES) {
    const world = await session.setup();
    const conn = await connect(mode, world.servers);
    if (mode === "none") {
      upstreamInstructions = [...conn.instructions];
      upstreamTools = conn.tools;
    } else if (mode === "exact") conn.instructions.push(...upstreamInstructions);
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

/** A host with a 200 k-token window can send a request this large without compacting first. */
const WINDOW_ROOM = 180_000;
const peak = (r: SessionRun, system: number) => r.peakRequest + system;
type Group = [label: string, runs: [Session, Runs][]];

/** The aggregates: all sessions, then the short and the long ones alone (when both ran). */
function groups(all: [Session, Runs][]): Group[] {
  const short = all.filter(([s]) => SHORT.includes(s));
  const long = all.filter(([s]) => !SHORT.includes(s));
  const out: Group[] = [[`all ${all.length} sessions`, all]];
  if (short.length && long.length) out.push([`the ${short.length} short sessions`, short], [`the ${long.length} long sessions`, long]);
  return out;
}

function table(all: [Session, Runs][], system: number): string[] {
  const head = [
    "session",
    ...MODES.flatMap((m) => (m === "none" ? [MODE_LABEL[m]] : [MODE_LABEL[m], "vs none"])),
    "peak request, none",
    "peak, Spillway",
  ];
  const row = (label: string, runs: Runs[]) => {
    const sum = (m: Mode) => runs.reduce((n, r) => n + total(r[m], system), 0);
    const max = (m: Mode) => Math.max(...runs.map((r) => peak(r[m], system)));
    return [
      label,
      ...MODES.flatMap((m) => (m === "none" ? [k(sum(m))] : [k(sum(m)), pct(sum(m), sum("none"))])),
      k(max("none")),
      k(max("spillway")),
    ];
  };
  const rows = [
    ...all.map(([s, r]) => row(s.name, [r])),
    ...groups(all).map(([label, g]) =>
      row(
        label,
        g.map(([, r]) => r),
      ),
    ),
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => "  " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), ...rows.map(line)];
}

/** The system prompt alone, re-sent on no interception's requests, bounds what any mode can save. */
function floorLine([label, all]: Group, system: number): string {
  const none = all.reduce((n, [, r]) => n + total(r.none, system), 0);
  const floor = all.reduce((n, [, r]) => n + r.none.requests * system, 0);
  const sp = all.reduce((n, [, r]) => n + r.spillway.requests * system, 0);
  const reqs = (m: Mode) => all.reduce((n, [, r]) => n + r[m].requests, 0);
  // With Spillway's tool definitions and instructions too (every request re-sends them): what it
  // would cost with no conversation at all and not one fetch.
  const defs = all.reduce((n, [, r]) => n + r.none.requests * (system + perRequest(r.spillway)), 0);
  // And with the agent's own messages too (its calls, the questions and its answers, as no
  // interception sent them): what Spillway would cost if every tool result were free.
  const own = (r: Runs) => (r.none.byPart.calls ?? 0) + (r.none.byPart["questions + answers"] ?? 0);
  const resultsFree = defs + all.reduce((n, [, r]) => n + own(r), 0);
  return `  floor, ${label}: the system prompt alone on no interception's ${reqs("none")} requests is ${pct(floor, none)} vs none, the best any mode could do; on Spillway's ${reqs("spillway")} requests (its fetches included) ${pct(sp, none)}; with Spillway's definitions on no interception's requests ${pct(defs, none)}; with those and the agent's own calls, questions and answers, every tool result free and no fetch, ${pct(resultsFree, none)}`;
}

export async function benchEconomy(only: string[] = []): Promise<Record<string, unknown>> {
  const sessions = only.length ? SESSIONS.filter((s) => only.includes(s.name)) : SESSIONS;
  const all: [Session, Runs][] = [];
  const main = SYSTEM_PROMPTS[0]!;
  for (const s of sessions) {
    const runs = await runAll(s);
    all.push([s, runs]);
    const counts = MODES.map(
      (m) =>
        `${MODE_LABEL[m]}: ${runs[m].answered}/${runs[m].questions} answered, ${runs[m].requests} requests, ${runs[m].fetches} fetches, ${runs[m].recalls} recalls, tool defs ${runs[m].toolDefTokens} tokens, peak request ${k(peak(runs[m], main))} (${k(main)} of it system prompt)`,
    );
    console.log(`  ${s.name} (${s.description})\n    ${counts.join("\n    ")}`);
    for (const m of MODES) for (const u of runs[m].unanswered) console.log(`    UNANSWERED (${MODE_LABEL[m]}): ${u}`);
    if (peak(runs.none, main) >= WINDOW_ROOM)
      console.log(
        `    OVER THE WINDOW: no interception's peak request is ${k(peak(runs.none, main))}, over the ${k(WINDOW_ROOM)} a 200 k-window host could send`,
      );
    for (const m of MODES) console.log(`    where ${MODE_LABEL[m]}'s tokens went: ${parts(runs[m], main)}`);
  }
  for (const system of SYSTEM_PROMPTS) {
    console.log(
      `\n  prompt tokens per session, system prompt ${k(system)} tokens (every request re-sends it, the tool definitions and the conversation; peak request: the largest single request):`,
    );
    for (const l of table(all, system)) console.log(l);
    for (const g of groups(all)) console.log(floorLine(g, system));
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
          peakRequest: runs[m].peakRequest,
        },
      ]),
    );
  }
  return result;
}
