/**
 * A typed filter waits for typing to pause before it asks the store: during that pause the box
 * already holds the new text, so the count beside it is "…", never the previous filter's number,
 * and then the new text's own count (Blobs, Sessions, a session's calls filter).
 */
import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { MANY_CALLS, TIMED_OUT } from "./support/manyCalls";
import { clientOf, MANY_SESSIONS } from "./support/manySessions";
import { hold, recordBeside, type Gate } from "./support/pending";
import { api } from "./support/serve";

const n = (x: number) => x.toLocaleString("en-US");

/**
 * Types `typed` into `input` with the request it leads to held: every recorded moment shows the
 * old text beside `before`, or the new text beside "…" (the pause, then the held request) or
 * beside `after`; the pause's "…" was seen, and `after` once the answer is let through.
 */
async function expectTypedThen(
  input: Locator,
  count: Locator,
  gate: Gate,
  typed: string,
  p: { testId: string; before: string; label: string; after: string },
) {
  await expect(count).toHaveText(p.before);
  const old = await input.inputValue();
  const seen = await recordBeside(input, p.testId);
  await input.fill(typed);
  await gate.held;
  await expect(count).toHaveText(`…${p.label}`);
  await expect(count).toHaveAttribute("aria-busy", "true");
  gate.release();
  await expect(count).toHaveText(p.after);
  await expect(count).toHaveAttribute("aria-busy", "false");
  await gate.done();
  const moments = await seen();
  const shown = moments.map((m) => `“${m.typed}”: ${m.count}`).join(" | ");
  const right = (m: { typed: string; count: string }) =>
    m.typed === old ? m.count === p.before : m.typed === typed && (m.count === `…${p.label}` || m.count === p.after);
  expect(
    moments.filter((m) => !right(m)),
    `recorded: ${shown}`,
  ).toEqual([]);
  expect(moments[0], `recorded: ${shown}`).toEqual({ typed: old, count: p.before });
  expect(moments[moments.length - 1], `recorded: ${shown}`).toEqual({ typed, count: p.after });
}

test("the blobs count is '…' while the typed search text waits to be sent", async ({ page, state }) => {
  type List = { total: number };
  const total = async (filter: Record<string, unknown>) =>
    (await api<List>(state.main, "blobs.list", { filter, offset: 0, limit: 1 })).total;
  const all = await total({});
  // A tool's name as the typed text: it matches some blobs, not all, so the two counts differ.
  const { tools } = await api<{ tools: string[] }>(state.main, "blobs.facets", {});
  let text = "";
  let some = 0;
  for (const t of tools) {
    some = await total({ text: t });
    if (some > 0 && some < all) {
      text = t;
      break;
    }
  }
  expect(text, `a tool among ${tools.join(", ")} that matches some blobs but not all`).not.toBe("");

  await page.goto(`${state.main.url}/#/blobs`);
  await page.reload();
  const input = page.getByRole("search", { name: "Filter blobs" }).getByLabel("Search");
  const gate = await hold(page, "blobs.list", (b) => (b.filter as { text?: string } | undefined)?.text === text);
  await expectTypedThen(input, page.getByTestId("blob-count"), gate, text, {
    testId: "blob-count",
    before: `${n(all)} stored`,
    label: "counting the matching blobs",
    after: `${n(some)} matching`,
  });
});

test("the sessions count is '…' while the typed query waits to be sent", async ({ page, state }) => {
  const codex = Array.from({ length: MANY_SESSIONS }, (_, i) => clientOf(i)).filter((c) => c.includes("codex")).length;
  await page.goto(`${state.many.url}/#/sessions`);
  await page.reload();
  const gate = await hold(page, "sessions.list", (b) => b.query === "codex");
  await expectTypedThen(page.getByLabel("Filter sessions"), page.getByTestId("session-count"), gate, "codex", {
    testId: "session-count",
    before: `${n(MANY_SESSIONS)} sessions`,
    label: "counting the matching sessions",
    after: `${n(codex)} matching`,
  });
});

test("a session's call-filter count is '…' while the typed text waits to be sent", async ({ page, state }) => {
  await page.goto(`${state.calls.url}/#/sessions/${state.calls.session}`);
  await page.reload();
  const count = page.getByTestId("call-matches");
  const input = page.getByLabel("Filter calls by tool, argument or error");
  await input.fill("TIMED OUT after 120 s");
  const gate = await hold(page, "calls.find", (b) => b.text === "/srv/data/f1234");
  await expectTypedThen(input, count, gate, "/srv/data/f1234", {
    testId: "call-matches",
    before: `${TIMED_OUT.length} of ${n(MANY_CALLS)} calls match`,
    label: "counting the matching calls",
    after: `1 of ${n(MANY_CALLS)} calls match`,
  });
});

/**
 * From a text that matches nothing to one that matches: while the new text waits (and while its
 * request is held), the previous text's "no match" is not said for it, then the matches show.
 */
async function expectNoStaleEmpty(input: Locator, gate: Gate, from: string, typed: string, emptyId: string, matched: Locator) {
  await input.fill(from);
  await expect(input.page().getByTestId(emptyId)).toBeVisible();
  const seen = await recordBeside(input, emptyId);
  await input.fill(typed);
  await gate.held;
  gate.release();
  await expect(matched).toBeVisible();
  await gate.done();
  const moments = await seen();
  const shown = moments.map((m) => `“${m.typed}”: ${m.count}`).join(" | ");
  expect(
    moments.filter((m) => m.typed === typed && m.count !== "(absent)"),
    `recorded: ${shown}`,
  ).toEqual([]);
  expect(moments[0]!.typed, `recorded: ${shown}`).toBe(from);
}

test("the blobs' 'no match' is not said for a typed text that has no answer yet", async ({ page, state }) => {
  const { tools } = await api<{ tools: string[] }>(state.main, "blobs.facets", {});
  const tool = tools[0]!;
  await page.goto(`${state.main.url}/#/blobs`);
  await page.reload();
  const input = page.getByRole("search", { name: "Filter blobs" }).getByLabel("Search");
  const gate = await hold(page, "blobs.list", (b) => (b.filter as { text?: string } | undefined)?.text === tool);
  await expectNoStaleEmpty(
    input,
    gate,
    "no-blob-has-this-text-zq",
    tool,
    "blobs-empty",
    page.getByTestId("blob-count").getByText(/matching/),
  );
});

test("a session's 'no call matches' is not said for a typed text that has no answer yet", async ({ page, state }) => {
  await page.goto(`${state.calls.url}/#/sessions/${state.calls.session}`);
  await page.reload();
  const input = page.getByLabel("Filter calls by tool, argument or error");
  const gate = await hold(page, "calls.find", (b) => b.text === "/srv/data/f1234");
  await expectNoStaleEmpty(
    input,
    gate,
    "no-call-has-this-text-zq",
    "/srv/data/f1234",
    "no-match",
    page.getByTestId("call-matches").getByText("1 of"),
  );
});
