/** A fixed ConnectContext for the connect snippets' tests: Spillway installed under /opt, a home under /h. */
import type { ConnectContext } from "../../core/connect";

export const TEST_CONNECT_CONTEXT: ConnectContext = {
  command: "node",
  args: ["/opt/spillway/bin/spillway.js", "mcp"],
  baseUrl: "http://127.0.0.1:7341",
  home: "/h/.spillway",
  tokenFile: "/h/.spillway/token",
  hermesPlugin: "/opt/spillway/integrations/hermes",
};
