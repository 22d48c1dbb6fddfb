/** The files a Claude Code test project holds: a large log to Read, a notebook, 40 sources to Grep and Glob. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What `seq 1 n` prints. */
export function seqOutput(n: number): string {
  let s = "";
  for (let i = 1; i <= n; i++) s += `${i}\n`;
  return s;
}

/** A 1,500-line service log (about 96 KB) with a few errors spread through it. */
export function serviceLog(lines = 1_500): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const level = i % 211 === 97 ? "ERROR" : "INFO";
    out.push(`2024-05-01T10:${String(i % 60).padStart(2, "0")}:00Z ${level} worker-${i % 7} handled request ${i} in ${i % 91} ms`);
  }
  return out.join("\n") + "\n";
}

export function writeProjectFiles(dir: string): { log: string; notebook: string } {
  mkdirSync(join(dir, "src"), { recursive: true });
  const log = join(dir, "service.log");
  writeFileSync(log, serviceLog());
  for (let i = 0; i < 40; i++) writeFileSync(join(dir, "src", `module${i}.ts`), `export const value${i} = ${i}; // TODO item ${i}\n`);
  const notebook = join(dir, "analysis.ipynb");
  writeFileSync(
    notebook,
    JSON.stringify({
      cells: [
        { cell_type: "markdown", metadata: {}, source: ["# Analysis\n", "Counts per worker."] },
        {
          cell_type: "code",
          execution_count: 1,
          metadata: {},
          outputs: [{ output_type: "stream", name: "stdout", text: ["7 workers\n"] }],
          source: ["print('7 workers')"],
        },
      ],
      metadata: { kernelspec: { name: "python3", display_name: "Python 3", language: "python" } },
      nbformat: 4,
      nbformat_minor: 5,
    }),
  );
  return { log, notebook };
}
