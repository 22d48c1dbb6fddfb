import { limitedFetch } from "./httpClientLimit";

const enc = new TextEncoder();

/** A base fetch answering with `body` cut into `chunk`-byte pieces. */
function serve(body: string, type: string, chunk = 7) {
  return async () => {
    const bytes = enc.encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.subarray(i, i + chunk));
        c.close();
      },
    });
    return new Response(stream, { status: 200, headers: { "content-type": type } });
  };
}

const call = (id: number, name: string) => ({
  method: "POST",
  body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } }),
});
const event = (msg: unknown, crlf = false) => {
  const nl = crlf ? "\r\n" : "\n";
  return `event: message${nl}data: ${JSON.stringify(msg)}${nl}${nl}`;
};
const dataOf = (sse: string) => [...sse.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!.trimEnd()));

describe("limitedFetch", () => {
  it("passes SSE events under the limit through unchanged, whatever the chunking and line endings", async () => {
    const body =
      event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }) +
      event({ jsonrpc: "2.0", id: 3, result: { content: [] } }, true);
    const res = await limitedFetch(10_000, serve(body, "text/event-stream", 3))("http://x/mcp", call(3, "t"));
    expect(await res.text()).toBe(body);
  });

  it("replaces an SSE answer over the limit by an error naming the tool and the limit, and keeps later events", async () => {
    const big = { result: { content: [{ type: "text", text: "y".repeat(5000) }] }, jsonrpc: "2.0", id: 4 };
    const after = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "after" } };
    const res = await limitedFetch(2000, serve(event(big) + event(after), "text/event-stream", 512))("http://x/mcp", call(4, "huge"));
    const [err, next] = dataOf(await res.text());
    expect(err).toMatchObject({ jsonrpc: "2.0", id: 4, error: { code: -32603 } });
    expect(err.error.message).toMatch(/^its answer to huge is 0\.0 MB, over the 0\.0 MB limit Spillway reads in one message/);
    expect(next).toEqual(after);
  });

  it("drops an oversized notification without answering the request for it", async () => {
    const noisy = { jsonrpc: "2.0", method: "notifications/message", params: { data: "z".repeat(5000) } };
    const answer = { jsonrpc: "2.0", id: 5, result: { content: [] } };
    const skipped: string[] = [];
    const res = await limitedFetch(2000, serve(event(noisy) + event(answer), "text/event-stream", 256), (w) => skipped.push(w))(
      "http://x/mcp",
      call(5, "t"),
    );
    expect(dataOf(await res.text())).toEqual([answer]);
    expect(skipped).toHaveLength(1);
  });

  it("answers a JSON body over the limit with the error for its request", async () => {
    const res = await limitedFetch(
      1000,
      serve(JSON.stringify({ jsonrpc: "2.0", id: 6, result: { text: "q".repeat(3000) } }), "application/json"),
    )("http://x/mcp", call(6, "dump"));
    const body = (await res.json()) as { error: { message: string } };
    expect(body).toMatchObject({ id: 6, error: { code: -32603 } });
    expect(body.error.message).toMatch(/its answer to dump is/);
  });
});
