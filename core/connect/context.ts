/** Where the snippets point: how to start `spillway mcp`, the endpoint's URL and the token file. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tokenPath } from "../http/token";
import type { ConnectContext } from "./agents";

/** The package is not published: configs start the CLI by its absolute path under node. */
const BIN = fileURLToPath(new URL("../../bin/spillway.js", import.meta.url));
const HERMES_PLUGIN = fileURLToPath(new URL("../../integrations/hermes", import.meta.url));

/** `configPath`: the config the endpoint runs with; a file other than `<home>/config.json` is passed on as `--config`. */
export function connectContext(home: string, port: number, configPath?: string): ConnectContext {
  const args = [BIN, "mcp"];
  // A non-default home, or a config file outside it, has to reach the agent-spawned process too.
  if (home !== join(homedir(), ".spillway")) args.push("--home", home);
  const own = !configPath || resolve(configPath) === join(home, "config.json");
  if (!own) args.push("--config", resolve(configPath));
  return {
    command: "node",
    args,
    baseUrl: `http://127.0.0.1:${port}`,
    home,
    tokenFile: tokenPath(home),
    hermesPlugin: HERMES_PLUGIN,
    ...(own ? {} : { configFile: resolve(configPath) }),
  };
}
