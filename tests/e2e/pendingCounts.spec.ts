/**
 * A count under a filter belongs to that filter: while the new filter's answer is held back, the
 * Blobs, Sessions, calls-filter and Search counts show a labelled "…", never the previous
 * filter's number, and the new filter's own count once its answer is let through.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { MANY_CALLS, TIMED_OUT } from "./support/manyCalls";
import { clientOf, MANY_SESSIONS } from "./support/manySessions";
import { hold, recordTexts, type Gate } from "./support/pending";
import { api } from "./support/serve";

const n = (x: number) => x.toLocaleString("en-US");

/**
 * Changes a filter with its answer held: the count is "…" with its label until the answer is let
 * through, then `after`; in between it showed nothing else (in particular not the old count).
 */
async function expectPendingThen(
  page: Page,
  count: Locator,
  gate: Gate,
  change: () => Promise<unknown>,
  p: { testId: string; before: string; label: string; after: string | RegExp },
) {
  await expect(count).toHaveText(p.before);
  const seen = await recordTexts(page, p.testId);
  await change();
  await gate.held;
  await expect(count).toHaveText(`…${p.label}`);
  await expect(count).toHaveAttribute("aria-busy", "true");
  await expect(count.getByText(p.label)).toHaveClass("sr-only");
  gate.release();
  await expect(count).toHaveText(p.after);
  await expect(count).toHaveAttribute("aria-busy", "false");
  await gate.done();
  const texts = await seen();
  expect(texts[0]).toBe(p.before);
  const allowed = (t: string) => t === `…${p.label}` || (typeof p.after === "string" ? t === p.after : p.after.test(t));
  expect(
    texts.slice(1).filter((t) => !allowed(t)),
    `shown after the change: ${texts.join(" | ")}`,
  ).toEqual([]);
}

test("the blobs count is '…' while a new filter loads, not the previous filter's total", async ({ page, state }) => {
  type List = { total: number };
  const all = (await api<List>(state.main, "blobs.list", { filter: {}, offset: 0, limit: 1 })).total;
  const dedup = (await api<List>(state.main, "blobs.list", { filter: { role: "dedup" }, offset: 0, limit: 1 })).total;
  const rescued = (await api<List>(state.main, "blobs.list", { filter: { role: "rescued" }, offset: 0, limit: 1 })).total;
  // The old bug showed the old number under the new word: the three counts must differ to see it.
  expect(new Set([all, dedup, rescued]).size).toBe(3);

  // A fresh load, so no earlier spec's cached answer for these filters skips the request.
  await page.goto(`${state.main.url}/#/blobs`);
  await page.reload();
  const count = page.getByTestId("blob-count");
  const givenAs = page.getByLabel("Given as");
  const role = (want: string) => (b: Record<string, unknown>) => (b.filter as { role?: string } | undefined)?.role === want;
  const label = "counting the matching blobs";

  // Unfiltered to filtered: "stored" turns into "matching", the number must wait for its answer.
  let gate = await hold(page, "blobs.list", role("dedup"));
  await expectPendingThen(page, count, gate, () => givenAs.selectOption("dedup"), {
    testId: "blob-count",
    before: `${n(all)} stored`,
    label,
    after: `${n(dedup)} matching`,
  });

  // Filtered to filtered: the word stays "matching", so only the number could mislead.
  gate = await hold(page, "blobs.list", role("rescued"));
  await expectPendingThen(page, count, gate, () => givenAs.selectOption("rescued"), {
    testId: "blob-count",
    before: `${n(dedup)} matching`,
    label,
    after: `${n(rescued)} matching`,
  });
});

test("the sessions count is '…' while a new query loads", async ({ page, state }) => {
  const codex = Array.from({ length: MANY_SESSIONS }, (_, i) => clientOf(i)).filter((c) => c.includes("codex")).length;
  await page.goto(`${state.many.url}/#/sessions`);
  await page.reload();
  const count = page.getByTestId("session-count");
  const gate = await hold(page, "sessions.list", (b) => b.query === "codex");
  await expectPendingThen(page, count, gate, () => page.getByLabel("Filter sessions").fill("codex"), {
    testId: "session-count",
    before: `${n(MANY_SESSIONS)} sessions`,
    label: "counting the matching sessions",
    after: `${n(codex)} matching`,
  });
});

test("a session's call-filter count is '…' while a new filter loads", async ({ page, state }) => {
  await page.goto(`${state.calls.url}/#/sessions/${state.calls.session}`);
  await page.reload();
  const count = page.getByTestId("call-matches");
  const text = page.getByLabel("Filter calls by tool, argument or error");
  await text.fill("TIMED OUT after 120 s");
  const gate = await hold(page, "calls.find", (b) => b.text === "/srv/data/f1234");
  await expectPendingThen(page, count, gate, () => text.fill("/srv/data/f1234"), {
    testId: "call-matches",
    before: `${TIMED_OUT.length} of ${n(MANY_CALLS)} calls match`,
    label: "counting the matching calls",
    after: `1 of ${n(MANY_CALLS)} calls match`,
  });
});

test("the search summary is '…' while a new filter's results load", async ({ page, state }) => {
  const q = "FATAL disk quota GITHUB_TOKEN";
  type Hits = { hits: { blobId: string }[] };
  const summary = (r: Hits) => {
    const hits = r.hits.length;
    const blobs = new Set(r.hits.map((h) => h.blobId)).size;
    return new RegExp(`^${n(hits)} results? in ${n(blobs)} blobs?, \\d+ ms`);
  };
  const any = await api<Hits>(state.main, "search.all", { query: q, topK: 100, filter: {} });
  const cred = await api<Hits>(state.main, "search.all", { query: q, topK: 100, filter: { labels: ["credential"] } });
  expect(cred.hits.length).not.toBe(any.hits.length);

  await page.goto(`${state.main.url}/#/search?q=${encodeURIComponent(q)}`);
  await page.reload();
  const count = page.getByTestId("search-summary");
  await expect(count).toHaveText(summary(any));
  const before = (await count.textContent())!;
  const gate = await hold(page, "search.all", (b) => (b.filter as { labels?: string[] } | undefined)?.labels?.[0] === "credential");
  await expectPendingThen(page, count, gate, () => page.getByLabel("Label").selectOption("credential"), {
    testId: "search-summary",
    before,
    label: "counting the results",
    after: summary(cred),
  });
});
