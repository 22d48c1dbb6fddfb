/**
 * The initialize answer of `spillway mcp` before the MCP SDK, zod and the config load (about half of
 * the CPU a start costs before it can answer). Run first, from its own small bundle: it reads
 * stdin, answers a first message that is a well-formed initialize request with exactly what the SDK
 * Server would answer (serverIdentity.ts, with the upstreams' instructions kept with the list), then
 * a tools/list from the last complete answer kept for this build and config (toolsListCache.ts),
 * and keeps every byte it read. The stdio transport then takes over (stdioServerTransport.ts): it
 * replays those bytes to the SDK Server, so the Server knows its client, and drops the Server's own
 * answers to the requests answered here.
 *
 * Only what the SDK would surely accept is answered early; anything else (a first message that is
 * not initialize, params the SDK's schema might refuse) waits for the Server, as before.
 */
import type { Readable, Writable } from "node:stream";
import { LineReader } from "./lineReader";
import { SERVER_INSTRUCTIONS, initializeResult } from "./serverIdentity";
import type { ListKey } from "./toolsListCache";
import { writeLine } from "./stdioWrite";

/** A line longer than this ends early answering: the requests answered here are a few hundred bytes. */
const LINE_MAX_BYTES = 1024 * 1024;
/** Messages looked at for a tools/list after initialize (a host sends it right after `initialized`). */
const LIST_WITHIN_MESSAGES = 8;

/** A request answered early: the Server's own answer to it must not go out. */
export interface EarlyAnswer {
  id: string | number;
  method: "initialize" | "tools/list";
  /** The answer as written (without its newline), to check the Server's against. */
  answer: string;
}

/** What the early reader read, as the transport takes it over. */
export interface PreludeState {
  /** Every byte read from stdin so far, the answered requests included, in order. */
  bytes: Buffer;
  answered: EarlyAnswer[];
  /** stdin ended before the hand-over. */
  ended: boolean;
  /** A stream error before the hand-over. */
  error: Error | null;
}

/** The early reader of stdin, until the transport takes over. */
export interface StdinPrelude {
  /** Stops reading and gives what was read (the caller attaches its own listeners in the same tick). Once only. */
  handOver(): PreludeState;
  /** Where this process keeps its tools/list answer for the next start (toolsListCache.ts); absent when it does not. */
  listKey?: ListKey;
  /** The instructions an initialize answered here carries (the Server must give the same); absent when none is answered here. */
  instructions?: string;
  /** Resolves once there is nothing more to answer early (or stdin ended). */
  settled: Promise<void>;
  /** Stops reading without a hand-over (the command ended before serving), so the process can exit. */
  close(): void;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);
const isString = (v: unknown) => typeof v === "string";

/** The capabilities a client declares: each an object, as the SDK's ClientCapabilitiesSchema wants. */
function plausibleCapabilities(caps: unknown): boolean {
  if (!isObject(caps)) return false;
  for (const [key, value] of Object.entries(caps)) {
    if (value === undefined) continue;
    if (!isObject(value)) return false;
    if (key === "experimental" || key === "sampling" || key === "elicitation") {
      if (!Object.values(value).every((v) => v === undefined || isObject(v))) return false;
    }
    if (key === "roots" && !optional(value.listChanged, (x) => typeof x === "boolean")) return false;
  }
  return true;
}

/** The request's id when `m` is an initialize request the SDK would take as is; null otherwise. */
export function earlyInitializeId(m: unknown): string | number | null {
  if (!isObject(m) || m.jsonrpc !== "2.0" || m.method !== "initialize") return null;
  // The SDK's JSONRPCRequestSchema is strict: no other top-level key.
  if (Object.keys(m).some((k) => k !== "jsonrpc" && k !== "id" && k !== "method" && k !== "params")) return null;
  const id = m.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  const p = m.params;
  if (!isObject(p) || !isString(p.protocolVersion) || !optional(p._meta, isObject) || !plausibleCapabilities(p.capabilities)) return null;
  const info = p.clientInfo;
  if (!isObject(info) || !isString(info.name) || !isString(info.version)) return null;
  if (![info.title, info.websiteUrl, info.description].every((v) => optional(v, isString))) return null;
  if (!optional(info.icons, Array.isArray)) return null;
  return id;
}

/** The answer line the SDK Server writes for an initialize request (its key order: result, jsonrpc, id). */
export function initializeAnswer(request: Json, id: string | number, instructions?: string): string {
  return JSON.stringify({ result: initializeResult((request.params as Json).protocolVersion, instructions), jsonrpc: "2.0", id });
}

/** The request's id when `m` is a tools/list request the SDK would take as is (no cursor: the list is one page); null otherwise. */
export function earlyListId(m: unknown): string | number | null {
  if (!isObject(m) || m.jsonrpc !== "2.0" || m.method !== "tools/list") return null;
  if (Object.keys(m).some((k) => k !== "jsonrpc" && k !== "id" && k !== "method" && k !== "params")) return null;
  const id = m.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  if (
    m.params !== undefined &&
    !(isObject(m.params) && Object.keys(m.params).every((k) => k === "_meta") && optional(m.params._meta, isObject))
  )
    return null;
  return id;
}

export interface EarlyOptions {
  /** The cached tools/list result to answer with, read once initialize was answered; null when none applies. */
  cachedList?: () => Record<string, unknown> | null;
  /** false: answer nothing, only read until the Server takes stdin over (the config is not known to load). */
  answer?: boolean;
  /** The instructions to answer initialize with (Spillway's own and its upstreams', kept with the list); Spillway's alone by default. */
  instructions?: string;
}

/** Starts reading `stdin`; answers an initialize request arriving first, and a tools/list after it, on `stdout`. */
export function startEarlyStdio(stdin: Readable, stdout: Writable, opts: EarlyOptions = {}): StdinPrelude {
  const chunks: Buffer[] = [];
  const state: Omit<PreludeState, "bytes"> = { answered: [], ended: false, error: null };
  let decided = false;
  let done = false;
  /** After initialize: the list to answer tools/list with, and how many more messages to look at. */
  let list: Record<string, unknown> | null = null;
  let looks = 0;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const decide = () => {
    decided = true;
    settle();
  };
  const answer = (id: string | number, method: EarlyAnswer["method"], line: string) => {
    state.answered.push({ id, method, answer: line });
    // A failed write is the transport's to see: it writes to the same pipe next.
    writeLine(stdout, line).catch(() => {});
  };
  const onLine = (line: Buffer) => {
    if (decided) return;
    if (opts.answer === false) return decide();
    let m: unknown;
    try {
      m = JSON.parse(line.toString("utf8"));
    } catch {
      return decide();
    }
    if (list) {
      const id = earlyListId(m);
      if (id !== null) {
        answer(id, "tools/list", JSON.stringify({ result: list, jsonrpc: "2.0", id }));
        return decide();
      }
      if (++looks >= LIST_WITHIN_MESSAGES) decide();
      return;
    }
    const id = earlyInitializeId(m);
    if (id === null) return decide();
    answer(id, "initialize", initializeAnswer(m as Json, id, opts.instructions));
    try {
      list = opts.cachedList?.() ?? null;
    } catch {
      list = null;
    }
    if (!list) decide();
  };
  const first = new LineReader({ line: onLine, oversized: decide }, LINE_MAX_BYTES);
  const onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    chunks.push(buf);
    if (!decided) first.push(buf);
  };
  const onEnd = () => {
    state.ended = true;
    settle();
  };
  const onError = (err: Error) => {
    state.error ??= err;
    settle();
  };
  const detach = () => {
    done = true;
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.off("close", onEnd);
    stdin.off("error", onError);
    first.clear();
  };
  stdin.on("data", onData);
  stdin.on("end", onEnd);
  stdin.on("close", onEnd);
  stdin.on("error", onError);
  return {
    settled,
    ...(opts.answer !== false ? { instructions: opts.instructions ?? SERVER_INSTRUCTIONS } : {}),
    handOver() {
      if (done) throw new Error("The early stdin reader was already handed over or closed.");
      detach();
      return { ...state, bytes: Buffer.concat(chunks) };
    },
    close() {
      if (done) return;
      detach();
      settle();
      if (stdin.listenerCount("data") === 0) stdin.pause();
    },
  };
}
