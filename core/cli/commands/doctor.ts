/** `spillway doctor`: one line per check (home, config, index, blobs, recovery, key, sweep, token, each upstream); exit 1 if any fails. */
import { existsSync } from "node:fs";
import { createEngine } from "../../engine/engine";
import { describeError } from "../../errors";
import { stderrLogger } from "../../runtime";
import type { Command } from "../command";
import {
  checkBlobs,
  checkHome,
  checkIndex,
  checkKey,
  checkRecoverable,
  checkSweepDryRun,
  checkToken,
  checkUpstream,
  type CheckResult,
} from "../doctor/checks";
import { resolveConfig } from "../../home/home";
import { resolveHome } from "../../home/paths";

const UPSTREAM_TIMEOUT_MS = 15_000;

export const doctorCommand: Command = {
  usage: "[--quick]",
  summary:
    "Check the home folder, the store (every blob against its id; --quick skips that), the key, the token and every upstream server.",
  options: { quick: { type: "boolean" } },
  async run(ctx) {
    const home = resolveHome({ home: ctx.values.home as string | undefined });
    const results: CheckResult[] = [];
    const print = (r: CheckResult) => {
      results.push(r);
      if (!ctx.values.json) ctx.io.out(`${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(8)}  ${r.detail}`);
    };
    print(checkHome(home));
    let config;
    try {
      const resolved = resolveConfig(home, { config: ctx.values.config as string | undefined });
      config = resolved.config;
      const n = Object.keys(config.mcpServers).length;
      print({
        ok: true,
        name: "config",
        detail: `${existsSync(resolved.path) ? resolved.path : "no config file: defaults"} (${n} upstream server${n === 1 ? "" : "s"})`,
      });
    } catch (err) {
      print({ ok: false, name: "config", detail: describeError(err) });
    }
    if (config && existsSync(home)) {
      const quiet = stderrLogger("error");
      try {
        const engine = createEngine({ home, config, logger: quiet });
        try {
          print(checkIndex(engine));
          const verify = ctx.values.quick !== true;
          let health;
          try {
            health = engine.reader.health(verify);
          } catch (err) {
            print({ ok: false, name: "blobs", detail: `cannot scan the store: ${describeError(err)}` });
          }
          if (health) {
            print(checkBlobs(health, verify));
            print(checkRecoverable(health));
            print(checkKey(home, health));
            print(checkSweepDryRun(health));
          }
        } finally {
          await engine.close();
        }
      } catch (err) {
        print({ ok: false, name: "index", detail: describeError(err) });
      }
    }
    print(checkToken(home));
    if (config) {
      const checks = Object.entries(config.mcpServers).map(([name, cfg]) =>
        checkUpstream(name, cfg, stderrLogger("error"), UPSTREAM_TIMEOUT_MS),
      );
      for (const r of await Promise.all(checks)) print(r);
    }
    if (ctx.values.json) ctx.io.out(JSON.stringify(results, null, 2));
    return results.every((r) => r.ok) ? 0 : 1;
  },
};
