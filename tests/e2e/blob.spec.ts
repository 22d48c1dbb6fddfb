/** The blob viewer: grep hits jump to their line, and a 50 MB blob opens fast and scrolls. */
import type { Response } from "@playwright/test";
import { expect, shoot, test } from "./fixtures";
import { BIG_LAST_LINE_TEXT, BIG_LINES } from "./support/bigBlob";
import { NEEDLE, NEEDLE_LINE } from "./support/traffic";

test("grep in the blob view highlights a hit and jumps to its line", async ({ page, state }) => {
  await page.goto(`${state.main.url}/#/blobs/${state.ids.bigLog}`);
  const viewer = page.locator(".monaco-host");
  await expect(page.getByTestId("window-span")).toContainText("lines 0–1,999 of 40,000");
  await page.getByRole("tab", { name: "Fetch" }).click();
  await page.getByLabel("Pattern").fill("disk quota");
  await page.getByRole("button", { name: "Run grep" }).click();
  const hit = page.getByTestId("fetch-hits").locator(`button[data-line="${NEEDLE_LINE}"]`);
  await expect(hit).toContainText("disk quota");
  await expect(hit.locator("mark")).toHaveText("disk quota");
  await expect(page.getByTestId("fetch-summary")).toContainText("1 place");
  await hit.click();
  // The target is outside the first window: the viewer loads the window around it and reveals it.
  await expect(viewer).toHaveAttribute("data-revealed-line", String(NEEDLE_LINE));
  await expect(page.getByTestId("window-span")).toContainText(`lines ${(NEEDLE_LINE - 100).toLocaleString("en-US")}–`);
  await expect(page.locator(".monaco-editor .view-lines")).toContainText(NEEDLE);
  await expect(page.locator(".monaco-editor .line-numbers", { hasText: String(NEEDLE_LINE) })).toBeVisible();
  const mark = page.locator(".monaco-editor .hit-inline").first();
  await expect(mark).toBeVisible();
  await expect(page.locator(".monaco-editor .view-line", { has: page.locator(".hit-inline") })).toContainText("disk quota exceeded");
  await shoot(page, "blob-grep");
});

test("a 50 MB blob opens in under 2 s, never whole, and scrolls", async ({ page, state }) => {
  expect(state.big.chars).toBeGreaterThanOrEqual(50 * 1024 * 1024);
  await page.goto(`${state.main.url}/#/blobs?tool=fetch_access_log`);
  const link = page.getByRole("link", { name: state.ids.big });
  await expect(link).toBeVisible();
  let contentBytes = 0;
  // Each body is read while the page is open and awaited before the count is used: a read left
  // pending when the test ends fails in whichever test runs next.
  const reads: Promise<void>[] = [];
  const onResponse = (r: Response) => {
    if (r.url().endsWith("/api/blobs.content")) reads.push(r.body().then((b) => void (contentBytes += b.length)));
  };
  page.on("response", onResponse);
  const fetched = async () => {
    await Promise.all(reads);
    return contentBytes;
  };
  const t0 = Date.now();
  await link.click();
  await expect(page.locator(".monaco-editor .view-lines")).toContainText("request 0 GET /v1/items/0 200");
  const openMs = Date.now() - t0;
  console.log(`50 MB blob: first lines on screen ${openMs} ms after the click`);
  // What the page fetched, not how long it took: the first window is read from the file's head.
  expect(await fetched()).toBeLessThan(2_000_000);
  await expect(page.getByTestId("window-span")).toContainText(`of ${BIG_LINES.toLocaleString("en-US")}`);

  // Scrolling past the window's end slides the window on.
  const editor = page.locator(".monaco-editor .view-lines");
  await editor.click();
  await page.keyboard.press("Control+End");
  await expect(page.getByTestId("window-span")).not.toContainText("lines 0–");
  // Jumping to the end loads the last window.
  const t1 = Date.now();
  await page.getByLabel("Go to line").fill(String(BIG_LINES - 1));
  await page.getByLabel("Go to line").press("Enter");
  await expect(editor).toContainText(BIG_LAST_LINE_TEXT);
  console.log(`50 MB blob: jump to the last line ${Date.now() - t1} ms`);
  page.off("response", onResponse);
  expect(await fetched()).toBeLessThan(6_000_000);
  await shoot(page, "blob-50mb");
});
