/**
 * The Import and Replay views in Chromium: the histories the real agent CLIs wrote imported
 * through the Import view, the Overview's would-have-saved beside live savings, and the replay
 * lab's two policies side by side, per request and per call, with an export.
 */
import { readFileSync } from "node:fs";
import { FIXTURE_PATHS } from "../fixtures/history/fixtures";
import { api } from "./support/serve";
import { expect, expectAccessible, shoot, test } from "./fixtures";

const AGENTS = ["claude-code", "codex", "gemini-cli", "opencode"] as const;

test.describe.serial("import and replay", () => {
  test("the Import view imports each agent's history with progress and lists the imported sessions", async ({ page, state }) => {
    await page.goto(`${state.history.url}/#/import`);
    await expect(page.getByTestId("imported-sessions")).toContainText("Nothing imported yet");
    for (const agent of AGENTS) {
      const panel = page.getByTestId(`agent-${agent}`);
      await panel.getByRole("textbox").fill(FIXTURE_PATHS[agent]);
      await panel.getByRole("button", { name: /^Import / }).click();
      await expect(page.getByTestId("import-job")).toContainText(`Import of ${agent}: done`);
      await expect(panel).toContainText("1 imported");
    }
    await expect(page.getByTestId("import-figures")).toContainText("1 sessions");
    const rows = page.getByTestId("imported-table").locator("tbody tr");
    await expect(rows).toHaveCount(4);
    await expect(page.getByTestId("imported-table")).toContainText("Work through the task.");
    await expectAccessible(page, "import");
    await shoot(page, "import");
    // An imported session's timeline says where it came from: the Bash call's whole output beside the agent's 2 KB preview.
    await page.getByTestId("imported-table").getByRole("link", { name: "Work through the task." }).click();
    await expect(page.getByTestId("imported-note")).toContainText("Imported from claude-code's own history (read-only)");
    const bash = page.locator("[data-testid=call-row]", { hasText: "Bash" }).first();
    await bash.getByRole("button").first().click();
    const opened = page.locator(`[id="call-${await bash.getAttribute("data-call-id")}"]`);
    await expect(opened).toContainText("Model was given (cut by the agent)");
    await expect(opened.getByTestId("given")).toContainText("<persisted-output>");
  });

  test("the Overview shows what Spillway would have saved on the imported history beside the live savings", async ({ page, state }) => {
    const summary = await api<{ wouldSave: { saved: number } }>(state.history, "history.summary");
    await page.goto(`${state.history.url}/#/overview`);
    await expect(page.getByTestId("card-would-save")).toContainText(summary.wouldSave.saved.toLocaleString("en-US"));
    await expect(page.getByTestId("card-net")).toContainText("0");
  });

  test("the replay lab: one session under two policies, per request and per call, and an export", async ({ page, state }) => {
    await page.goto(`${state.history.url}/#/replay`);
    const scope = page.getByTestId("replay-scope");
    const option = scope.locator("option", { hasText: "codex:" });
    await scope.selectOption({ label: (await option.textContent())! });
    await page.getByTestId("replay-run").click();
    await expect(page.getByTestId("replay-as-happened")).toContainText(/\d/);
    const report = await api<{ totals: { asHappened: number; policies: { promptTokens: number }[] } }>(state.history, "replay.run", {
      scope: { agent: "codex" },
      policies: [{ name: "current config" }, { name: "threshold 4k", rescue: { thresholdChars: 4_000 }, excerpt: { maxChars: 2_000 } }],
    });
    await expect(page.getByTestId("replay-as-happened")).toContainText(report.totals.asHappened.toLocaleString("en-US"));
    await expect(page.getByTestId("replay-policy-1")).toContainText(report.totals.policies[1]!.promptTokens.toLocaleString("en-US"));
    await expect(page.getByTestId("replay-request-table").locator("tbody tr")).toHaveCount(7);
    await expect(page.getByTestId("replay-tools")).toContainText("mcp__fx__big_log");
    await shoot(page, "replay");
    const calls = page.getByTestId("replay-calls");
    await expect(calls).toContainText("near-dup stub");
    await calls.locator("tbody tr", { hasText: "handle" }).first().getByRole("button").click();
    await expect(calls.locator("pre").first()).toContainText("PREVIEW, NOT the full output");
    await expectAccessible(page, "replay");
    await calls.scrollIntoViewIfNeeded();
    await shoot(page, "replay-calls");
    const download = page.waitForEvent("download");
    await page.getByRole("group", { name: "Export" }).getByRole("button", { name: "CSV" }).click();
    const file = await (await download).path();
    expect(readFileSync(file, "utf8").split("\n")[0]).toContain("tokens_as_happened");
  });

  test("a policy that is not JSON is refused in the page, and all history replays", async ({ page, state }) => {
    await page.goto(`${state.history.url}/#/replay`);
    await page.getByRole("textbox", { name: "Policy A (JSON)" }).fill("{ rescue: ");
    await page.getByTestId("replay-run").click();
    await expect(page.getByRole("alert")).toContainText("Policy A: not JSON");
    await page.getByRole("textbox", { name: "Policy A (JSON)" }).fill('{"name": "current config"}');
    await page.getByTestId("replay-scope").selectOption({ label: "All imported history" });
    await page.getByTestId("replay-run").click();
    await expect(page.getByTestId("replay-as-happened")).toContainText("4 sessions");
  });
});
