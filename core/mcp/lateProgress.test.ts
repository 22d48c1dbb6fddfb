import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ProgressTokens } from "./lateProgress";

const unknownToken = (token: unknown) =>
  new Error(
    `Received a progress notification for an unknown token: ${JSON.stringify({ method: "notifications/progress", params: { progress: 1, progressToken: token } })}`,
  );

describe("progress that arrives after its request", () => {
  it("is told once per request this connection sent; a token it never sent, or any other error, is not one", async () => {
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    await theirs.start();
    await ours.start();
    const tokens = new ProgressTokens();
    tokens.watch(ours);
    await ours.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", _meta: { progressToken: 7 } } });
    expect(tokens.late(unknownToken(7))).toBe("first");
    expect(tokens.late(unknownToken(7))).toBe("again");
    expect(tokens.late(unknownToken(8))).toBeNull();
    expect(tokens.late(new Error("SSE stream disconnected"))).toBeNull();
    await ours.close();
  });
});
