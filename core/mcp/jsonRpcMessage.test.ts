import { decodeMessage, idOfOversized, looksLikeRequest } from "./jsonRpcMessage";

const decode = (s: string | Buffer) => decodeMessage(typeof s === "string" ? Buffer.from(s) : s);
const fragments = (head: string, tail = head) => ({ bytes: 1e8, head: Buffer.from(head), tail: Buffer.from(tail) });

describe("decodeMessage", () => {
  it("accepts requests, notifications and responses", () => {
    expect(decode('{"jsonrpc":"2.0","id":1,"method":"ping"}').ok).toBe(true);
    expect(decode('{"jsonrpc":"2.0","method":"notifications/initialized"}').ok).toBe(true);
    expect(decode('{"jsonrpc":"2.0","id":"a","result":{}}').ok).toBe(true);
  });

  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":', -32700, /not valid JSON/, null],
    ["hello there", -32700, /not valid JSON/, null],
    [Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), -32700, /not valid UTF-8/, null],
    ['{"jsonrpc":"2.0","id":3,"method":"tools/\\u0000list"}', -32600, /"method" contains a control character/, 3],
    ['{"jsonrpc":"1.0","id":4,"method":"ping"}', -32600, /"jsonrpc" must be "2\.0"/, 4],
    ['{"jsonrpc":"2.0","id":5,"method":42}', -32600, /"method" must be a non-empty string/, 5],
    ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', -32600, /"id" must be a string or an integer/, null],
    ['{"jsonrpc":"2.0","id":6,"method":"ping","params":[1]}', -32600, /"params" must be an object/, 6],
    ['{"jsonrpc":"2.0","id":7}', -32600, /no "method", "result" or "error"/, 7],
    ["[]", -32600, /batches are not accepted/, null],
    ["42", -32600, /must be a JSON object/, null],
  ])("answers %s with %i and one sentence", (input, code, message, id) => {
    const d = decode(input as string | Buffer);
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.code).toBe(code);
    expect(d.error.message).toMatch(message);
    expect(d.error.message).not.toMatch(/\. [A-Z]/);
    expect(d.error.message).toMatch(/\.$/);
    expect(d.id).toBe(id);
  });

  it("never echoes the input in a parse error", () => {
    const d = decode('{"token":"sk-live-secret",');
    expect(d.ok || d.error.message).not.toContain("sk-live");
  });
});

describe("idOfOversized", () => {
  it("finds the id at the end (TS SDK order) or at the start (jsonrpc, id first)", () => {
    expect(idOfOversized(fragments('{"result":{"content":[{"text":"aaa', 'aaa"}]},"jsonrpc":"2.0","id":12}'))).toBe(12);
    expect(idOfOversized(fragments('{"jsonrpc":"2.0","id":"req-9","result":{"x":"', 'zzz"}}'))).toBe("req-9");
    expect(idOfOversized(fragments('{"id":3,"method":"tools/call","params":{"x":"', '"}}'))).toBe(3);
  });

  it("does not take a nested id for the message's", () => {
    expect(idOfOversized(fragments('{"result":{"items":[{"a":"', '"}],"meta":{"id":7}}}'))).toBeNull();
  });

  it("tells requests from responses by the leading members", () => {
    expect(looksLikeRequest(fragments('{"method":"tools/call","params":{'))).toBe(true);
    expect(looksLikeRequest(fragments('{"jsonrpc":"2.0","id":1,"method":"x"'))).toBe(true);
    expect(looksLikeRequest(fragments('{"result":{"content":[{"type":"text","text":"\\"method\\": 1'))).toBe(false);
  });
});
