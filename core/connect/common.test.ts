import { configuredTransport, upstreamSchema } from "../config/config";
import type { ConnectContext } from "./agents";
import { upstreamsNote } from "./common";

const CONTEXT: ConnectContext = {
  command: "node",
  args: ["/opt/spillway/bin/spillway.js", "mcp"],
  baseUrl: "http://127.0.0.1:7341",
  home: "/h/.spillway",
  tokenFile: "/h/.spillway/token",
  hermesPlugin: "/opt/spillway/integrations/hermes",
};

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
