/**
 * Personal-data signals: e-mail addresses, phone numbers, IBANs, US SSNs and payment cards.
 * One RE2 pass (linear, same reasons as the secret scan). Strong identifiers are validated
 * (IBAN mod-97, card Luhn, SSN area rules) because digit runs are everywhere in tool output.
 */
import RE2 from "re2";
import { scanSubject } from "./secrets";

export interface PersonalSignals {
  /** Distinct e-mail addresses, excluding role/no-reply and documentation domains. */
  emails: number;
  /** Distinct phone numbers written in a phone format. */
  phones: number;
  iban: number;
  ssn: number;
  card: number;
}

const SOURCES = {
  email: String.raw`\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}\b`,
  // International (+CC …) or North-American formats; bare digit runs are ids, not phones.
  phone: String.raw`(?:\+[1-9]\d{0,2}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{2,4}){2,4}|\(\d{3}\)[ ]?\d{3}-\d{4}|\b\d{3}-\d{3}-\d{4})\b`,
  iban: String.raw`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b`,
  ssn: String.raw`\b\d{3}-\d{2}-\d{4}\b`,
  card: String.raw`\b(?:4\d{3}|5[1-5]\d{2}|2[2-7]\d{2}|3[47]\d{2}|6011)(?:[ -]?\d{4}){2}[ -]?\d{3,4}\b`,
} as const;
type Kind = keyof typeof SOURCES;
const KINDS = Object.keys(SOURCES) as Kind[];
// Compiled on first use, like the secret scan (secrets.ts): importing this module costs no compile.
let compiled: RE2 | null = null;
const scanner = () => (compiled ??= new RE2(KINDS.map((k) => `(${SOURCES[k]})`).join("|"), "g"));

/** Addresses that name a role or an example, not a person. */
const NON_PERSONAL_EMAIL =
  /^(?:no-?reply|donotreply|do-not-reply|git|mailer-daemon|postmaster|support|info|admin|root|security|abuse)@|@(?:example\.(?:com|org|net)|users\.noreply\.github\.com|localhost)$/i;
/** Stop counting once the label cannot change; keeps a 10 MB mailing list cheap. */
const ENOUGH = 200;

/**
 * A text longer than this, given without its bytes, is scanned a window at a time: RE2 converts a
 * JS string to UTF-8 whole, and the background label check of a 50 MB result would hold a second
 * copy of it for that.
 */
const WINDOW = 1 << 20;
/** Each window sees this much of the text on both sides, more than the longest match (an e-mail address is at most 64 + 1 + 253 chars). */
const OVERLAP = 512;

/** Counts personal-data signals in `text`. `utf8`: its UTF-8 bytes, when at hand (see scanSubject in secrets.ts). */
export function scanPersonal(text: string, utf8?: Buffer): PersonalSignals {
  const steps = scanSteps(text, utf8);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * `scanPersonal` a window at a time, yielding to the event loop between windows (about 3 ms
 * each here): the background label check of a 25 MB result held the thread for 65 ms in one go,
 * and any call that arrived meanwhile waited for it.
 */
export async function scanPersonalAsync(text: string): Promise<PersonalSignals> {
  const steps = scanSteps(text);
  let step = steps.next();
  while (!step.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    step = steps.next();
  }
  return step.value;
}

/** The scan, pausing after each window of a long text given without its bytes. */
function* scanSteps(text: string, utf8?: Buffer): Generator<void, PersonalSignals> {
  const counts = { emails: new Set<string>(), phones: new Set<string>(), seen: 0 };
  const out: PersonalSignals = { emails: 0, phones: 0, iban: 0, ssn: 0, card: 0 };
  if (typeof text !== "string" || text.length === 0) return out;
  if (utf8 !== undefined || text.length <= WINDOW) scanWindow(text, scanSubject(text, utf8), 0, text.length, counts, out);
  else {
    // A match is counted in the window it starts in; the context on both sides lets it start and
    // finish as it would in the whole text (a \b sees the same neighbours).
    for (let at = 0; at < text.length && counts.seen < ENOUGH; at += WINDOW) {
      if (at > 0) yield;
      const from = Math.max(0, at - OVERLAP);
      const piece = text.slice(from, at + WINDOW + OVERLAP);
      scanWindow(piece, piece, at - from, at - from + WINDOW, counts, out);
    }
  }
  out.emails = counts.emails.size;
  out.phones = counts.phones.size;
  return out;
}

/** Scans `subject` (the text, or its bytes), counting matches that start in [`from`, `upTo`). */
function scanWindow(
  text: string,
  subject: string,
  from: number,
  upTo: number,
  counts: { emails: Set<string>; phones: Set<string>; seen: number },
  out: PersonalSignals,
): void {
  const SCAN = scanner();
  SCAN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (counts.seen < ENOUGH && (m = SCAN.exec(subject)) && m.index < upTo) {
    if (m.index < from) continue;
    counts.seen++;
    const kind = KINDS[m.findIndex((g, i) => i > 0 && g !== undefined) - 1];
    // From the text: on a Buffer the match is bytes (the same chars, the text being ASCII).
    const v = text.slice(m.index, m.index + m[0].length);
    if (kind === "email" && !NON_PERSONAL_EMAIL.test(v)) counts.emails.add(v.toLowerCase());
    else if (kind === "phone") counts.phones.add(v.replace(/\D/g, ""));
    else if (kind === "iban" && validIban(v)) out.iban++;
    else if (kind === "ssn" && validSsn(v)) out.ssn++;
    else if (kind === "card" && luhn(v.replace(/\D/g, ""))) out.card++;
  }
}

function validIban(v: string): boolean {
  const s = v.replace(/ /g, "");
  if (s.length < 15 || s.length > 34) return false;
  const rearranged = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const n = ch >= "A" ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rem = (n > 9 ? rem * 100 + n : rem * 10 + n) % 97;
  }
  return rem === 1;
}

function validSsn(v: string): boolean {
  const [area, group, serial] = v.split("-");
  return area !== "000" && area !== "666" && !area!.startsWith("9") && group !== "00" && serial !== "0000";
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
