import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { memoryLogger } from "../runtime";
import { routeTools } from "./toolRoutes";

const DRAFT7 = "http://json-schema.org/draft-07/schema#";
const tool = (name: string, inputSchema: Record<string, unknown>, extra: Partial<Tool> = {}): Tool =>
  ({ name, description: `${name} does its thing`, inputSchema: { type: "object", ...inputSchema }, ...extra }) as Tool;
const offered = (...tools: Tool[]) =>
  [...routeTools([{ server: "s", tools }], new Set(), memoryLogger()).listed.values()].map((r) => r.tool);

describe("what clients are shown of an upstream tool", () => {
  it("drops outputSchema and adds nothing to the description (it is re-sent with every request)", () => {
    const [t] = offered(tool("read", { properties: { path: { type: "string" } } }, { outputSchema: { type: "object" } }));
    expect(t).not.toHaveProperty("outputSchema");
    expect(t!.description).toBe("read does its thing");
  });

  it("drops a draft-07 $schema where the schema reads the same in MCP's default 2020-12, keeping every other keyword", () => {
    const props = { path: { type: "string", description: "where" }, n: { type: "number", default: 3 } };
    const [a] = offered(tool("a", { properties: props, required: ["path"], $schema: DRAFT7 }));
    expect(a!.inputSchema).toEqual({ type: "object", properties: props, required: ["path"] });
  });

  it("keeps $schema where draft-07 would read differently from 2020-12, or names another dialect (2020-12 itself included)", () => {
    const cases = [
      { properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } } },
      { properties: { a: { type: "string" } }, dependencies: { a: ["b"] } },
      {
        properties: { a: { $ref: "#/definitions/x", description: "sibling ignored by draft-07" } },
        definitions: { x: { type: "string" } },
      },
      { properties: { list: { type: "array", items: { type: "string" }, additionalItems: false } } },
    ].map((s, i) => tool(`t${i}`, { ...s, $schema: DRAFT7 }));
    const draft4 = tool("old", { properties: {}, $schema: "http://json-schema.org/draft-04/schema#" });
    const explicit = tool("new", { properties: {}, $schema: "https://json-schema.org/draft/2020-12/schema" });
    for (const t of offered(...cases, draft4, explicit)) expect(t.inputSchema).toHaveProperty("$schema");
  });
});

describe("tools that run only as tasks", () => {
  it("are left out (the proxy does not forward tasks), and their name no longer makes another server's tool prefixed", () => {
    const research = tool("research", {}, { execution: { taskSupport: "required" } });
    const maybe = tool("maybe", {}, { execution: { taskSupport: "optional" } });
    const { listed: routes } = routeTools(
      [
        { server: "a", tools: [research, maybe] },
        { server: "b", tools: [tool("research", {})] },
      ],
      new Set(),
      memoryLogger(),
    );
    expect([...routes.keys()]).toEqual(["maybe", "research"]);
    expect(routes.get("research")!.server).toBe("b");
  });
});

describe("names once offered", () => {
  const everything = { server: "everything", tools: [tool("echo", {}), tool("add", {})] };
  const late = { server: "late", tools: [tool("echo", {})] };
  const names = (r: ReturnType<typeof routeTools>) => ({
    listed: [...r.listed].map(([n, t]) => `${n}>${t.server}`),
    aliases: [...r.aliases].map(([n, t]) => `${n}>${t.server}`),
  });

  it("keep their tool when a later server shares the name: only the newcomer is prefixed, the list holds each tool once", () => {
    const served = new Map([["echo", { server: "everything", upstreamName: "echo" }]]);
    expect(names(routeTools([everything, late], new Set(), memoryLogger(), served))).toEqual({
      listed: ["echo>everything", "add>everything", "late__echo>late"],
      aliases: ["everything__echo>everything"],
    });
    // Without names served, both are prefixed, as before.
    expect(names(routeTools([everything, late], new Set(), memoryLogger())).listed).toEqual([
      "everything__echo>everything",
      "add>everything",
      "late__echo>late",
    ]);
  });

  it("are never given to another server's tool, and a prefixed name stays listed when the clash is gone", () => {
    const served = new Map([
      ["echo", { server: "everything", upstreamName: "echo" }],
      ["late__echo", { server: "late", upstreamName: "echo" }],
    ]);
    // everything no longer has echo: late's echo keeps its prefixed name and does not take `echo`.
    const r = routeTools([{ server: "everything", tools: [tool("add", {})] }, late], new Set(), memoryLogger(), served);
    expect(names(r)).toEqual({ listed: ["add>everything", "late__echo>late"], aliases: [] });
  });
});
