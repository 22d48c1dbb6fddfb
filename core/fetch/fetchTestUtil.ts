/** Helpers for the fetch tests: fixture blobs and FetchInput builders. Not used by the engine. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { countLines } from "../text/lines";
import type { BlobMeta, Kind } from "../types";
import { defaultConfig } from "../config/config";
import type { FetchAnswer, FetchInput } from "./fetchTypes";

export const FIXTURES = join(import.meta.dirname, "../../tests/fixtures/fetch");

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}

export function metaFor(content: string, kind: Kind, over: Partial<BlobMeta> = {}): BlobMeta {
  return {
    id: "blob-test",
    chars: content.length,
    bytes: Buffer.byteLength(content),
    lines: countLines(content),
    kind,
    shape: "",
    tool: "fs__read_text_file",
    server: "filesystem",
    sessionId: "s1",
    label: "public",
    encrypted: false,
    pinned: false,
    state: "live",
    createdAt: Date.UTC(2024, 4, 14, 2, 0, 0),
    lastAccessAt: Date.UTC(2024, 4, 14, 2, 0, 0),
    expiresAt: Date.UTC(2024, 4, 17, 2, 0, 0),
    fetchCount: 0,
    tombstonedAt: null,
    ...over,
  };
}

export function inputFor(content: string, kind: Kind, args: Record<string, unknown> = {}, over: Partial<FetchInput> = {}): FetchInput {
  return {
    id: "blob-test",
    content,
    meta: metaFor(content, kind),
    args,
    limits: { maxChars: defaultConfig().fetch.maxChars, fullMaxChars: defaultConfig().fetch.fullMaxChars },
    ...over,
  };
}

/** Asserts an error answer is one sentence naming its subject, with no stack trace. */
export function expectSentence(a: FetchAnswer, mentions?: string | RegExp): void {
  expect(a.isError).toBe(true);
  expect(a.text).not.toMatch(/\n/);
  expect(a.text).not.toMatch(/\bat .*:\d+:\d+/);
  expect(a.text).toMatch(/[.!?]$/);
  expect(a.text.length).toBeLessThan(400);
  if (mentions) expect(a.text).toMatch(mentions);
}
