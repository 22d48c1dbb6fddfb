/**
 * Browser e2e of the web inspector (`npx playwright test`): Debian's chromium, headless, against
 * real `spillway serve` processes started by the global setup. The desktop app's own run is
 * `npx playwright test -c tests/electron`.
 */
import { defineConfig } from "@playwright/test";
import { STORAGE_FILE } from "./tests/e2e/support/state";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  globalSetup: "./tests/e2e/globalSetup.ts",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One browser at a time: the specs share two stores, and some change them (pin, purge).
  workers: 1,
  fullyParallel: false,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    storageState: STORAGE_FILE,
    viewport: { width: 1440, height: 900 },
    colorScheme: "light",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    trace: "retain-on-failure",
  },
});
