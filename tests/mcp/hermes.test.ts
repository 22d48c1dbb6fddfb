/** Runs the Hermes shim's Python unittest (it starts its own `spillway serve`), so `npm test` covers it. */
import { spawnSync } from "node:child_process";
import { ROOT } from "./helpers/setup";

describe("Hermes plugin shim", () => {
  it("passes its unittest against a live spillway serve", () => {
    const r = spawnSync("python3", ["-m", "unittest", "discover", "-s", "integrations/hermes", "-p", "test_*.py", "-v"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, SPILLWAY_NODE: process.execPath, PYTHONDONTWRITEBYTECODE: "1" },
    });
    if (r.error) throw new Error(`python3 could not be run: ${r.error.message}`);
    expect(r.stderr).toMatch(/Ran \d+ tests/);
    expect(r.stderr, r.stderr).toMatch(/\nOK\s*$/);
    expect(r.status).toBe(0);
  });
});
