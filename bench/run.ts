/**
 * `npm run bench`: the figures the issues name. Each rescue payload runs in its own process so
 * its peak RSS is its own. Targets are printed beside the figures; nothing here fails on timing.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);

function rescue(payload: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ["--import", "tsx", "--expose-gc", join(import.meta.dirname, "rescueBench.ts"), payload], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

const results: Record<string, unknown> = {};
if (want("rescue")) {
  console.log(
    "rescue, beside the floor (SHA-256 + write + fsync of the same bytes, same run) (targets: total p50 < 3 ms for the 194 k JSON; within 5x the floor for the 10 MB log and the 50 MB JSON; RSS < 3x payload)",
  );
  for (const p of ["json194k", "log59k", "log1m", "log10m", "json10m", "json50m"]) {
    const r = rescue(p);
    results[`rescue.${p}`] = r;
    console.log(`  ${JSON.stringify(r)}`);
  }
}
if (want("tokens")) {
  const { benchTokens } = await import("./tokensBench");
  console.log("background token count of one result, CPU ms (target: < 2,000 per result); `tokens exact` also prints the estimate's error");
  const r = await benchTokens(only.includes("exact"));
  results.tokens = r;
  for (const row of r) console.log(`  ${JSON.stringify(row)}`);
}
if (want("secrets")) {
  const { benchSecrets } = await import("./secretsBench");
  console.log(
    "secret and personal-data scans, CPU ms (were timing tests: 10 MB scan < 1,000 ms, masking 10 MB with 4,000 secrets < 3,000 ms)",
  );
  const r = benchSecrets();
  results.secrets = r;
  for (const row of r) console.log(`  ${JSON.stringify(row)}`);
}
if (want("fetch")) {
  const { benchFetch } = await import("./fetchBench");
  console.log("fetch (targets: grep >= 200 MB/s on 100 MB; search p50 < 20 ms on 10 MB; global search p50 < 100 ms over 1 GB)");
  const r = await benchFetch();
  results.fetch = r;
  console.log(`  ${JSON.stringify(r)}`);
}
if (want("fetch") || want("fetchmodes")) {
  const { benchFetchModes } = await import("./fetchModesBench");
  console.log(
    "fetch modes through engine.fetch, p50 ms beside the floor (targets: stat < 1 ms and range of 100 lines < 3 ms on 50 MB; a second outline < 2 ms; grep filling the answer < 5 ms on the 194 k JSON)",
  );
  const r = benchFetchModes();
  results.fetchModes = r;
  for (const row of r) console.log(`  ${JSON.stringify(row)}`);
}
if (want("mcp")) {
  const { benchMcp } = await import("./mcpBench");
  console.log("mcp proxy (target: added latency p50 < 1 ms on small calls)");
  const r = await benchMcp();
  results.mcp = r;
  console.log(`  ${JSON.stringify(r)}`);
}
if (want("figures")) {
  const { benchFigures } = await import("./figuresBench");
  console.log("store figures on 100 k calls, p50 ms (no issue names a target: they run in the process that answers the agents)");
  const r = benchFigures();
  results.figures = r;
  console.log(`  ${JSON.stringify(r)}`);
}
if (want("economy")) {
  const { benchEconomy } = await import("./economy/economyBench");
  console.log(
    "economy (target: -75 % prompt tokens vs no interception with a 12 k system prompt, every question answered, never worse than exact dedup alone)",
  );
  // Session names after "economy" run only those sessions: npm run bench -- economy ci-debugging
  results.economy = await benchEconomy(only.filter((n) => n !== "economy"));
}
if (want("startup")) {
  const { benchStartup } = await import("./startupBench");
  console.log(
    "startup of spillway mcp, ms from spawn (targets: initialize p50 < 150, tools/list with a cached catalog p50 < 250; idle RSS < 70 MB)",
  );
  const r = await benchStartup();
  results.startup = r;
  console.log(`  ${JSON.stringify(r)}`);
}
if (want("stdio")) {
  const { benchStdio } = await import("./stdioBench");
  console.log(
    "rescue end to end through spillway mcp from a stdio upstream (10 MB log, 50 MB JSON; before issue 11 anything over 10 MB was lost)",
  );
  const r = await benchStdio();
  results.stdio = r;
  for (const row of r) console.log(`  ${JSON.stringify(row)}`);
}
if (want("soak")) {
  const { benchAbandoned, benchSoak } = await import("./soakBench");
  console.log(
    "memory soak: spillway serve, 32 HTTP sessions, 6 rounds of 3,200 calls, 100 sessions abandoned per round (target: RSS growth < 15 % after round 2)",
  );
  const r = await benchSoak({ abandonPerRound: 100 });
  results.soak = r;
  console.log(`  ${JSON.stringify(r)}`);
  console.log("  heavier results (3,000-line logs, about 180 KB each):");
  const h = await benchSoak({ logLines: 3000 });
  results.soakHeavy = h;
  console.log(`  ${JSON.stringify(h)}`);
  console.log("  500 sessions closed without DELETE, then reaped after the idle timeout (fake clock):");
  const a = await benchAbandoned();
  results.abandoned = a;
  console.log(`  ${JSON.stringify(a)}`);
}
