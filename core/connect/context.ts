/** Where the snippets point: how to start `spillway mcp`, the endpoint's URL and the token file. */
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tokenPath } from "../http/token";
import type { ConnectContext } from "./agents";

/** The package is not published: configs start the CLI by its absolute path under node. */
const BIN = fileURLToPath(new URL("../../bin/spillway.js", import.meta.url));
const HERMES_PLUGIN = fileURLToPath(new URL("../../integrations/hermes", import.meta.url));

export function connectContext(home: string, port: number): ConnectContext {
  const args = [BIN, "mcp"];
  // A non-default home has to reach the agent-spawned process too.
  if (home !== join(homedir(), ".spillway")) args.push("--home", home);
  return { command: "node", args, baseUrl: `http://127.0.0.1:${port}`, home, tokenFile: tokenPath(home), hermesPlugin: HERMES_PLUGIN };
}
