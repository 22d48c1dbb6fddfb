/** Number, size and time formatting shared by every view (en-US digits, compact but exact). */
import { ESTIMATE_MARK } from "../../../core/vocabulary";

export function fmtInt(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "–";
  return Math.round(n).toLocaleString("en-US");
}

/** A token figure, marked ≈ when it holds counts estimated from a sample (big results). */
export function fmtTokens(n: number | null | undefined, estimated: boolean | number): string {
  const s = fmtInt(n);
  return estimated && s !== "–" ? `${ESTIMATE_MARK}${s}` : s;
}

/** Compact counts for charts and cards: 1,234 · 12.3 k · 4.56 M. */
export function fmtCompact(n: number): string {
  const a = Math.abs(n);
  if (a < 10_000) return fmtInt(n);
  if (a < 1_000_000) return `${(n / 1_000).toFixed(a < 100_000 ? 1 : 0)} k`;
  if (a < 1_000_000_000) return `${(n / 1_000_000).toFixed(a < 100_000_000 ? 2 : 1)} M`;
  return `${(n / 1_000_000_000).toFixed(2)} G`;
}

export function fmtBytes(n: number): string {
  if (!Number.isFinite(n)) return "–";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${units[u]}`;
}

export function fmtChars(n: number): string {
  return `${fmtCompact(n)} chars`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Local date and time, sortable at a glance: 2026-03-14 09:26:53. */
export function fmtTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "–";
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "3 min ago", "in 2 h", relative to `now`. */
export function fmtAgo(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined) return "–";
  const diff = ms - now;
  const a = Math.abs(diff);
  const unit =
    a < 60_000
      ? `${Math.max(1, Math.round(a / 1000))} s`
      : a < 3_600_000
        ? `${Math.round(a / 60_000)} min`
        : a < 172_800_000
          ? `${Math.round(a / 3_600_000)} h`
          : `${Math.round(a / 86_400_000)} d`;
  return diff < 0 ? `${unit} ago` : `in ${unit}`;
}

export function pct(part: number, whole: number): string {
  if (whole <= 0) return "0 %";
  const p = (part / whole) * 100;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)} %`;
}

/**
 * Bidirectional-text controls: an override (U+202E) makes what follows read backwards, so a stored
 * `txt.exe` can show as `exe.txt` and a client's name as anything. Untrusted text is shown with
 * each of them as its code point, as the blob viewer (Monaco) marks them.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` with its bidirectional controls shown as `[U+202E]`, never applied. */
export function visibleText(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`);
}

/** A session or blob id shortened for tables; the full id goes in the title attribute. */
export function shortId(id: string, keep = 14): string {
  const shown = visibleText(id);
  return shown.length <= keep ? shown : `${shown.slice(0, keep - 1)}…`;
}

/** A duration: "0 ms", "340 ms", "1.24 s", "2.5 min". */
export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** Local time of day with milliseconds, for rows whose date is shown once above them: 09:26:53.120. */
export function fmtClock(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "–";
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

/** Local date and time without seconds, for narrow columns: 03-14 09:26. */
export function fmtShortTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "–";
  const d = new Date(ms);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "1 hit", "12 hits". */
export function plural(n: number, word: string): string {
  return `${fmtInt(n)} ${word}${n === 1 ? "" : "s"}`;
}
