/** 1,500 sessions: the list is virtualized, sorted and filtered on the server, and reaches its last row. */
import { expect, expectAccessible, shoot, test } from "./fixtures";
import { callsOf, clientOf, MANY_SESSIONS, sessionIdOf } from "./support/manySessions";

test("1,500 sessions scroll to the end, sort on the server and filter by client", async ({ page, state }) => {
  await page.goto(`${state.many.url}/#/sessions`);
  const count = page.getByTestId("session-count");
  await expect(count).toHaveText(`${MANY_SESSIONS.toLocaleString("en-US")} sessions`);
  const table = page.getByTestId("sessions-table");
  await expect(table.locator("tbody tr[data-id]").first()).toBeVisible();
  // Newest first; only the rows on screen are in the page.
  await expect(table.locator("tbody tr[data-id]").first()).toHaveAttribute("data-id", sessionIdOf(MANY_SESSIONS - 1));
  expect(await table.locator("tbody tr").count()).toBeLessThan(100);
  // The client and the time come before a shortened id.
  await expect(table.locator("tbody tr[data-id]").first().locator("td").first()).toHaveText(clientOf(MANY_SESSIONS - 1));
  await expectAccessible(page, "1,500 sessions");
  await shoot(page, "sessions-1500");

  await table.focus();
  await page.keyboard.press("End");
  await expect(table.locator(`tbody tr[aria-rowindex="${MANY_SESSIONS + 1}"]`)).toHaveAttribute("data-id", sessionIdOf(0));

  // Sorted by calls on the server: the sessions with the most calls come first, from any page.
  const calls = page.getByRole("columnheader", { name: "Calls" });
  while ((await calls.getAttribute("aria-sort")) !== "descending") await calls.getByRole("button").click();
  const most = Math.max(...Array.from({ length: MANY_SESSIONS }, (_, i) => callsOf(i)));
  await expect(table.locator("tbody tr[data-id]").first().locator("td:nth-child(5)")).toHaveText(String(most));

  await page.getByLabel("Filter sessions").fill("codex");
  const codex = Array.from({ length: MANY_SESSIONS }, (_, i) => clientOf(i)).filter((c) => c.includes("codex")).length;
  await expect(count).toHaveText(`${codex.toLocaleString("en-US")} matching`);
  await table.locator("tbody tr[data-id] a").first().click();
  await expect(page.getByTestId("call-table")).toBeVisible();
  await expect(page.getByTestId("session-calls")).toContainText(/\d/);
});
