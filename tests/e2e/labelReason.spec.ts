/**
 * A credential label says where it came from: a result labelled only for its call's arguments
 * (a password passed to the tool) says so, and that nothing in it is masked; a result holding a
 * secret says its content did it. A serve of its own, so the shared stores keep their figures.
 */
import type { Page } from "@playwright/test";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { writeConfig } from "../mcp/helpers/setup";
import { expect, expectAccessible, ownServe, test, type OwnServe } from "./fixtures";
import { newLoginUrl, type Served } from "./support/serve";
import { SECRET_FILE } from "./support/traffic";

const SESSION = "label-reasons";
const ROWS = Array.from({ length: 600 }, (_, i) => `order ${i}: shipped to warehouse ${i % 17}, ${(i * 37) % 1000} units`).join("\n");

let own: OwnServe;
let served: Served;
let page: Page;
let problems: string[];
let byArgs: string;
let byContent: string;

async function seed(home: string): Promise<void> {
  writeConfig(home, {});
  const engine = createEngine({ home, logger: memoryLogger() });
  engine.touchSession(SESSION, "claude-code");
  byArgs = engine.transformToolResult({
    sessionId: SESSION,
    tool: "query_orders",
    args: { dsn: "postgres://db.internal/orders", password: "hunter2-correct-horse-battery" },
    text: ROWS,
  }).blobId!;
  byContent = engine.transformToolResult({ sessionId: SESSION, tool: "read_env", args: { path: "deploy.env" }, text: SECRET_FILE }).blobId!;
  await engine.idle();
  await engine.close();
}

test.beforeAll(async ({ browser }) => {
  own = await ownServe(browser, "spillway-label-", seed);
  ({ served, page, problems } = own);
  await page.goto(await newLoginUrl(served));
});
test.afterAll(async () => {
  await own?.close();
});

test("a result labelled credential for its call's arguments says so, and that nothing in it is masked", async () => {
  await page.goto(`${served.url}/#/blobs/${byArgs}`);
  const note = page.getByTestId("mask-note");
  await expect(note).toContainText("Labelled credential from the call's arguments (arguments hold");
  await expect(note).toContainText("No secret was found in the result itself, so nothing in it is masked.");
  await expect(note).not.toContainText("result's content");
  await expect(page.locator(".monaco-editor .view-lines")).toContainText("order 0: shipped to warehouse 0");
  await expectAccessible(page, "blob labelled by its arguments");

  await page.goto(`${served.url}/#/blobs/${byContent}`);
  await expect(note).toContainText("Labelled credential from the result's content (content holds");
  await expect(note).not.toContainText("nothing in it is masked");
  await expect(note).not.toContainText("arguments");
  expect(problems).toEqual([]);
});
