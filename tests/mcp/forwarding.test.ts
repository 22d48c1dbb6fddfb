/**
 * Upstream prompts, resources and logging through Spillway, over Streamable HTTP and stdio, with
 * two fixture servers so every prompt name and resource URI collides and is prefixed.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { CreateMessageRequestSchema, ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { httpClient, idIn, stdioClient, textOf, upstream, writeConfig } from "./helpers/setup";
import { tempHome } from "../helpers/tempHome";

const textOfContents = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;

describe("prompts, resources and logging from the upstreams", () => {
  let t: TestEndpoint;
  let c: Client;

  beforeAll(async () => {
    t = await startTestEndpoint({ mcpServers: { fx: upstream.fixture(), fx2: upstream.fixture() } });
    c = (await httpClient(t.ep.mcpUrl, t.token, "forwarding")).client;
  });
  afterAll(async () => {
    await c?.close();
    await t?.close();
  });

  it("lists both servers' prompts, prefixed as they collide, and gets each from its own server", async () => {
    const names = (await c.listPrompts()).prompts.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["fx__greet", "fx2__greet"]));
    expect(names).not.toContain("greet");
    const one = await c.getPrompt({ name: "fx__greet", arguments: { who: "Ada" } });
    const two = await c.getPrompt({ name: "fx2__greet", arguments: { who: "Ada" } });
    const said = (r: typeof one) => (r.messages[0]!.content as { text: string }).text;
    expect(said(one)).toMatch(/^Hello, Ada!/);
    // Two processes: the prefix really picked the server.
    expect(said(one)).not.toBe(said(two));
    await expect(c.getPrompt({ name: "greet" })).rejects.toThrow(/no prompt named greet/);
  });

  it("passes a small resource read untouched and rescues a large one into a handle with a link to the full text", async () => {
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["fx+fixture://small", "fx2+fixture://big"]));
    const small = await c.readResource({ uri: "fx+fixture://small" });
    expect(small.contents).toEqual([{ uri: "fx+fixture://small", mimeType: "text/plain", text: "a small resource" }]);

    const big = await c.readResource({ uri: "fx2+fixture://big" });
    const handle = textOfContents(big);
    expect(handle.length).toBeLessThan(20_000);
    const link = (big.contents[0]!._meta as Record<string, { uri: string }>)["spillway/resource_link"]!;
    expect(link.uri).toBe(`spillway://blob/${idIn(handle)}`);
    const full = textOfContents(await c.readResource({ uri: link.uri }));
    expect(full).toContain("resource line 2999: the quick brown fox");
    expect(full.split("\n")).toHaveLength(3000);
    // Spillway's own template stays listed beside the upstreams' (none here).
    expect((await c.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)).toEqual(["spillway://blob/{id}"]);
  });

  it("answers logging/setLevel and completion even when no upstream offers them", async () => {
    await expect(c.setLoggingLevel("warning")).resolves.toEqual({});
    const r = await c.complete({ ref: { type: "ref/prompt", name: "fx__greet" }, argument: { name: "who", value: "A" } });
    expect(r.completion.values).toEqual([]);
  });

  it("refuses completion for a prompt or resource template no server offers with -32602, as prompts/get does", async () => {
    const refused = async (ref: Parameters<Client["complete"]>[0]["ref"]) => {
      const err: unknown = await c.complete({ ref, argument: { name: "x", value: "a" } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
      return (err as McpError).message;
    };
    // Before, both answered no values: a client could not tell a wrong name from no suggestions.
    expect(await refused({ type: "ref/prompt", name: "greet" })).toMatch(/no prompt named greet behind Spillway/);
    expect(await refused({ type: "ref/resource", uri: "nowhere://{id}" })).toMatch(
      /no resource template nowhere:\/\/\{id\} behind Spillway/,
    );
    // Spillway's own template is known: no suggestions, no error.
    const own = await c.complete({ ref: { type: "ref/resource", uri: "spillway://blob/{id}" }, argument: { name: "id", value: "a" } });
    expect(own.completion.values).toEqual([]);
  });

  it("refuses an upstream's sampling request with a sentence when the client did not declare sampling", async () => {
    const r = await c.callTool({ name: "fx__ask_llm", arguments: {} });
    expect((r.content as { text: string }[])[0]!.text).toMatch(
      /^refused: .*did not declare sampling, so fx cannot ask it for sampling\/createMessage/,
    );
  });

  it("over stdio too: spillway mcp gets a prefixed prompt and reads a prefixed resource", async () => {
    const home = tempHome("spillway-fwd-");
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture(), fx2: upstream.fixture() } });
    const s = await stdioClient(home.path);
    try {
      const p = await s.getPrompt({ name: "fx2__greet", arguments: { who: "Grace" } });
      expect((p.messages[0]!.content as { text: string }).text).toMatch(/^Hello, Grace!/);
      expect(textOfContents(await s.readResource({ uri: "fx+fixture://small" }))).toBe("a small resource");
    } finally {
      await s.close();
      home.cleanup();
    }
  });

  it("over stdio, upstreams declare only the sampling and roots the one client declared: no tool it cannot use, and a real relay when it can", async () => {
    const home = tempHome("spillway-caps-");
    writeConfig(home.path, {
      server: { firstListWaitMs: 60_000 },
      mcpServers: { everything: upstream.everything(), fx: upstream.fixture() },
    });
    // One after the other, on one home: the second starts from the catalog the first left.
    const plain = await stdioClient(home.path);
    try {
      // server-everything offers its sampling tool only to clients that declared sampling.
      const plainTools = (await plain.listTools()).tools.map((tool) => tool.name);
      expect(plainTools).toContain("echo");
      // Nor its roots tool, offered only to clients that declared roots.
      expect(plainTools).not.toContain("trigger-sampling-request");
      expect(plainTools).not.toContain("get-roots-list");
      expect(textOf(await plain.callTool({ name: "ask_llm", arguments: {} }))).toMatch(/^refused: /);
    } finally {
      await plain.close();
    }
    const asking = await stdioClient(home.path, {}, { sampling: {} });
    try {
      // The first answer may be the catalog the first client left; the server's own list follows.
      const changed = new Promise<void>((resolve) =>
        asking.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
      );
      const offered = async () => (await asking.listTools()).tools.map((tool) => tool.name);
      const first = await offered();
      if (!first.includes("trigger-sampling-request")) await changed;
      expect(await offered()).toContain("trigger-sampling-request");
      asking.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: "assistant" as const,
        model: "stand-in",
        content: { type: "text" as const, text: "relayed back" },
      }));
      expect(textOf(await asking.callTool({ name: "ask_llm", arguments: {} }))).toContain("relayed back");
    } finally {
      await asking.close();
      home.cleanup();
    }
  });
});
