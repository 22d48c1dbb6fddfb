/** An in-process endpoint (the same code `spillway serve` runs) on a real engine in a temp home. */
import { join } from "node:path";
import { parseConfig } from "../../../core/config/config";
import { createEngine, type Engine } from "../../../core/engine/engine";
import { startEndpoint, type RunningEndpoint } from "../../../core/endpoint/endpoint";
import { memoryLogger, type Clock } from "../../../core/runtime";
import { tempHome } from "../../helpers/tempHome";
import { patientStart } from "./setup";
import { readFileSync } from "node:fs";

export interface TestEndpoint {
  engine: Engine;
  ep: RunningEndpoint;
  token: string;
  home: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

export async function startTestEndpoint(config: Record<string, unknown> = {}, opts: { clock?: Clock } = {}): Promise<TestEndpoint> {
  const home = tempHome("spillway-ep-");
  const engine = createEngine({ home: home.path, config: parseConfig(patientStart(config)), logger: memoryLogger(), clock: opts.clock });
  const ep = await startEndpoint({ engine, home: home.path, port: 0 });
  const token = readFileSync(join(home.path, "token"), "utf8").trim();
  return {
    engine,
    ep,
    token,
    home: home.path,
    async post(path, body, headers = {}) {
      const res = await fetch(ep.url + path, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    async close() {
      await ep.close();
      await engine.close();
      home.cleanup();
    },
  };
}
