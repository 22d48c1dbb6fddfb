/** Writing one newline-terminated message to a pipe, waiting for it to drain when the pipe is full. */
import type { Writable } from "node:stream";

export function writeLine(out: Writable, json: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.destroyed || !out.writable) {
      reject(new Error("Not connected: the pipe is closed."));
      return;
    }
    if (out.write(json + "\n")) {
      resolve();
      return;
    }
    // A pipe that closes while full never drains: settle then too.
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.once("drain", done);
    out.once("close", done);
  });
}
