/**
 * Pass by reference: `spill:<id>` in any string of a tool call's arguments becomes the stored
 * blob's content before the tool runs, so a large result flows tool to tool without passing
 * through the model's context. Every token gets an outcome, and a denied token stays exactly
 * as written so the tool sees what the model wrote and the note explains why.
 */
import type { SpillwayConfig } from "../config/config";
import { matchesToolPattern } from "../config/config";
import type { Label } from "../types";
import { isSinkTool } from "./sinks";
import { SPILL_TOKEN_PATTERN } from "../vocabulary";

export { isSinkTool } from "./sinks";

/** A blob as the engine hands it over: content plus what the policy needs to judge it. */
export interface PassrefBlob {
  id: string;
  content: string;
  label: Label;
  tool: string;
}

/** Looks a blob up for the calling session; `reason` is a sentence the model can act on. */
export type PassrefResolve = (id: string) => { ok: true; blob: PassrefBlob } | { ok: false; reason: string };

/** One token occurrence and what happened to it. */
export interface Expansion {
  token: string;
  id: string;
  /** JSON path of the string that held the token, e.g. `args.files[2].text`. */
  path: string;
  outcome: "expanded" | "denied";
  /** Why a token was denied: the cause only, for the engine to put after "spill:<id> was not expanded: ". */
  reason?: string;
  /** Characters of the blob (0 when it could not be resolved). */
  chars: number;
}

/** A pass-by-reference token: `spill:` and 12 lowercase hex digits, not part of a longer word. */
export const SPILL_TOKEN: RegExp = SPILL_TOKEN_PATTERN;
const TOKEN_G = new RegExp(SPILL_TOKEN.source, "g");

type Key = string | number;
interface Frame {
  value: unknown;
  key: Key | null;
  parent: Frame | null;
}

/** Expands tokens in a copy of `args` (the input is never mutated; unchanged parts are shared). */
export function expandArguments(
  input: { tool: string; args: unknown },
  resolve: PassrefResolve,
  cfg: SpillwayConfig["passref"],
): { args: unknown; expansions: Expansion[]; changed: boolean } {
  const tool = String(input?.tool ?? "");
  const args = input?.args;
  const policy = new Policy(tool, resolve, cfg);
  const expansions: Expansion[] = [];
  const edits: { keys: Key[]; value: string }[] = [];
  for (const leaf of stringLeavesWithTokens(args)) {
    const path = pathOf(leaf);
    const text = leaf.value as string;
    const parts: string[] = [];
    let pos = 0;
    let changed = false;
    TOKEN_G.lastIndex = 0;
    for (let m; (m = TOKEN_G.exec(text));) {
      const e = policy.decide(m[1]!, path);
      expansions.push(e.expansion);
      if (e.content === undefined) continue;
      parts.push(text.slice(pos, m.index), e.content);
      pos = m.index + m[0].length;
      changed = true;
    }
    if (changed) {
      parts.push(text.slice(pos));
      edits.push({ keys: keysOf(leaf), value: parts.join("") });
    }
  }
  if (edits.length === 0) return { args, expansions, changed: false };
  return { args: applyEdits(args, edits), expansions, changed: true };
}

/** The per-call rules, applied token by token in document order (so the call budget is first come, first served). */
class Policy {
  private readonly sink: boolean;
  private readonly maxChars: number;
  private readonly totalMaxChars: number;
  private readonly credentialOk: boolean;
  private readonly cache = new Map<string, ReturnType<PassrefResolve>>();
  private total = 0;

  constructor(
    private readonly tool: string,
    private readonly resolve: PassrefResolve,
    cfg: SpillwayConfig["passref"],
  ) {
    // The config is validated once (core/config): its defaults and bounds are the only ones.
    this.credentialOk = cfg.credentialDestinations.some((p) => safeMatch(p, tool));
    // A tool trusted with credentials (a vault's store) is trusted as a destination at all.
    const allowed = this.credentialOk || cfg.allowedTools.some((p) => safeMatch(p, tool));
    this.sink = isSinkTool(tool) && !allowed;
    this.maxChars = cfg.maxChars;
    this.totalMaxChars = cfg.totalMaxChars;
  }

  decide(id: string, path: string): { expansion: Expansion; content?: string } {
    const token = `spill:${id}`;
    const deny = (reason: string, chars = 0) => ({
      expansion: { token, id, path, outcome: "denied" as const, reason, chars },
    });
    if (this.sink) {
      return deny(
        `${this.tool} can run commands or send data out (an exec or exfiltration sink), so pass-by-reference is not allowed for it. ` +
          `Read what you need with rescuer_fetch and pass it explicitly, or ask the user to add the tool to passref.allowedTools.`,
      );
    }
    const found = this.lookup(id);
    if (!found.ok) return deny(found.reason);
    const { content, label } = found.blob;
    if (typeof content !== "string") return deny("the stored content is not text.");
    const chars = content.length;
    if (label === "credential" && !this.credentialOk) {
      return deny(`the blob holds credentials, and ${this.tool} is not listed in passref.credentialDestinations.`, chars);
    }
    if (chars > this.maxChars) {
      return deny(
        `the blob has ${chars} characters, over the limit of ${this.maxChars} per reference (passref.maxChars). ` +
          `Pass a slice from rescuer_fetch instead.`,
        chars,
      );
    }
    if (this.total + chars > this.totalMaxChars) {
      return deny(
        `expanding it would bring this call to ${this.total + chars} characters, over the limit of ${this.totalMaxChars} per call (passref.totalMaxChars).`,
        chars,
      );
    }
    this.total += chars;
    return { expansion: { token, id, path, outcome: "expanded", chars }, content };
  }

  private lookup(id: string): ReturnType<PassrefResolve> {
    let r = this.cache.get(id);
    if (!r) {
      try {
        r = this.resolve(id) ?? { ok: false, reason: `no blob ${id} was found.` };
      } catch (err) {
        r = { ok: false, reason: `blob ${id} could not be read (${err instanceof Error ? err.message : String(err)}).` };
      }
      if (r.ok && (!r.blob || typeof r.blob !== "object")) r = { ok: false, reason: `no blob ${id} was found.` };
      this.cache.set(id, r);
    }
    return r;
  }
}

/** String leaves that contain a token, in document order; iterative, so depth cannot overflow the stack. */
function stringLeavesWithTokens(root: unknown): Frame[] {
  const out: Frame[] = [];
  const seen = new Set<object>();
  const stack: Frame[] = [{ value: root, key: null, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === "string") {
      if (v.includes("spill:") && SPILL_TOKEN.test(v)) out.push(frame);
      continue;
    }
    if (!isContainer(v) || seen.has(v)) continue;
    seen.add(v);
    const keys: Key[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (v as Record<Key, unknown>)[keys[i]!], key: keys[i]!, parent: frame });
    }
  }
  return out;
}

/** Arrays and plain objects are walked; class instances (Date, Buffer…) are leaves. */
function isContainer(v: unknown): v is object {
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function keysOf(frame: Frame): Key[] {
  const keys: Key[] = [];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) keys.push(f.key);
  return keys.toReversed();
}

/** Longest path kept in a record; deeper ones keep both ends (a ledger row, not a dump). */
const MAX_PATH = 1_000;

function pathOf(frame: Frame): string {
  const path =
    "args" +
    keysOf(frame)
      .map((k) => (typeof k === "number" ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`))
      .join("");
  return path.length <= MAX_PATH ? path : `${path.slice(0, MAX_PATH / 2)}…${path.slice(-MAX_PATH / 2)}`;
}

/**
 * Copies only the containers on the paths of edited strings; everything else is shared.
 * Copies are keyed by the original container: the walk visits each container once, so one
 * container lies on one path.
 */
function applyEdits(root: unknown, edits: { keys: Key[]; value: string }[]): unknown {
  const copies = new Map<object, Record<Key, unknown>>();
  const copyOf = (original: object): Record<Key, unknown> => {
    let c = copies.get(original);
    if (!c) {
      // Descriptors, not assignment: an own `__proto__` key from JSON.parse stays a plain key.
      c = (
        Array.isArray(original)
          ? [...original]
          : Object.defineProperties(Object.create(Object.getPrototypeOf(original)), Object.getOwnPropertyDescriptors(original))
      ) as Record<Key, unknown>;
      copies.set(original, c);
    }
    return c;
  };
  let result: unknown = root;
  for (const { keys, value } of edits) {
    if (keys.length === 0) {
      result = value;
      continue;
    }
    let original = root as Record<Key, unknown>;
    let copy = copyOf(original);
    result = copy;
    for (let i = 0; i < keys.length - 1; i++) {
      original = original[keys[i]!] as Record<Key, unknown>;
      const child = copyOf(original);
      define(copy, keys[i]!, child);
      copy = child;
    }
    define(copy, keys[keys.length - 1]!, value);
  }
  return result;
}

/** Own data property even for a key like `__proto__` (plain assignment would hit the setter). */
function define(target: Record<Key, unknown>, key: Key, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function safeMatch(pattern: string, tool: string): boolean {
  try {
    return matchesToolPattern(pattern, tool);
  } catch {
    return false;
  }
}
