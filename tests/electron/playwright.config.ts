/**
 * The desktop app's end-to-end run (Playwright's `_electron`): `npx playwright test -c tests/electron`.
 * It needs an Electron binary; where none is installed the spec is skipped with the reason (in
 * the test annotations), and this config says so on the console, since the list reporter does not.
 */
import { defineConfig } from "@playwright/test";
import { join } from "node:path";
import { findElectronBinary } from "../../build/electronBinary.mjs";

const binary = findElectronBinary(join(import.meta.dirname, "..", ".."));
if (!binary.path && !process.env.TEST_WORKER_INDEX)
  console.error(`electron e2e: SKIPPED: no Electron binary on this machine (${binary.reason})`);

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  timeout: 90_000,
  workers: 1,
  reporter: [["list"]],
  outputDir: "../../test-results/electron",
});
