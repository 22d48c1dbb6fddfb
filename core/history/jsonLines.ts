/** Streams a JSON-lines file record by record; a line that is not a JSON object is reported with its number and skipped. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { ErrorCode, SpillwayError } from "../errors";
import type { ImportIssue } from "./types";

export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

/** Checks the signal between records, so a long file can be cancelled mid-way. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new SpillwayError(ErrorCode.Cancelled, "the import was cancelled");
}

export async function* jsonLines(file: string, issue: (i: ImportIssue) => void, signal?: AbortSignal): AsyncGenerator<JsonLine> {
  const rl = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of rl) {
      line++;
      throwIfAborted(signal);
      if (text.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        issue({ file, line, message: `not JSON (${(err as Error).message.split("\n")[0]})` });
        continue;
      }
      if (!value || typeof value !== "object" || Array.isArray(value)) {
        issue({ file, line, message: "not a JSON object" });
        continue;
      }
      yield { line, value: value as Record<string, unknown> };
    }
  } finally {
    rl.close();
  }
}

/** Milliseconds since the epoch of an ISO timestamp or epoch number; `fallback` when neither. */
export function timeOf(v: unknown, fallback: number): number {
  if (typeof v === "number" && Number.isFinite(v)) return v < 1e12 ? v * 1000 : v;
  if (typeof v === "string") {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  return fallback;
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The text of content that is a string or a list of `{type: "text", text}` parts (other parts as a short placeholder). */
export function contentText(v: unknown): string {
  if (typeof v === "string") return v;
  if (!Array.isArray(v)) return v === undefined || v === null ? "" : JSON.stringify(v);
  return v
    .map((p) => {
      if (!isObject(p)) return typeof p === "string" ? p : "";
      if (typeof p.text === "string") return p.text;
      // Images and other binary parts: the model got them, but they are not text to count or store.
      return `[${String(p.type ?? "part")}]`;
    })
    .join("\n");
}
