/**
 * Links in tool results to resources two upstreams share: over Streamable HTTP, two link fixture
 * servers (fixtures/linkServer.ts) offer the same URIs, so each is listed with its server's
 * prefix; a link in one server's tool result must be one resources/read takes to that server.
 */
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient, ROOT } from "./helpers/setup";

const link = (label: string) => ({
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/linkServer.ts")],
  cwd: ROOT,
  env: { LABEL: label },
});
const textOfContents = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;

describe("a resource link in a tool result, when two servers offer the URI", () => {
  let t: TestEndpoint;
  let c: Client;

  beforeAll(async () => {
    t = await startTestEndpoint({ mcpServers: { pa: link("pa"), pb: link("pb") } });
    c = (await httpClient(t.ep.mcpUrl, t.token, "links")).client;
  });
  afterAll(async () => {
    await c?.close();
    await t?.close();
  });

  it("names the prefixed URI the listing offers, a valid URI, and reading it returns that server's resource", async () => {
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["pa+probe://r/2", "pb+probe://r/2"]));
    // RFC 3986: a scheme is a letter then letters, digits, + - . (a validating client rejects "_").
    for (const uri of uris) expect(uri).toMatch(/^[a-z][a-z0-9+.-]*:/);
    const templates = (await c.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
    expect(templates).toEqual(expect.arrayContaining(["pa+probe://t/{id}", "pb+probe://t/{id}"]));

    const result = (await c.callTool({ name: "pa__links", arguments: {} })) as CallToolResult;
    const [, listed, embedded, templated] = result.content;
    expect(listed).toMatchObject({ type: "resource_link", uri: "pa+probe://r/2" });
    expect(embedded).toMatchObject({ type: "resource", resource: { uri: "pa+probe://r/2", text: "pa /2" } });
    expect(templated).toMatchObject({ type: "resource_link", uri: "pa+probe://t/7" });

    expect(textOfContents(await c.readResource({ uri: "pa+probe://r/2" }))).toBe("pa /2");
    expect(textOfContents(await c.readResource({ uri: "pa+probe://t/7" }))).toBe("pa /7");
    const other = (await c.callTool({ name: "pb__links", arguments: {} })) as CallToolResult;
    const otherLink = other.content[1] as { uri: string };
    expect(otherLink.uri).toBe("pb+probe://r/2");
    expect(textOfContents(await c.readResource({ uri: otherLink.uri }))).toBe("pb /2");
  });
});
