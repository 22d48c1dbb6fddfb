/** Small interfaces the engine depends on, passed in from outside so tests can control them. */

/** Wall-clock time in milliseconds. Tests pass a fake one instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A settable clock for tests and benchmarks. */
export class FakeClock implements Clock {
  constructor(private t = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

export interface Logger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** Logs to stderr as one JSON line per entry; stdout may carry the MCP protocol. */
export function stderrLogger(minLevel: "info" | "warn" | "error" = "info"): Logger {
  const order = { info: 0, warn: 1, error: 2 };
  const write = (level: "info" | "warn" | "error", msg: string, data?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    process.stderr.write(JSON.stringify({ ts: new Date().toISOString(), level, msg, ...data }) + "\n");
  };
  return {
    info: (m, d) => write("info", m, d),
    warn: (m, d) => write("warn", m, d),
    error: (m, d) => write("error", m, d),
  };
}

/** A logger that keeps entries in memory, for tests that assert something was logged. */
export function memoryLogger(): Logger & { entries: { level: string; msg: string; data?: Record<string, unknown> }[] } {
  const entries: { level: string; msg: string; data?: Record<string, unknown> }[] = [];
  return {
    entries,
    info: (msg, data) => entries.push({ level: "info", msg, data }),
    warn: (msg, data) => entries.push({ level: "warn", msg, data }),
    error: (msg, data) => entries.push({ level: "error", msg, data }),
  };
}

/** Whether a process with this pid exists on this machine (one of another user's counts: EPERM). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
