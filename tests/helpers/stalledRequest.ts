/** Raw HTTP for tests of a server's deadlines: a request that stops part-way, as a stalled or hostile client's does. */
import { connect } from "node:net";

/** Opens a raw connection, writes `text` and nothing more; resolves with all the server wrote once it closed the connection. */
export function stall(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error("the server still held the stalled request after 10 s"));
    }, 10_000);
    socket.on("data", (c: Buffer) => (got += c.toString("utf8")));
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve(got);
    });
    socket.on("error", () => {});
    socket.write(text);
  });
}
