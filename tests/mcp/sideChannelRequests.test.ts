/**
 * Secrets an upstream puts in what it asks the client (a sampling request's messages, system
 * prompt and metadata; an elicitation's message and schema) and in a resource read's or listing's
 * fields beside the text reach the client masked, over real stdio with a client that declares
 * sampling and elicitation (tests/mcp/fixtures/sideChannelServer.ts echoes its GitHub token).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { stdioClient, textOf, upstream, writeConfig } from "./helpers/setup";

const TOKEN = ["ghp", "Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("_");

describe("what an upstream asks the client, and its resources, are masked for the model", () => {
  let home: ReturnType<typeof tempHome>;
  let c: Client;
  const sampled: Record<string, unknown>[] = [];
  const elicited: Record<string, unknown>[] = [];

  beforeAll(async () => {
    home = tempHome("spillway-side-req-");
    writeConfig(home.path, {
      mcpServers: {
        gh: upstream.sideChannel(TOKEN),
      },
    });
    c = await stdioClient(home.path, {}, { sampling: {}, elicitation: {} });
    c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      sampled.push(req.params);
      return { role: "assistant", model: "test-model", content: { type: "text", text: "a summary" } };
    });
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicited.push(req.params);
      return { action: "accept", content: { ok: true } };
    });
  });
  afterAll(async () => {
    await c?.close();
    home?.cleanup();
  });

  it("masks a sampling request's messages, system prompt and metadata, and an elicitation's message and schema", async () => {
    const r = await c.callTool({ name: "summarize", arguments: {} });
    // The answers still reach the upstream: the relay works with the masked requests.
    expect(textOf(r)).toBe('sampled {"type":"text","text":"a summary"}; answered accept');

    expect(sampled).toHaveLength(1);
    expect.soft(sampled[0]).toMatchObject({
      systemPrompt: expect.stringMatching(/^You may use \[masked:/),
      messages: [
        { role: "user", content: { type: "text", text: expect.stringMatching(/^Summarize the repo; authenticate with \[masked:/) } },
      ],
      maxTokens: 100,
      metadata: { auth: expect.stringContaining("[masked:") },
      // An id passes as sent.
      _meta: { progressToken: "sample-1" },
    });
    expect.soft(JSON.stringify(sampled)).not.toContain("ghp_");

    expect(elicited).toHaveLength(1);
    expect.soft(elicited[0]).toMatchObject({
      message: expect.stringMatching(/^Use \[masked:.*\] for the repo\?$/),
      requestedSchema: {
        type: "object",
        properties: { ok: { type: "boolean", title: "Use it", description: expect.stringMatching(/^Allow \[masked:/) } },
        required: ["ok"],
      },
    });
    expect.soft(JSON.stringify(elicited)).not.toContain("ghp_");
  });

  it("masks a resource read's content uri and _meta and the result's _meta, its text as it was", async () => {
    const r = await c.readResource({ uri: "file:///tmp/config.json" });
    expect.soft(r.contents).toEqual([
      {
        uri: expect.stringMatching(/^file:\/\/\/tmp\/config\.json\?token=\[masked:/),
        mimeType: "application/json",
        text: "{}",
        _meta: { auth: expect.stringContaining("[masked:") },
      },
    ]);
    expect.soft(r._meta).toEqual({ fetchedWith: expect.stringContaining("[masked:") });
    expect.soft(JSON.stringify(r)).not.toContain("ghp_");
  });

  it("masks a secret in a listed resource's uri and description and in a template's description", async () => {
    const { resources } = await c.listResources();
    expect.soft(resources.map((x) => x.uri)).toContain("file:///tmp/config.json");
    expect.soft(resources.find((x) => x.name === "profile")).toMatchObject({
      uri: expect.stringMatching(/^file:\/\/\/tmp\/profile\.json\?token=\[masked:/),
      description: expect.stringMatching(/^The profile for \[masked:/),
    });
    expect.soft(JSON.stringify(resources)).not.toContain("ghp_");

    const { resourceTemplates } = await c.listResourceTemplates();
    expect.soft(resourceTemplates.find((t) => t.name === "repo")).toMatchObject({
      uriTemplate: "repo://{name}",
      description: expect.stringMatching(/^A repository, fetched with \[masked:/),
    });
    expect.soft(JSON.stringify(resourceTemplates)).not.toContain("ghp_");
  });
});
