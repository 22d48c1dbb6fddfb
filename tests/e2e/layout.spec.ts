/**
 * The views fixed for narrow screens and for auditing: lineage and tombstone lists readable at
 * 1024 px, the handle of the session the header names, the blobs table with every column on
 * screen and its filters in the URL, endpoint tables that do not cut ids or errors, a connect
 * snippet that names the config, and a global search grouped, filtered and marked.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, shoot, test } from "./fixtures";
import { api } from "./support/serve";

const NARROW = { width: 1024, height: 768 };

/** Every element of the list shows its whole text: nothing is cut by its box. */
async function expectUncut(list: Locator) {
  const cut = await list.evaluateAll((els) =>
    els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${el.textContent} (${el.scrollWidth} > ${el.clientWidth})`),
  );
  expect(cut).toEqual([]);
}

async function narrow(page: Page, run: () => Promise<void>) {
  await page.setViewportSize(NARROW);
  try {
    await run();
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
}

test.describe("views at 1024 px and the audit fixes", () => {
  test("a blob's lineage reads at 1024 px, and each read opens onto its answer", async ({ page, state }) => {
    await narrow(page, async () => {
      await page.goto(`${state.main.url}/#/blobs/${state.ids.batchLog}`);
      await page.getByRole("tab", { name: "Lineage" }).click();
      const events = page.getByTestId("lineage-events");
      await expect(events.locator("li").first()).toBeVisible();
      await expectUncut(events.locator(".ledger-row > span:first-child"));
      await expectUncut(page.getByTestId("lineage-calls").locator(".ledger-row > span:first-child"));
      const grep = events.locator("li").filter({ hasText: 'rescuer_fetch grep {"pattern":"ERROR|FAIL"}' });
      await grep.first().locator("summary").click();
      await expect(grep.first().getByTestId("lineage-answer")).toContainText("database connection failed");
      await expectAccessible(page, "lineage at 1024 px");
      await shoot(page, "blob-lineage-1024");
    });
  });

  test("a session's call table and the sessions list keep every column on screen at 1024 px", async ({ page, state }) => {
    await narrow(page, async () => {
      await page.goto(`${state.main.url}/#/sessions/${state.ids.gamma}`);
      await expect(page.getByTestId("call-row").first()).toBeVisible();
      for (const name of ["Started", "Tool", "Outcome", "Reads", "Duration"]) {
        const box = (await page.getByRole("columnheader", { name, exact: true }).boundingBox())!;
        expect(box.x + box.width, name).toBeLessThanOrEqual(NARROW.width);
      }
      // Narrow, the waterfall gives its room to the tool's name; the duration stays.
      await expect(page.getByRole("columnheader", { name: "Waterfall" })).toHaveCount(0);
      await expectUncut(page.getByTestId("call-row").locator("td:nth-child(1), td:nth-child(4), td:nth-child(7)"));
      await expectUncut(
        page
          .getByTestId("call-row")
          .locator("td:nth-child(2)")
          .filter({ hasText: /^(read_text_file|get_file_info|list_directory) / }),
      );
      await shoot(page, "session-calls-1024");
      await page.goto(`${state.main.url}/#/sessions`);
      const netTokens = (await page.getByRole("columnheader", { name: "Net tokens" }).boundingBox())!;
      expect(netTokens.x + netTokens.width).toBeLessThanOrEqual(NARROW.width);
    });
  });

  test("a tombstone's page lists its lineage readably, and its answers went with it", async ({ page, state }) => {
    await api(state.main, "blobs.purge", { ids: [state.ids.gammaLog] });
    await narrow(page, async () => {
      await page.goto(`${state.main.url}/#/blobs/${state.ids.gammaLog}`);
      await expect(page.getByText("This blob is a tombstone (purged")).toBeVisible();
      const events = page.getByTestId("lineage-events");
      await expect(events).toContainText("purge by the operator");
      await expectUncut(events.locator(".ledger-row > span:first-child"));
      const grep = events.locator("li").filter({ hasText: "rescuer_fetch grep" });
      await grep.locator("summary").click();
      await expect(grep).toContainText("The answer was not kept");
      await expectAccessible(page, "tombstone");
      await shoot(page, "blob-tombstone-1024");
    });
  });

  test("the Handle tab shows the handle of the session the header names, and each other session's", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/blobs/${state.ids.batchLog}`);
    const header = page.getByTestId("blob-meta").getByRole("link");
    await expect(header).toHaveAttribute("href", `#/sessions/${state.ids.alpha}`);
    await page.getByRole("tab", { name: "Handle" }).click();
    await expect(page.getByTestId("handle-session").getByRole("link")).toHaveAttribute("title", state.ids.alpha);
    const pick = page.getByLabel("Handle given to session");
    // Alpha, the long session and the Claude Code session each got a handle for this log.
    await expect(pick.locator("option")).toHaveCount(3);
    const other = await pick.locator("option", { hasText: state.ids.hook.slice(0, 10) }).getAttribute("value");
    await pick.selectOption(other!);
    await expect(page.getByTestId("handle-session").getByRole("link")).toHaveAttribute("title", state.ids.hook);
    await expect(page.getByTestId("handle-text")).toContainText(state.ids.batchLog);
  });

  test("the blobs table shows every column at 1024 px, tells handles from dedup copies, and keeps its filters in the URL", async ({
    page,
    state,
  }) => {
    await narrow(page, async () => {
      await page.goto(`${state.main.url}/#/blobs`);
      const table = page.getByTestId("blob-table");
      await expect(table.locator("tbody tr[data-id]").first()).toBeVisible();
      for (const name of ["Size", "Stored", "Expiry", "Fetches", "Given as"]) {
        const box = (await page.getByRole("columnheader", { name }).boundingBox())!;
        expect(box.x + box.width, name).toBeLessThanOrEqual(NARROW.width);
      }
      await expect(table.locator(`tr[data-id="${state.ids.orders}"]`)).toContainText("handle");
      // Each cell shows its whole value (badges, sizes, times), not a cut one.
      await expectUncut(table.locator("tbody tr[data-id] td:not([data-col=tool]):not([data-col=sessionId]):not([data-col=kind]) > *"));
      await expectUncut(table.locator("thead th:not([data-col=kind]) button"));
      await expectAccessible(page, "blobs at 1024 px");
      await shoot(page, "blobs-1024");
      await page.getByLabel("Given as").selectOption("dedup");
      await expect(page).toHaveURL(/role=dedup/);
      const rows = table.locator("tbody tr[data-id]");
      // The count is read once the filtered list is shown (same answer): read as soon as the URL
      // changed, it could still be the unfiltered one (CI once read "11 matching" there, then 1).
      await expect(rows.first()).toContainText("dedup");
      await expect(rows.filter({ hasNotText: "dedup" })).toHaveCount(0);
      const count = await page.getByTestId("blob-count").textContent();
      await rows.first().getByRole("link").click();
      await expect(page.getByTestId("blob-meta")).toBeVisible();
      await page.goBack();
      await expect(page.getByLabel("Given as")).toHaveValue("dedup");
      await expect(page.getByTestId("blob-count")).toHaveText(count!);
    });
  });

  test("endpoint tables show whole errors at 1024 px; the connect snippet names the config the server runs with", async ({
    page,
    state,
  }) => {
    await narrow(page, async () => {
      await page.goto(`${state.main.url}/#/endpoint`);
      const ups = page.getByTestId("upstreams-table");
      await expect(ups).toContainText("fx");
      await expect(ups.locator("tr.upstream-error")).toContainText("it exited or closed the connection");
      await expectUncut(ups.locator("td"));
      await expectAccessible(page, "endpoint at 1024 px");
      await shoot(page, "endpoint-1024");
    });
    await page.goto(`${state.many.url}/#/endpoint`);
    await expect(page.getByTestId("snippets")).toContainText(`"--config","${state.many.config}"`);
    await expect(page.getByTestId("snippets")).toContainText(`into ${state.many.config} under "mcpServers"`);
  });

  test("global search groups hits by blob or session, marks the words, and filters by label", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/search?q=${encodeURIComponent("FATAL disk quota GITHUB_TOKEN")}`);
    const groups = page.getByTestId("search-group");
    await expect(groups.first()).toBeVisible();
    const blobs = await groups.count();
    await expect(page.getByTestId("search-hits").locator("mark").first()).toBeVisible();
    await page.getByLabel("Group by").selectOption("session");
    await expect(page).toHaveURL(/group=session/);
    await expect(groups.first()).toContainText("session");
    expect(await groups.count()).toBeLessThanOrEqual(blobs);
    await expectAccessible(page, "search grouped");
    await shoot(page, "search-grouped");
    await page.getByLabel("Label").selectOption("credential");
    await expect(groups).toHaveCount(1);
    await expect(groups.first()).toContainText(state.ids.secret);
    await expect(groups.first().locator("mark").first()).toHaveText(/GITHUB_TOKEN/i);
  });
});
