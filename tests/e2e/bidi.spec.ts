/**
 * Names with a right-to-left override (U+202E) in them, as an agent or an upstream can send them:
 * a session id, a client name, a tool name, an imported session's title. Chromium must show the
 * control as `[U+202E]`, never apply it (which would draw `invoice` + U+202E + `txt.exe` as "invoiceexe.txt").
 * A store of its own, served by its own `spillway serve`, so the other specs' figures stay as they are.
 */
import type { Locator, Page } from "@playwright/test";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { writeConfig } from "../mcp/helpers/setup";
import { expect, ownServe, test, type OwnServe } from "./fixtures";
import { newLoginUrl, type Served } from "./support/serve";

const RLO = "\u202E";
const LIVE = `live${RLO}gnp.exe`;
const CLIENT = `agent${RLO}txt.exe`;
const TOOL = `cat${RLO}gol.exe`;
const TITLE = `invoice${RLO}txt.exe`;
const IMPORTED_TOOL = `read${RLO}fdp.exe`;
const shown = (s: string) => s.replaceAll(RLO, "[U+202E]");

/** A live session (its id, client and tool carry the override) and an imported codex session. */
async function seed(home: string): Promise<void> {
  writeConfig(home, {});
  const engine = createEngine({ home, logger: memoryLogger() });
  const now = Date.now();
  engine.touchSession(LIVE, CLIENT);
  engine.transformToolResult({ sessionId: LIVE, tool: TOOL, text: "hello from the tool\n" });
  const result = Array.from({ length: 1_000 }, (_, i) => `line ${i} of the invoice listing`).join("\n");
  engine.importSession({
    agent: "codex",
    sourceId: `rollout${RLO}1`,
    source: join(home, "rollout.jsonl"),
    project: null,
    model: null,
    title: TITLE,
    startedAt: now - 60_000,
    items: [
      { type: "text", dir: "input", text: "Read the invoice.", ts: now - 60_000 },
      { type: "call", callId: "c1", tool: IMPORTED_TOOL, server: null, args: { path: "invoice" }, ts: now - 59_000 },
      {
        type: "result",
        callId: "c1",
        given: `found ${TITLE}\n${result}`,
        result: `found ${TITLE}\n${result}`,
        isError: false,
        hostCut: null,
        persistedPath: null,
        persistedMissing: false,
        ts: now - 58_000,
      },
      { type: "text", dir: "output", text: "Done.", ts: now - 57_000 },
    ],
  });
  await engine.idle();
  await engine.close();
}

/** The element's text: the override never in it (so nothing is drawn reversed), its code point instead. */
async function expectShownAsCodePoint(el: Locator, raw: string): Promise<void> {
  await expect(el).toContainText(shown(raw));
  expect(await el.textContent()).not.toContain(RLO);
}

let own: OwnServe;
let served: Served;
let page: Page;
let problems: string[];

test.beforeAll(async ({ browser }) => {
  own = await ownServe(browser, "spillway-bidi-", seed);
  ({ served, page, problems } = own);
  await page.goto(await newLoginUrl(served));
});
test.afterAll(async () => {
  await own?.close();
});

test("session ids, client names, tool names and imported titles show U+202E as a code point, in the lists and the replay lab", async () => {
  await page.goto(`${served.url}/#/sessions`);
  const table = page.getByTestId("sessions-table");
  const live = table.locator("tbody tr[data-id]", { hasText: shown(CLIENT) });
  await expectShownAsCodePoint(live, CLIENT);
  // The id is cut to 14 characters after the control became its code point.
  await expectShownAsCodePoint(live.getByRole("link"), LIVE.slice(0, 6));
  expect(await table.textContent()).not.toContain(RLO);

  // The live session's call table and its tool filter.
  await live.getByRole("link").click();
  await expectShownAsCodePoint(page.getByTestId("call-table"), TOOL);
  await expectShownAsCodePoint(page.getByLabel("Tool", { exact: true }), TOOL);

  // The replay lab: the scope's choices, then the per-tool and per-call tables of that session.
  await page.goto(`${served.url}/#/replay`);
  const scope = page.getByTestId("replay-scope");
  await expectShownAsCodePoint(scope, TITLE);
  await scope.selectOption({ label: `codex: ${shown(TITLE)}` });
  await page.getByTestId("replay-run").click();
  await expectShownAsCodePoint(page.getByTestId("replay-tools"), IMPORTED_TOOL);
  const calls = page.getByTestId("replay-calls");
  await expectShownAsCodePoint(calls, IMPORTED_TOOL);
  await calls.getByRole("button", { name: shown(IMPORTED_TOOL) }).click();
  await expectShownAsCodePoint(calls.locator("pre").first(), TITLE);
  await expectShownAsCodePoint(page.locator("main"), TITLE);
  expect(problems).toEqual([]);
});
