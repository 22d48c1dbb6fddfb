/**
 * A 2,000-call session: the call table loads 200 calls a page, and its filter (tool, outcome,
 * text, failures only) is answered by the store over all 2,000, not over the loaded page.
 */
import type { Page } from "@playwright/test";
import { expect, expectAccessible, shoot, test } from "./fixtures";
import { MANY_CALLS, RARE_TOOL, RESCUED_AT, TIMED_OUT } from "./support/manyCalls";

const rows = (page: Page) => page.getByTestId("call-row");
const tools = (page: Page) => rows(page).locator("td:nth-child(2)").allTextContents();
const matches = (page: Page) => page.getByTestId("call-matches");

test("a 2,000-call session filters over all its calls, not the page loaded", async ({ page, state }) => {
  await page.goto(`${state.calls.url}/#/sessions/${state.calls.session}`);
  await expect(page.getByTestId("session-calls")).toContainText("2,000");
  await expect(rows(page)).toHaveCount(200);
  await expect(page.getByRole("button", { name: "Load the next 200 calls" })).toBeVisible();

  // The rare tool: once on the first page, once on the tenth.
  const tool = page.getByLabel("Tool", { exact: true });
  await expect(tool.locator("option", { hasText: `${RARE_TOOL} (2)` })).toHaveCount(1);
  await tool.selectOption(RARE_TOOL);
  await expect(matches(page)).toHaveText(`2 of ${MANY_CALLS.toLocaleString("en-US")} calls match`);
  await expect(rows(page)).toHaveCount(2);
  expect(await tools(page)).toEqual([`${RARE_TOOL} ci`, `${RARE_TOOL} ci`]);
  await tool.selectOption("");

  // Text over the arguments and the errors of all the calls.
  const text = page.getByLabel("Filter calls by tool, argument or error");
  await text.fill("/srv/data/f1234");
  await expect(matches(page)).toHaveText("1 of 2,000 calls match");
  await expect(rows(page)).toHaveCount(1);
  await text.fill("TIMED OUT after 120 s");
  await expect(matches(page)).toHaveText(`${TIMED_OUT.length} of 2,000 calls match`);
  await expect(rows(page)).toHaveCount(TIMED_OUT.length);
  await expect(rows(page).last()).toHaveAttribute("data-outcome", "error");
  await text.fill("");

  // Outcome, and failures only: the timed-out calls and the one whose read was refused (call 1,990).
  await page.getByLabel("Outcome").selectOption("rescued");
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel("Outcome").selectOption("");
  await page.getByLabel("failures and refusals only").check();
  await expect(matches(page)).toHaveText(`${TIMED_OUT.length + 1} of 2,000 calls match`);
  await expect(rows(page)).toHaveCount(TIMED_OUT.length + 1);
  const refused = rows(page).filter({ hasText: "read_text_file" });
  await expect(refused).toHaveCount(1);
  await expect(refused.locator("td:nth-child(5)")).toContainText("+1✕");
  expect(RESCUED_AT).toBeGreaterThan(200); // past the first page
  await expectAccessible(page, "calls filtered on the server");
  await shoot(page, "calls-filtered-2000");

  await text.fill("no call has this");
  await expect(page.getByTestId("no-match")).toHaveText("No call of the 2,000 in this session matches.");
  await text.fill("");
  await page.getByLabel("failures and refusals only").uncheck();
  await expect(rows(page)).toHaveCount(200);
});
