/**
 * `spillway serve` runs with the config it started with. A user who edits the file meanwhile (the
 * serve banner itself says to add mcpServers there) is told, on stderr, that the change waits for
 * a restart, and whether the edited file would load at all, instead of seeing nothing happen.
 */
import { unwatchFile, watchFile, type Stats } from "node:fs";
import { describeError } from "../errors";
import { loadConfigFile } from "../config/config";

/** How often the file's modification time is read (fs.watchFile polls: it works on every filesystem). */
const POLL_MS = 1_000;

/** Watches `path`; `say` gets one line per change. Returns the function that stops watching. */
export function watchConfigFile(path: string, say: (line: string) => void, pollMs = POLL_MS): () => void {
  const onChange = (now: Stats, before: Stats) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size) return;
    if (now.mtimeMs === 0) {
      say(`spillway serve: ${path} was removed; this serve keeps the config it started with (the next start uses the defaults)`);
      return;
    }
    let verdict: string;
    try {
      loadConfigFile(path);
      verdict = "restart spillway serve to apply it (this serve keeps the config it started with)";
    } catch (err) {
      verdict = `it would not load: ${describeError(err)}; this serve keeps the config it started with`;
    }
    say(`spillway serve: ${path} changed; ${verdict}`);
  };
  watchFile(path, { interval: pollMs, persistent: false }, onChange);
  return () => unwatchFile(path, onChange);
}
