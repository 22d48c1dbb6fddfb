/**
 * Fits an excerpt plan into an exact character budget. A plan is an ordered list of blocks:
 * fixed lines, budgeted sections (anchors, head, tail) made of units (lines, rows, items),
 * and notes rendered once the number of units shown is known ("… 1,995 more items …").
 * When the budget binds, sections share it by priority: anchors 40 %, head 40 %, tail 20 %,
 * renormalised over the sections present, and space one section cannot use goes to others.
 */
import { fmtInt, safeEnd, safeStart } from "./format";

export type Role = "anchors" | "head" | "tail";

export const ROLE_WEIGHT: Record<Role, number> = { anchors: 0.4, head: 0.4, tail: 0.2 };

export interface Section {
  type: "section";
  role: Role;
  units: string[];
}

/** Units shown per role once the plan is fitted (a partly shown unit counts as shown). */
export type Shown = Record<Role, number>;

export type Block = { type: "fixed"; text: string } | Section | { type: "note"; render: (shown: Shown) => string };

export interface Fitted {
  text: string;
  shown: Shown;
}

/** Below this, a unit that does not fit is left out rather than shown as a stub. */
const MIN_PARTIAL = 24;

/** The truncation marker; its length only grows with `shown`. */
export function truncationMarker(shown: number, total: number): string {
  return `… [excerpt truncated: showing ${fmtInt(shown)} of ${fmtInt(total)} chars]`;
}

function sectionNeed(s: Section): number {
  let n = 0;
  for (const u of s.units) n += u.length + 1;
  return Math.max(0, n - 1);
}

/** Share `avail` among `needs` by weight; a need below its share frees the rest for others. */
export function waterFill(needs: number[], weights: number[], avail: number): number[] {
  const alloc = needs.map(() => 0);
  let active = needs.map((n, i) => i).filter((i) => needs[i]! > 0);
  let remaining = Math.max(0, avail);
  while (active.length > 0) {
    const w = active.reduce((a, i) => a + weights[i]!, 0);
    const fits = active.filter((i) => needs[i]! <= (remaining * weights[i]!) / w);
    if (fits.length === 0) {
      // The epsilon keeps 900 × 0.4 / 0.6 from flooring to 599.
      for (const i of active) alloc[i] = Math.floor((remaining * weights[i]!) / w + 1e-9);
      break;
    }
    for (const i of fits) {
      alloc[i] = needs[i]!;
      remaining -= needs[i]!;
    }
    active = active.filter((i) => !fits.includes(i));
  }
  return alloc;
}

/** Cut a unit to `room` chars, at a line break when that keeps most of it. */
function partial(unit: string, room: number, fromEnd: boolean): string {
  if (!fromEnd) {
    let cut = safeEnd(unit, room - 1);
    const nl = unit.lastIndexOf("\n", cut - 1);
    if (nl > room / 2) cut = nl + 1;
    return unit.slice(0, cut) + "…";
  }
  let from = safeStart(unit, unit.length - (room - 1));
  const nl = unit.indexOf("\n", from);
  if (nl !== -1 && unit.length - nl - 1 > room / 2) from = nl + 1;
  return "…" + unit.slice(from);
}

/** Units of a section that fit in `room` chars: whole ones first, then one partial. */
export function cutSection(units: string[], room: number, fromEnd: boolean): string[] {
  const out: string[] = [];
  let used = 0;
  for (let k = 0; k < units.length; k++) {
    const u = units[fromEnd ? units.length - 1 - k : k]!;
    const sep = out.length > 0 ? 1 : 0;
    if (used + sep + u.length <= room) {
      out.push(u);
      used += sep + u.length;
      continue;
    }
    const left = room - used - sep;
    if (left >= MIN_PARTIAL) out.push(partial(u, left, fromEnd));
    break;
  }
  return fromEnd ? out.toReversed() : out;
}

function assemble(blocks: Block[], cuts: Map<Section, string[]>, shown: Shown): string {
  const parts: string[] = [];
  for (const b of blocks) {
    const t = b.type === "fixed" ? b.text : b.type === "note" ? b.render(shown) : cuts.get(b)!.join("\n");
    if (t.length > 0) parts.push(t);
  }
  return parts.join("\n");
}

/** One fitting pass with `avail` chars for the sections. */
function fitOnce(blocks: Block[], sections: Section[], avail: number, total: number): Fitted {
  const needs = sections.map(sectionNeed);
  const alloc = waterFill(
    needs,
    sections.map((s) => ROLE_WEIGHT[s.role]),
    avail,
  );
  const cuts = new Map<Section, string[]>();
  sections.forEach((s, i) => cuts.set(s, cutSection(s.units, alloc[i]!, s.role === "tail")));
  // Unit granularity leaves slack; offer it to sections still cut short, by priority.
  let used = sections.reduce((n, s) => n + cuts.get(s)!.join("\n").length, 0);
  for (const role of ["head", "anchors", "tail"] as Role[]) {
    sections.forEach((s, i) => {
      if (s.role !== role || cuts.get(s)!.length >= s.units.length || avail - used <= 0) return;
      const before = cuts.get(s)!.join("\n").length;
      const more = cutSection(s.units, alloc[i]! + (avail - used), role === "tail");
      cuts.set(s, more);
      used += more.join("\n").length - before;
    });
  }
  const shown: Shown = { anchors: 0, head: 0, tail: 0 };
  for (const s of sections) shown[s.role] += cuts.get(s)!.length;
  const body = assemble(blocks, cuts, shown);
  return { text: body + "\n" + truncationMarker(body.length, total), shown };
}

/**
 * Fit `blocks` into `cap` chars, ending with the truncation marker (always: a plan is only
 * built when the excerpt cannot be the whole input). `total` is the input's length.
 */
export function fitPlan(blocks: Block[], cap: number, total: number): Fitted {
  const sections = blocks.filter((b): b is Section => b.type === "section");
  const none: Shown = { anchors: 0, head: 0, tail: 0 };
  const all: Shown = { anchors: 0, head: 0, tail: 0 };
  for (const s of sections) all[s.role] += s.units.length;
  const noteMax = blocks.reduce((n, b) => n + (b.type === "note" ? Math.max(b.render(none).length, b.render(all).length) + 8 : 0), 0);
  const fixed = blocks.reduce((n, b) => n + (b.type === "fixed" ? b.text.length : 0), 0);
  const overhead = truncationMarker(cap, total).length + fixed + noteMax + blocks.length + 1;
  // Note lengths are only estimated up front (they change with what is shown), so search for
  // the largest section budget whose result still fits: grow by the slack, bisect on overflow.
  let avail = cap - overhead;
  let lo = -Infinity; // largest budget known to fit
  let hi = Infinity; // smallest budget known to overflow
  let best: Fitted | null = null;
  for (let attempt = 0; attempt < 12; attempt++) {
    const r = fitOnce(blocks, sections, avail, total);
    let next: number;
    if (r.text.length <= cap) {
      if (!best || r.text.length > best.text.length) best = r;
      lo = avail;
      if (cap - r.text.length < 4) break;
      next = avail + (cap - r.text.length);
    } else {
      hi = avail;
      next = avail - (r.text.length - cap);
    }
    if (next <= lo || next >= hi) next = Number.isFinite(lo) && Number.isFinite(hi) ? Math.floor((lo + hi) / 2) : next;
    if (hi - lo <= 1 || next === avail) break;
    avail = next;
  }
  if (best) return best;
  // Only reachable when fixed text alone overflows: keep its start and the marker.
  const marker = truncationMarker(cap, total);
  const body = assemble(
    blocks.filter((b) => b.type === "fixed"),
    new Map(),
    none,
  );
  const keep = body.slice(0, safeEnd(body, Math.max(0, cap - marker.length - 1)));
  return { text: keep + "\n" + truncationMarker(keep.length, total), shown: none };
}
