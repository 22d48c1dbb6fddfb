/**
 * Secrets an upstream echoes outside a tool result's text reach the client masked, over real
 * stdio: a result's `_meta` and a resource_link, a prompt's messages, a log message and a
 * progress notification; tool and prompt definitions, completion values, a resources/updated
 * notification (tests/mcp/fixtures/sideChannelServer.ts echoes its GitHub token). Nothing under the
 * home holds it in clear either (the tool catalog and the early tools/list cache keep definitions).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { stdioClient, upstream, writeConfig } from "./helpers/setup";

const TOKEN = ["ghp", "Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("_");

describe("side channels of an upstream are masked for the model", () => {
  let home: ReturnType<typeof tempHome>;
  let c: Client;
  const logs: unknown[] = [];
  const updates: unknown[] = [];

  beforeAll(async () => {
    home = tempHome("spillway-side-");
    writeConfig(home.path, {
      mcpServers: {
        gh: upstream.sideChannel(TOKEN),
      },
    });
    c = await stdioClient(home.path);
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params));
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

  it("masks tool and prompt definitions and completion values, and keeps none in clear under the home", async () => {
    const { tools } = await c.listTools();
    const query = tools.find((t) => t.name === "query");
    expect.soft(query?.description).toMatch(/^Runs a query against the API with \[masked:/);
    expect.soft(JSON.stringify(query?.inputSchema)).toContain("read with [masked:");
    expect.soft(JSON.stringify(tools)).not.toContain("ghp_");
    // The tool still runs under its own name, with its arguments.
    const r = await c.callTool({ name: "query", arguments: { repo: "spillway" } });
    expect.soft(r.content).toEqual([{ type: "text", text: "queried spillway" }]);

    const { prompts } = await c.listPrompts();
    const deploy = prompts.find((p) => p.name === "deploy");
    expect.soft(deploy?.description).toMatch(/^Deploys with \[masked:/);
    expect.soft(deploy?.arguments?.[0]).toMatchObject({ name: "target", description: expect.stringContaining("authorized by [masked:") });
    expect.soft(JSON.stringify(prompts)).not.toContain("ghp_");

    const done = await c.complete({ ref: { type: "ref/prompt", name: "deploy" }, argument: { name: "target", value: "p" } });
    expect.soft(done.completion.values).toEqual([expect.stringMatching(/^prod\?token=\[masked:/)]);

    // The catalog (SQLite, WAL included) and the early stdio cache are written by then.
    await new Promise((wake) => setTimeout(wake, 200));
    // config.json is the user's own file, where the token was written as the server's env.
    const clear = filesUnder(home.path).filter((f) => !f.endsWith("config.json") && readFileSync(f).includes(TOKEN));
    expect.soft(clear).toEqual([]);
  });

  it("masks what a resources/updated notification carries beside the uri the client subscribed to", async () => {
    const { resources } = await c.listResources();
    const config = resources.find((r) => r.name === "config");
    expect(config).toBeDefined();
    await c.subscribeResource({ uri: config!.uri });
    await c.callTool({ name: "touch", arguments: {} });
    expect(updates).toEqual([{ uri: config!.uri, _meta: { changedWith: expect.stringMatching(/^token \[masked:/) } }]);
  });
});

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}
