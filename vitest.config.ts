import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globals: true,
    include: ["core/**/*.test.ts", "electron/**/*.test.ts", "renderer/**/*.test.{ts,tsx}", "tests/**/*.test.ts", "bin/**/*.test.ts"],
    exclude: ["**/node_modules/**", "tests/e2e/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
