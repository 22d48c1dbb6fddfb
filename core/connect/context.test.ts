import { join } from "node:path";
import { AGENTS } from "./agents";
import { connectContext } from "./context";

describe("connect snippets start `spillway mcp` with what the endpoint runs with", () => {
  const home = "/srv/spillway-home";

  it("pass --config when the config file is not the home's own", () => {
    const ctx = connectContext(home, 7341, "/etc/spillway/team.json");
    expect(ctx.args.slice(-4)).toEqual(["--home", home, "--config", "/etc/spillway/team.json"]);
    for (const a of AGENTS.filter((x) => x.name !== "hermes")) expect(a.snippet(ctx), a.name).toContain("/etc/spillway/team.json");
    // Where to move the user's MCP servers: that same file.
    expect(AGENTS.find((a) => a.name === "codex")!.snippet(ctx)).toContain('/etc/spillway/team.json under "mcpServers"');
  });

  it("leave it out for the home's config.json, or when none is named", () => {
    expect(connectContext(home, 7341, join(home, "config.json")).args).not.toContain("--config");
    expect(connectContext(home, 7341).args).not.toContain("--config");
  });
});
