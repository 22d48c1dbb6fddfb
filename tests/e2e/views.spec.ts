/** Every view loads with real data from the traffic, passes axe, and is photographed in both themes. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, expectAccessible, shoot, test } from "./fixtures";

test.describe("views with real data", () => {
  test("overview", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/overview`);
    await page.getByRole("button", { name: "tokens", exact: true }).click();
    await page.getByRole("button", { name: "48 h" }).click();
    await expect(page.getByTestId("card-calls")).toContainText(/\d/);
    await expect(page.getByTestId("savings-by-hour").locator("[data-key]")).toHaveCount(48);
    await expect(page.getByTestId("savings-by-tool").locator("li")).not.toHaveCount(0);
    await expect(page.getByTestId("savings-by-tool")).toContainText("read_text_file");
    // The traffic holds one result over 256 K chars, whose token counts are estimated from a sample.
    await expect(page.getByTestId("card-net")).toContainText(/≈[\d,]+ returned .* · 1 big result estimated from a sample of the result$/);
    await expectAccessible(page, "overview");
    await shoot(page, "overview");
  });

  test("sessions and a session's calls", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/sessions`);
    const table = page.getByTestId("sessions-table");
    for (const id of [state.ids.alpha, state.ids.beta, state.ids.gamma, state.ids.hook])
      await expect(table.locator(`tr[data-id="${id}"]`)).toBeVisible();
    await expect(table.locator(`tr[data-id="${state.ids.alpha}"] td`).first()).toHaveText("e2e-agent-alpha 1.0.0");
    await expectAccessible(page, "sessions");
    await shoot(page, "sessions");
    await table.locator(`tr[data-id="${state.ids.alpha}"]`).getByRole("link").click();
    const rescued = page.locator('[data-testid=call-row][data-outcome="rescued"]').first();
    await expect(rescued).toBeVisible();
    await rescued.getByRole("button").first().click();
    await expect(page.getByTestId("call-detail").getByTestId("given")).toContainText(state.ids.batchLog);
    await expectAccessible(page, "session calls");
    await shoot(page, "session-timeline");
  });

  test("blobs table", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/blobs`);
    await expect(page.getByTestId("blob-count")).toContainText("stored");
    await expect(page.locator(`[data-testid=blob-table] tr[data-id="${state.ids.orders}"]`)).toBeVisible();
    await expectAccessible(page, "blobs");
    await shoot(page, "blobs");
  });

  test("blob: content, handle, outline, lineage", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/blobs/${state.ids.orders}`);
    await expect(page.locator(".monaco-editor .view-lines")).toContainText("{");
    await expect(page.getByTestId("handle-text")).toContainText(state.ids.orders);
    await expectAccessible(page, "blob");
    await shoot(page, "blob-handle");
    await page.getByRole("tab", { name: "Outline" }).click();
    await expect(page.getByTestId("outline-hits").or(page.locator("pre.text")).first()).toBeVisible();
    await page.getByRole("tab", { name: "Lineage" }).click();
    await expect(page.getByTestId("lineage-events")).toContainText("outline");
    await shoot(page, "blob-lineage");
  });

  test("a credential blob opens masked and reveals on request", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/blobs/${state.ids.secret}`);
    await expect(page.getByTestId("mask-note")).toContainText("masked");
    const lines = page.locator(".monaco-editor .view-lines");
    await page.getByLabel("Go to line").fill("261");
    await page.getByLabel("Go to line").press("Enter");
    await expect(lines).toContainText("[masked:github_token]");
    await expect(lines).not.toContainText("ghp_8fK2");
    await shoot(page, "blob-masked");
    // Export downloads the masked text as a plain-text file.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export" }).click()]);
    expect(download.suggestedFilename()).toBe(`read_text_file-${state.ids.secret}.txt`);
    const body = readFileSync((await download.path())!, "utf8");
    expect(body).toContain("GITHUB_TOKEN=[masked:github_token]");
    expect(body).not.toContain("ghp_8fK2");
    await page.getByRole("button", { name: "Reveal secrets" }).click();
    await expect(lines).toContainText("ghp_8fK2");
  });

  test("search across stored results", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/search?q=disk%20quota%20exceeded`);
    await expect(page.getByTestId("search-hits").locator("li").first()).toContainText(state.ids.bigLog);
    await expectAccessible(page, "search");
    await shoot(page, "search");
  });

  test("endpoint", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/endpoint`);
    await expect(page.getByTestId("endpoint-status")).toContainText(`${state.main.url}/mcp`);
    await expect(page.getByText("files", { exact: true })).toBeVisible();
    await expect(page.getByTestId("snippets")).toContainText("claude mcp add");
    await expectAccessible(page, "endpoint");
    await shoot(page, "endpoint");
  });

  test("settings", async ({ page, state }) => {
    await page.goto(`${state.main.url}/#/settings`);
    const threshold = page.getByLabel("rescue.thresholdChars");
    await expect(threshold).toHaveValue("12000");
    await expect(page.getByLabel("mcpServers")).toContainText("server-filesystem");
    await expectAccessible(page, "settings");
    await shoot(page, "settings");
    // Validated with the engine's schema as you type; saved to config.json, defaults left out.
    await threshold.fill("100");
    await expect(page.getByTestId("config-issues")).toContainText("rescue.thresholdChars");
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
    await threshold.fill("9000");
    await expect(page.getByTestId("config-issues")).toHaveCount(0);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toContainText("restart");
    const saved = JSON.parse(readFileSync(join(state.main.home, "config.json"), "utf8")) as {
      rescue: unknown;
      mcpServers: Record<string, unknown>;
    };
    expect(saved.rescue).toEqual({ thresholdChars: 9000 });
    expect(Object.keys(saved.mcpServers)).toEqual(["files", "memory", "fx"]);
  });
});
