import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { watchConfigFile } from "./configWatch";

const BIN = join(import.meta.dirname, "../../bin/spillway.js");

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
}

describe("a config file edited while spillway serve runs", () => {
  it("is named with what it takes to apply it, or why it would not load, or that it was removed", async () => {
    const home = tempHome("spillway-config-watch-");
    const path = join(home.path, "config.json");
    writeFileSync(path, "{}\n");
    const lines: string[] = [];
    const stop = watchConfigFile(path, (l) => lines.push(l), 20);
    // fs.watchFile takes the file's first state in the background: a change before that is its baseline.
    await new Promise((r) => setTimeout(r, 200));
    try {
      writeFileSync(path, JSON.stringify({ mcpServers: { files: { command: "npx", args: ["-y", "server-filesystem", "/tmp"] } } }));
      await until(() => lines.length === 1);
      expect(lines[0]).toBe(
        `spillway serve: ${path} changed; restart spillway serve to apply it (this serve keeps the config it started with)`,
      );
      writeFileSync(path, '{ "mcpServers": { "files": { "comand": "npx" } } }');
      await until(() => lines.length === 2);
      expect(lines[1]).toMatch(/changed; it would not load: .*mcpServers\.files.*; this serve keeps the config it started with$/);
      rmSync(path);
      await until(() => lines.length === 3);
      expect(lines[2]).toMatch(/was removed; this serve keeps the config it started with/);
    } finally {
      stop();
      home.cleanup();
    }
  });

  it("is reported by a running spillway serve on its stderr", async () => {
    const home = tempHome("spillway-config-watch-serve-");
    writeFileSync(join(home.path, "config.json"), "{}\n");
    const child = spawn(process.execPath, [BIN, "serve", "--home", home.path, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    try {
      await until(() => out.includes("Press Ctrl+C to stop."), 30_000);
      await new Promise((r) => setTimeout(r, 1_500));
      writeFileSync(join(home.path, "config.json"), JSON.stringify({ rescue: { thresholdChars: 9000 } }));
      await until(() => err.includes("changed;"), 15_000);
      expect(err).toContain(`spillway serve: ${join(home.path, "config.json")} changed; restart spillway serve to apply it`);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      home.cleanup();
    }
  }, 60_000);
});
