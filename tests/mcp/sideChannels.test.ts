/**
 * Secrets an upstream echoes outside a tool result's text reach the client masked, over real
 * stdio: a result's `_meta` and a resource_link, a prompt's messages, a log message and a
 * progress notification (tests/mcp/fixtures/sideChannelServer.ts echoes its GitHub token).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { stdioClient, upstream, writeConfig } from "./helpers/setup";

const TOKEN = ["ghp", "Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("_");

describe("side channels of an upstream are masked for the model", () => {
  let home: ReturnType<typeof tempHome>;
  let c: Client;
  const logs: unknown[] = [];

  beforeAll(async () => {
    home = tempHome("spillway-side-");
    writeConfig(home.path, {
      mcpServers: {
        gh: upstream.sideChannel(TOKEN),
      },
    });
    c = await stdioClient(home.path);
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  });
  afterAll(async () => {
    await c?.close();
    home?.cleanup();
  });

  it("masks a tool result's _meta and resource_link, the log message and the progress message sent during the call", async () => {
    const progress: unknown[] = [];
    const r = await c.callTool({ name: "whoami", arguments: {} }, undefined, { onprogress: (p) => void progress.push(p) });
    // Soft: each channel is its own leak, reported on its own.
    expect
      .soft(r.content)
      .toEqual([
        { type: "text", text: "octocat" },
        expect.objectContaining({ type: "resource_link", uri: expect.stringContaining("[masked:") }),
      ]);
    expect.soft(r._meta).toEqual({ debug: expect.stringContaining("[masked:") });
    expect.soft(JSON.stringify(r)).not.toContain("ghp_");

    expect.soft(logs).toHaveLength(1);
    expect.soft(logs[0]).toMatchObject({ level: "info", logger: "auth", data: expect.stringMatching(/^using token \[masked:/) });
    expect.soft(JSON.stringify(logs)).not.toContain("ghp_");

    expect.soft(progress).toEqual([{ progress: 1, total: 1, message: expect.stringMatching(/^authenticated with \[masked:/) }]);
    expect.soft(JSON.stringify(progress)).not.toContain("ghp_");
  });

  it("masks a prompt's messages", async () => {
    const p = await c.getPrompt({ name: "review" });
    expect((p.messages[0]!.content as { text: string }).text).toMatch(/^Review the repo; authenticate with \[masked:/);
    expect(JSON.stringify(p)).not.toContain("ghp_");
  });
});
