import { readFileSync } from "node:fs";
import { createEngine } from "./engine";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";

const fixture = (rel: string): string => readFileSync(new URL(`../../tests/fixtures/${rel}`, import.meta.url), "utf8");

/** The first whole lines of `text` that pass `min` chars. */
const linesOver = (text: string, min: number): string => text.slice(0, text.indexOf("\n", min) + 1);

/** Results of each kind just over the 12,000-char threshold, cut from the fixtures. */
function justOver(): Record<string, string> {
  const records = JSON.parse(fixture("json/transactions.json")) as unknown[];
  let n = 1;
  while (JSON.stringify(records.slice(0, n), null, 2).length <= 12_050) n++;
  return {
    log: linesOver(fixture("log/build.log"), 12_050),
    nightlyLog: fixture("fetch/nightly-batch.log"),
    csv: linesOver(fixture("csv/transactions.csv"), 12_050),
    ndjson: linesOver(fixture("ndjson/events.ndjson"), 12_050),
    markdown: linesOver(fixture("markdown/guide.md"), 12_050),
    code: linesOver(Array.from({ length: 12 }, () => fixture("fetch/sessionStore.ts")).join("\n"), 12_050),
    json: JSON.stringify(records.slice(0, n), null, 2),
    html: fixture("html/page.html"),
    text: linesOver(fixture("markdown/guide.md").replace(/[#*`]/g, ""), 12_050),
  };
}

describe("a handle sized to the result", () => {
  const home = tempHome();
  const engine = createEngine({ home: home.path, logger: memoryLogger() });
  afterAll(async () => {
    await engine.close();
    home.cleanup();
  });

  it.each(Object.entries(justOver()))("a %s result just over the threshold costs the model under 30 % of its size", (name, text) => {
    expect(text.length).toBeGreaterThan(12_000);
    expect(text.length).toBeLessThan(13_500);
    const r = engine.transformToolResult({ sessionId: `size-${name}`, tool: "read_file", text });
    expect(r.outcome).toBe("rescued");
    expect(r.text.length).toBeLessThan(text.length * 0.3);
    // Still the whole handle: the preview line, the excerpt and every way back.
    expect(r.text).toContain("NOT the full output");
    expect(r.text).toContain(`rescuer_fetch(id="${r.blobId}"`);
    expect(r.text).toContain(`spill:${r.blobId}`);
    expect(engine.recall(`size-${name}`, r.blobId).text).toBe(text);
  });

  it("a large result gets the whole excerpt cap, and no more", () => {
    const text = fixture("log/build.log");
    const r = engine.transformToolResult({ sessionId: "size-large", tool: "read_file", text });
    const excerpt = r.text.slice(r.text.indexOf("--- excerpt ---\n") + 16, r.text.indexOf("\n--- end of excerpt ---"));
    expect(excerpt.length).toBeLessThanOrEqual(8_000);
    expect(excerpt.length).toBeGreaterThan(7_500);
  });

  it("puts the failure lines of a log just over the threshold in its handle", () => {
    const text = fixture("fetch/nightly-batch.log");
    const r = engine.transformToolResult({ sessionId: "size-failures", tool: "read_file", text });
    for (const failure of [
      "database connection failed: connect ECONNREFUSED",
      "ERROR [thumbnailer] Traceback",
      "container ingest-nightly was OOMKilled",
    ]) {
      expect(text.indexOf(failure)).toBeGreaterThan(2_000);
      expect(r.text).toContain(failure);
    }
    expect(r.text).toMatch(/more error\/failure lines/);
  });
});
