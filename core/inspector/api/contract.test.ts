// The renderer imports the contract (types only); it must stay free of Node, SQLite and the engine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { requestSchemas } from "./contract";

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/g;

function importsOf(file: string): string[] {
  return [...readFileSync(join(import.meta.dirname, file), "utf8").matchAll(IMPORT)].map((m) => m[1]!);
}

describe("the inspector contract", () => {
  it("imports only zod and pure type modules", () => {
    expect(importsOf("contract.ts").toSorted()).toEqual(["../../engine/engineEvents", "./dto", "./dto", "zod"]);
    expect(importsOf("dto.ts")).toEqual(["../../types", "./dtoHost"]);
    expect(importsOf("dtoHost.ts")).toEqual(["../../types", "./dto"]);
    for (const f of ["../../engine/engineEvents.ts", "../../types.ts"]) {
      expect(importsOf(f).every((s) => s === "./types" || s === "../types")).toBe(true);
    }
  });

  it("names every operation namespace.method, and fills request defaults", () => {
    for (const op of Object.keys(requestSchemas)) expect(op).toMatch(/^[a-z]+\.[a-z]+$/i);
    expect(requestSchemas["blobs.list"].parse({})).toEqual({ offset: 0, limit: 200, sort: { by: "createdAt", dir: "desc" }, filter: {} });
    expect(requestSchemas["endpoint.status"].parse(undefined)).toEqual({});
  });
});
