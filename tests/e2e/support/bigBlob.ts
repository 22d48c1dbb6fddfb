/** A 50 MB log put into a real store (the real BlobStore: keyed id, atomic file, index row). */
import { createEngine, engineInternals } from "../../../core/engine/engine";
import { memoryLogger } from "../../../core/runtime";
import { countLines } from "../../../core/text/lines";

export const BIG_LINES = 600_000;
export const BIG_LAST_LINE_TEXT = `request ${BIG_LINES - 1} done`;

export function bigText(): string {
  const lines: string[] = [];
  for (let i = 0; i < BIG_LINES; i++) {
    lines.push(
      i === BIG_LINES - 1
        ? `2026-03-14T09:59:59.999Z INFO api-gateway ${BIG_LAST_LINE_TEXT}`
        : `2026-03-14T09:${String(Math.floor(i / 10_000) % 60).padStart(2, "0")}:00.000Z INFO api-gateway request ${i} GET /v1/items/${(i * 7919) % 100_003} 200 in ${i % 97} ms`,
    );
  }
  return lines.join("\n") + "\n";
}

export async function putBigBlob(home: string): Promise<{ id: string; chars: number; lines: number }> {
  const engine = createEngine({ home, logger: memoryLogger() });
  try {
    const text = bigText();
    const { meta } = engineInternals(engine).store.put(text, {
      tool: "fetch_access_log",
      server: "files",
      sessionId: "e2e-bulk-import",
      kind: "log",
      shape: `log, ${BIG_LINES} lines`,
      lines: countLines(text),
      label: "internal",
    });
    return { id: meta.id, chars: meta.chars, lines: meta.lines };
  } finally {
    await engine.close();
  }
}
