/** 100,000 blob rows render, scroll and filter (sorted and filtered by the server, virtualized in the page). */
import { expect, expectAccessible, shoot, test } from "./fixtures";
import { BULK_ROWS, BULK_TOOLS, toolOf } from "./support/bulkBlobs";

test("100 k blob rows render, scroll to the end and filter", async ({ page, state }) => {
  const t0 = Date.now();
  await page.goto(`${state.bulk.url}/#/blobs`);
  const count = page.getByTestId("blob-count");
  await expect(count).toHaveText(`${BULK_ROWS.toLocaleString("en-US")} stored`);
  const table = page.getByTestId("blob-table");
  await expect(table.locator("tbody tr[data-id]").first()).toBeVisible();
  console.log(`100 k rows: first rows on screen after ${Date.now() - t0} ms`);
  // Only the rows on screen exist in the DOM.
  expect(await table.locator("tbody tr").count()).toBeLessThan(100);

  const t1 = Date.now();
  await table.focus();
  await page.keyboard.press("End");
  const last = table.locator(`tbody tr[aria-rowindex="${BULK_ROWS + 1}"]`);
  await expect(last).toHaveAttribute("data-id", /^[0-9a-f]{12}$/);
  console.log(`100 k rows: scrolled to the last row in ${Date.now() - t1} ms`);
  await expectAccessible(page, "blobs, 100 k rows");
  await shoot(page, "blobs-100k");

  const t2 = Date.now();
  const tool = toolOf(7);
  await page.getByLabel("Tool").selectOption(tool);
  await expect(count).toHaveText(`${(BULK_ROWS / BULK_TOOLS).toLocaleString("en-US")} matching`);
  console.log(`100 k rows: filtered by tool in ${Date.now() - t2} ms`);
  const tools = await table.locator("tbody tr[data-id] td[data-col=tool]").allTextContents();
  expect(tools.length).toBeGreaterThan(10);
  expect(new Set(tools)).toEqual(new Set([tool]));

  // Sorted by size on the server: the smallest blob of that tool comes first.
  const sizeHeader = page.getByRole("columnheader", { name: "Size" });
  while ((await sizeHeader.getAttribute("aria-sort")) !== "ascending") await sizeHeader.getByRole("button").click();
  const sizes: number[] = [];
  for (let i = 0; i < BULK_ROWS; i++) if (toolOf(i) === tool) sizes.push(12_001 + ((i * 7919) % 2_000_000));
  const smallest = Math.min(...sizes);
  await expect(table.locator("tbody tr[data-id]").first().locator("td[data-col=chars] span")).toHaveAttribute(
    "title",
    new RegExp(`^${smallest.toLocaleString("en-US")} chars`),
  );

  await page.getByLabel("State").selectOption("tombstoned");
  const tombstones = Array.from({ length: BULK_ROWS }, (_, i) => i).filter((i) => i % 97 === 0 && toolOf(i) === tool).length;
  await expect(count).toHaveText(`${tombstones.toLocaleString("en-US")} matching`);
});

test("a store without traffic tells a new user how to connect an agent", async ({ page, state }) => {
  await page.goto(`${state.bulk.url}/#/sessions`);
  const empty = page.getByTestId("empty-state");
  await expect(empty).toContainText("No sessions yet");
  await expect(empty).toContainText("spillway connect claude-code");
  await expect(empty).toContainText(`${state.bulk.url}/mcp`);
  await expectAccessible(page, "empty sessions");
  await shoot(page, "empty-sessions");
  // Keyboard: 1 goes to the overview, which says the same; "/" finds the filter on the blobs page.
  await page.locator("body").press("1");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByTestId("empty-state")).toContainText("No tool calls yet");
  await page.locator("body").press("3");
  const filter = page.getByPlaceholder("id, tool, shape…");
  // "/" once the blobs page shows (pressed while it still mounts, it finds no filter yet).
  await expect(filter).toBeVisible();
  await expect(filter).not.toBeFocused();
  await page.locator("body").press("/");
  await expect(filter).toBeFocused();
});
