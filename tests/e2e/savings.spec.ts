/** The overview's savings figures are the ledger's: read the index directly and compare, number by number. */
import Database from "better-sqlite3";
import { join } from "node:path";
import { savings, type SavingsGroup } from "../../core/store/read/savings";
import { expect, test } from "./fixtures";

function ledger(home: string, group: SavingsGroup) {
  const db = new Database(join(home, "index.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return savings(db, group);
  } finally {
    db.close();
  }
}

test("the savings chart's numbers equal the ledger's", async ({ page, state }) => {
  await page.goto(`${state.main.url}/#/overview`);
  const read = async (testId: string) =>
    Object.fromEntries(
      await page
        .getByTestId(testId)
        .locator("[data-key]")
        .evaluateAll((els) => els.map((e) => [e.getAttribute("data-key"), Number(e.getAttribute("data-net"))])),
    ) as Record<string, number>;
  const expectGroup = async (testId: string, group: SavingsGroup, unit: "netTokens" | "netChars", top?: number) => {
    const rows = ledger(state.main.home, group).slice(0, top);
    await expect.poll(() => read(testId)).toEqual(Object.fromEntries(rows.map((r) => [r.key, r[unit]])));
  };
  const total = ledger(state.main.home, "total")[0]!;
  expect(total.pendingTokenCounts).toBe(0);
  await expect(page.getByTestId("card-net")).toContainText(total.netTokens.toLocaleString("en-US"));
  await expectGroup("savings-by-tool", "tool", "netTokens");
  await expectGroup("savings-by-server", "server", "netTokens");
  await expectGroup("savings-by-session", "session", "netTokens", 12);
  // The printed number beside each bar is the same figure.
  for (const r of ledger(state.main.home, "tool")) {
    await expect(page.getByTestId("savings-by-tool").locator(`li[data-key="${r.key}"]`)).toContainText(r.netTokens.toLocaleString("en-US"));
  }
  // Hours add up to the total; days are the ledger's days.
  const hours = await read("savings-by-hour");
  expect(Object.values(hours).reduce((a, b) => a + b, 0)).toBe(total.netTokens);
  await page.getByRole("button", { name: "days" }).click();
  await expectGroup("savings-by-day", "day", "netTokens");

  await page.getByRole("button", { name: "chars", exact: true }).click();
  await expect(page.getByTestId("card-net")).toContainText(total.netChars.toLocaleString("en-US"));
  await expectGroup("savings-by-tool", "tool", "netChars");
  await expectGroup("savings-by-day", "day", "netChars");
});
