import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createEngine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { FETCH_MODES } from "../vocabulary";
import { FETCH_TOOL, RECALL_TOOL } from "./ownTools";
import { createProxyServer } from "./proxyServer";
import { createUpstreamManager } from "./upstreamManager";

describe("own tool definitions", () => {
  const home = tempHome();
  const engine = createEngine({ home: home.path, logger: memoryLogger() });
  const upstreams = createUpstreamManager(engine.config, engine.logger);
  const client = new Client({ name: "test", version: "1" });
  let own: Tool[] = [];

  beforeAll(async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createProxyServer({ engine, upstreams, sessionId: "s" }).connect(b);
    await client.connect(a);
    own = (await client.listTools()).tools.filter((t) => t.name === FETCH_TOOL || t.name === RECALL_TOOL);
  });
  afterAll(async () => {
    await client.close();
    await upstreams.close();
    await engine.close();
    home.cleanup();
  });

  it("cost at most 250 o200k tokens together, as tools/list advertises them (they are re-sent on every request)", () => {
    expect(own.map((t) => t.name)).toEqual([FETCH_TOOL, RECALL_TOOL]);
    expect(countTokens(JSON.stringify(own))).toBeLessThanOrEqual(250);
  });

  it("still give a host what it needs: the modes, the required arguments, read-only hints", () => {
    const [fetchTool, recallTool] = own;
    const props = fetchTool!.inputSchema.properties as Record<string, { enum?: string[]; type?: string }>;
    expect(props.mode!.enum).toEqual([...FETCH_MODES]);
    expect(fetchTool!.inputSchema.required).toEqual(["id", "mode"]);
    expect(Object.keys(props)).toEqual(
      expect.arrayContaining(["query", "pattern", "start", "count", "start_char", "count_chars", "expression"]),
    );
    expect(props.top_k!.type).toBe("integer");
    expect(recallTool!.inputSchema.required).toEqual(["result_id"]);
    for (const t of own) expect(t.annotations?.readOnlyHint).toBe(true);
    expect(fetchTool!.description).toMatch(/preview/i);
    expect(fetchTool!.description).toMatch(/handle/);
  });
});
