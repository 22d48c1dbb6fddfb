/** The upstream tool catalog with its schemas, and a tool run by hand through the proxy (recorded as the inspector's session). */
import { expect, expectAccessible, shoot, test } from "./fixtures";

test("the tool catalog shows each upstream's tools and schemas, and a tool run by hand is rescued and recorded", async ({
  page,
  state,
}) => {
  await page.goto(`${state.main.url}/#/tools`);
  const list = page.getByTestId("tool-list");
  for (const server of ["files", "memory", "fx"]) await expect(list).toContainText(server);
  await list.getByRole("link", { name: "structured", exact: true }).click();
  await expect(page).toHaveURL(/#\/tools\/structured$/);
  await expect(page.getByTestId("input-schema")).toContainText('"count"');
  await expect(page.getByTestId("output-schema")).toContainText('"items"');

  await list.getByRole("link", { name: "digest", exact: true }).click();
  await expect(page.getByTestId("tool-description")).toHaveText("Reports the length and sha256 of its input.");
  await page.getByLabel(/^text \*/).fill("hello");
  await page.getByRole("button", { name: "Run digest" }).click();
  await expect(page.getByTestId("tool-result-text")).toContainText(
    "length=5 sha256=2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
  );
  await expectAccessible(page, "tools");
  await shoot(page, "tools");

  await list.getByRole("link", { name: "big_log", exact: true }).click();
  await page.getByLabel(/^lines \*/).fill("2500");
  await page.getByLabel(/^seed/).fill("byhand");
  await page.getByRole("button", { name: "Run big_log" }).click();
  await expect(page.getByTestId("tool-result-text")).toContainText("[spillway: output of big_log stored as");
  await page.getByRole("link", { name: "Open the recorded call" }).click();
  await expect(page).toHaveURL(/#\/sessions\/inspector-.+\?call=\d+/);
  const opened = page.getByTestId("call-detail");
  await expect(opened.getByTestId("given")).toContainText("This is a PREVIEW, NOT the full output");
  await expect(opened.getByTestId("rpc-text")).toContainText('"seed": "byhand"');
  await expect(page.getByRole("heading", { level: 1 })).toContainText("spillway-inspector");
});
