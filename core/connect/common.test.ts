import { configuredTransport, upstreamSchema } from "../config/config";
import { upstreamsNote } from "./common";
import { TEST_CONNECT_CONTEXT } from "../../tests/helpers/connectContext";

const CONTEXT = TEST_CONNECT_CONTEXT;

describe("upstreamsNote", () => {
  it("names the entries Spillway's config takes as they are, HTTP+SSE ones included", () => {
    const note = upstreamsNote(CONTEXT);
    expect(note).not.toMatch(/not SSE/);
    expect(note).toContain('url with "type" "http", "sse" (HTTP+SSE) or none, which tries Streamable HTTP and then SSE; httpUrl');
    // What the config makes of each kind the note names.
    const url = "http://127.0.0.1:9/mcp";
    const kinds: [unknown, string][] = [
      [{ command: "npx", args: ["server"] }, "stdio"],
      [{ type: "http", url }, "http"],
      [{ type: "sse", url }, "sse"],
      [{ url }, "http"], // until the server answers its POST with 400, 404 or 405: then SSE
      [{ httpUrl: url }, "http"],
      [{ type: "local", command: ["npx", "server"] }, "stdio"],
      [{ type: "remote", url }, "http"],
    ];
    for (const [entry, transport] of kinds) expect(configuredTransport(upstreamSchema.parse(entry))).toBe(transport);
  });
});
