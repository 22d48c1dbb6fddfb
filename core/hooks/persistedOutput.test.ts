import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { readPersistedOutput } from "./persistedOutput";

/** Claude Code's layout: <projects>/<project>/<session>.jsonl and <projects>/<project>/<session>/tool-results/. */
function layout(root: string, sessionId: string) {
  const project = join(root, ".claude/projects/-home-me-app");
  const results = join(project, sessionId, "tool-results");
  mkdirSync(results, { recursive: true });
  const transcriptPath = join(project, `${sessionId}.jsonl`);
  writeFileSync(transcriptPath, "");
  return { transcriptPath, results };
}

describe("readPersistedOutput", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome("spillway-persisted-")));
  afterEach(() => home.cleanup());
  const SID = "6b1c1c9e-3d2a-4c55-9a57-0f0d3c2b1a00";

  it("reads the whole file when it is the session's and has the size Claude Code reported", async () => {
    const { transcriptPath, results } = layout(home.path, SID);
    const text = "é line\n".repeat(10_000);
    const path = join(results, "b1.txt");
    writeFileSync(path, text);
    const bytes = Buffer.byteLength(text);
    expect(await readPersistedOutput({ path, bytes }, { transcriptPath, sessionId: SID })).toEqual({ ok: true, text });
  });

  it("checks a size given in chars (MCP results) against the text", async () => {
    const { transcriptPath, results } = layout(home.path, SID);
    const path = join(results, "mcp-x-1.txt");
    writeFileSync(path, "naïve 😀\n".repeat(100));
    const session = { transcriptPath, sessionId: SID };
    expect(await readPersistedOutput({ path, chars: 900 }, session)).toMatchObject({ ok: true });
    expect(await readPersistedOutput({ path, chars: 899 }, session)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("900 chars"),
    });
  });

  it("refuses a size that differs from the payload's, files outside the session's tool-results, links out of it, and oversized files", async () => {
    const { transcriptPath, results } = layout(home.path, SID);
    const path = join(results, "b2.txt");
    writeFileSync(path, "12345");
    const session = { transcriptPath, sessionId: SID };
    expect(await readPersistedOutput({ path, bytes: 4 }, session)).toMatchObject({ ok: false, reason: expect.stringContaining("5 bytes") });

    const outside = join(home.path, "secret.txt");
    writeFileSync(outside, "12345");
    expect(await readPersistedOutput({ path: outside, bytes: 5 }, session)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("tool-results"),
    });
    const link = join(results, "link.txt");
    symlinkSync(outside, link);
    expect(await readPersistedOutput({ path: link, bytes: 5 }, session)).toMatchObject({ ok: false });
    expect(await readPersistedOutput({ path, bytes: 5 }, { transcriptPath, sessionId: "other-session" })).toMatchObject({ ok: false });
    expect(await readPersistedOutput({ path, bytes: 5 }, { transcriptPath, sessionId: "../x" })).toMatchObject({ ok: false });
    expect(await readPersistedOutput({ path: "relative.txt", bytes: 5 }, session)).toMatchObject({ ok: false });
    expect(await readPersistedOutput({ path, bytes: 5 }, session, 4)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("out of range"),
    });
    expect(await readPersistedOutput({ path: join(results, "gone.txt"), bytes: 5 }, session)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("ENOENT"),
    });
  });
});
