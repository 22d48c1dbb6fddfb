/**
 * The audit trail in the browser, over the real traffic of the global setup: a 40-call session as
 * a compact table, a fetch answer under its call, a crashed upstream, a refused cross-session read,
 * pass-by-reference on the call that got it, a structured result as one call, an image, a Claude
 * Code session's prompts and its one compaction.
 */
import type { Page } from "@playwright/test";
import { expect, expectAccessible, shoot, test } from "./fixtures";
import { HOOK_PROMPT, LONG_CALLS } from "./support/longSession";

const rows = (page: Page) => page.getByTestId("call-row");
const row = (page: Page, tool: string) =>
  rows(page).filter({ has: page.locator(`td:nth-child(2)`, { hasText: new RegExp(`^${tool}\\b`) }) });
/** Opens a call's row (if closed) and returns the call's detail below it. */
const openRow = async (page: Page, r: ReturnType<Page["locator"]>) => {
  if ((await r.getAttribute("data-open")) !== "true") await r.getByRole("button").first().click();
  await expect(r).toHaveAttribute("data-open", "true");
  return page.locator(`[id="call-${await r.getAttribute("data-call-id")}"]`).getByTestId("call-detail");
};
const open = (page: Page, tool: string, nth = 0) => openRow(page, row(page, tool).nth(nth));

test.describe("the audit trail", () => {
  test("a 40-call session is a compact table that filters and opens a call to compare", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.gamma}`);
    await expect(rows(page)).toHaveCount(LONG_CALLS);
    await expect(page.getByTestId("session-calls")).toContainText(String(LONG_CALLS));
    // The whole table of 40 calls fits in about two screens, where cards took ~14,000 px.
    const box = (await page.getByTestId("call-table").boundingBox())!;
    expect(box.height).toBeLessThan(1_600);
    // Every proxied call has a duration and a bar in the waterfall.
    const durations = await rows(page).locator("td:nth-child(7)").allTextContents();
    expect(durations.filter((d) => /^\d+(\.\d+)? (ms|s)$/.test(d))).toHaveLength(LONG_CALLS);
    await expect(page.locator(".wf-bar")).toHaveCount(LONG_CALLS);
    await expectAccessible(page, "40-call session");
    await shoot(page, "session-calls");

    await page.getByLabel("Filter calls by tool, argument or error").fill("get_file_info");
    // The store answers the filter (after a pause in typing) with its count; until then the count
    // is "…" and the table may be between pages, so the rows are read only once the count is in.
    const matches = page.getByTestId("call-matches");
    await expect(matches).toHaveText(new RegExp(`^\\d+ of ${LONG_CALLS} calls match$`));
    const matched = Number((await matches.textContent())!.split(" ")[0]);
    expect(matched).toBeGreaterThan(5);
    await expect(rows(page)).toHaveCount(matched);
    const infos = await rows(page).locator("td:nth-child(2)").allTextContents();
    for (const t of infos) expect(t).toMatch(/^get_file_info/);
    await page.getByLabel("Filter calls by tool, argument or error").fill("");
    await page.getByLabel("failures and refusals only").check();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("read_text_file");
    await page.getByLabel("failures and refusals only").uncheck();

    const detail = await open(page, "read_text_file");
    await expect(detail.getByTestId("raw")).toBeVisible();
    await expect(detail.getByTestId("given")).toContainText("This is a PREVIEW, NOT the full output");
    // The tool's text is shown as written: no line is broken inside a word.
    expect(await detail.getByTestId("raw").evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("pre");
    await expect(detail.getByTestId("rpc-text")).toContainText('"method": "tools/call"');
    await expectAccessible(page, "a call opened");
    await detail.scrollIntoViewIfNeeded();
    await shoot(page, "call-compare");
  });

  test("a fetch answer is shown under its call, as the model got it", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.alpha}`);
    // The stub of the repeated log is the latest call that returned it: the grep belongs to it.
    const stub = page.locator('[data-testid=call-row][data-outcome="stubbed"]').first();
    await expect(stub.locator("td:nth-child(5)")).toHaveText("2");
    const detail = await openRow(page, stub);
    const grep = detail.getByTestId("read").filter({ hasText: "rescuer_fetch grep" });
    await grep.locator("summary").click();
    await expect(grep.getByTestId("read-answer")).toContainText("ERROR");
    const recall = detail.getByTestId("read").filter({ hasText: "recall_result" });
    await recall.locator("summary").click();
    await expect(recall.getByTestId("read-answer")).toContainText("nightly");
    await expectAccessible(page, "fetch answers");
    await grep.scrollIntoViewIfNeeded();
    await shoot(page, "call-fetch-answer");
  });

  test("a crashed upstream is a failed call with the sentence the model got, and its JSON-RPC", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.alpha}`);
    const crash = page.locator('[data-testid=call-row][data-outcome="error"]');
    await expect(crash).toHaveCount(1);
    await expect(crash).toContainText("crash");
    const detail = await openRow(page, crash);
    await expect(detail.getByTestId("call-error")).toContainText("The upstream server fx stopped while running crash");
    await detail.getByRole("tab", { name: "Response" }).click();
    await expect(detail.getByTestId("rpc-text")).toContainText('"isError": true');
    // The crash, and the model's JMESPath query that failed on the orders page.
    await expect(page.getByTestId("session-errors")).toContainText("2");
    await expect(row(page, "read_text_file").nth(1).locator("td:nth-child(5)")).toHaveText("1 +1✕");
    await expectAccessible(page, "failed call");
    await shoot(page, "call-failed");
  });

  test("a refused cross-session fetch shows in the session that tried and in the blob's lineage", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.beta}`);
    const mark = page.getByTestId("mark").filter({ hasText: "rescuer_fetch stat → refused" });
    await expect(mark).toHaveCount(1);
    await mark.getByRole("button").click();
    await expect(page.getByTestId("read-answer").first()).toContainText(`There is no stored result ${state.ids.batchLog} in this session`);
    await expectAccessible(page, "refused read");

    await page.goto(`${state.main.url}/#/blobs/${state.ids.batchLog}`);
    await page.getByRole("tab", { name: "Lineage" }).click();
    const refused = page.getByTestId("lineage-events").locator("li").filter({ hasText: "rescuer_fetch stat → refused" });
    await expect(refused).toHaveCount(1);
    await refused.locator("summary").click();
    await expect(refused.getByTestId("lineage-answer")).toContainText("in this session");
  });

  test("pass by reference shows on the call that received it and in the overview", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.beta}`);
    await expect(row(page, "search_nodes")).toContainText("in");
    await expect(row(page, "create_entities")).toContainText("1 denied");
    const detail = await open(page, "create_entities");
    const denied = detail.getByTestId("read").filter({ hasText: "denied for create_entities" });
    await denied.locator("summary").click();
    await expect(denied.getByTestId("read-answer")).toContainText(`spill:${state.ids.events} was not expanded for create_entities`);
    await page.goto(`${state.main.url}/#/overview`);
    await page.getByRole("button", { name: "chars", exact: true }).click();
    await expect(page.getByTestId("card-reference")).toContainText(/\d+ spill: passed · 1 denied/);
    await expect(page.getByTestId("card-calls")).toContainText(/\d+ failed/);
  });

  test("a structured result is one call with its part, and an image is a placeholder with a thumbnail", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.alpha}`);
    await expect(row(page, "structured")).toHaveCount(1);
    await expect(row(page, "structured")).toContainText("+part");
    const chart = await open(page, "chart");
    const media = chart.getByTestId("media");
    await expect(media).toContainText("image · image/png");
    const img = media.locator("img");
    await expect(img).toHaveAttribute("alt", "image returned by chart");
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(48);
    await expectAccessible(page, "image placeholder");
  });

  test("a Claude Code session shows its prompts and one compaction, not two", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.hook}`);
    await expect(page.getByTestId("mark").filter({ hasText: HOOK_PROMPT })).toHaveCount(1);
    await expect(page.locator('[data-testid=mark][data-type="compaction"]')).toHaveCount(1);
    await expect(rows(page).first().locator("td:nth-child(7)")).toHaveText("842 ms");
    // After the compaction the log is delivered in full once more (no stub).
    await expect(rows(page).nth(1)).toHaveAttribute("data-outcome", "rescued");
    const again = await openRow(page, rows(page).nth(1));
    await expect(again.getByTestId("call-reason")).toHaveText(
      "Its handle was given again, not a stub: the agent compacted its context since this session last got this result.",
    );
    await expect((await openRow(page, rows(page).first())).getByTestId("call-reason")).toHaveCount(0);
    await expectAccessible(page, "hook session");
    await shoot(page, "session-hooks");
  });

  test("a Claude Code tool failure is a failed call, and hook calls show the hook request and Spillway's answer", async ({
    page,
    state,
  }) => {
    await page.goto(`${state.main.url}/#/sessions/${state.ids.hook}`);
    const failed = rows(page).nth(2);
    await expect(failed).toHaveAttribute("data-outcome", "error");
    await expect(failed.locator("td:nth-child(7)")).toHaveText("1.20 s");
    const detail = await openRow(page, failed);
    await expect(detail.getByTestId("call-error")).toContainText("The tool failed in the agent");
    await expect(detail.getByTestId("call-error")).toContainText("make: *** [deploy] Error 2");
    await expect(detail.getByRole("heading", { name: "Hook request and answer" })).toBeVisible();
    await expect(detail.getByTestId("rpc-text")).toContainText('"hook_event_name": "PostToolUseFailure"');
    await detail.scrollIntoViewIfNeeded();
    await shoot(page, "call-hook-failure");
    await detail.getByRole("tab", { name: "Spillway answered" }).click();
    await expect(detail.getByTestId("rpc-text")).toHaveText("{}");
    const rescued = await openRow(page, rows(page).first());
    await expect(rescued.getByTestId("rpc-text")).toContainText('"hook_event_name": "PostToolUse"');
    await rescued.getByRole("tab", { name: "Spillway answered" }).click();
    await expect(rescued.getByTestId("rpc-text")).toContainText('"updatedToolOutput"');
    await expectAccessible(page, "hook failure");
  });
});
