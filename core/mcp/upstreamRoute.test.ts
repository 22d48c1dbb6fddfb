import { parseConfig } from "../config/config";
import { memoryLogger } from "../runtime";
import { createUpstreamManager } from "./upstreamManager";

describe("a name no server offers", () => {
  it("is answered once the wait is over, even while a server hangs on start, naming the servers not listed yet", async () => {
    // A server that never answers initialize: its tools could still be anything.
    const hang = { command: process.execPath, args: ["-e", "setInterval(() => {}, 1 << 30)"] };
    const upstreams = createUpstreamManager(parseConfig({ mcpServers: { hang } }), memoryLogger());
    try {
      await expect(upstreams.route("no_such_tool", 300)).resolves.toBeUndefined();
      expect(upstreams.notListed()).toEqual({ starting: ["hang"], down: [] });
    } finally {
      await upstreams.close();
    }
  });
});
