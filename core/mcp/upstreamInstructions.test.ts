import { rng } from "../../tests/fixtures/seededRandom";
import { SERVER_INSTRUCTIONS } from "./serverIdentity";
import { SERVER_MAX_CHARS, TOTAL_MAX_CHARS, composeInstructions, keptInstructions } from "./upstreamInstructions";

/** A GitHub-token-shaped value made at run time, so the repository holds no secret-shaped literal. */
function token(): string {
  const rnd = rng(11);
  const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return "ghp_" + Array.from({ length: 36 }, () => alnum[Math.floor(rnd() * alnum.length)]).join("");
}

describe("an upstream's instructions as kept and passed on", () => {
  it("are masked, trimmed, and absent when the server gave none", async () => {
    const secret = token();
    const kept = await keptInstructions(`  Use the repo tools.\nGITHUB_TOKEN=${secret}\n`);
    expect(kept).toMatch(/^Use the repo tools\.\nGITHUB_TOKEN=\[masked:[^\]]+\]$/);
    expect(await keptInstructions(undefined)).toBeNull();
    expect(await keptInstructions(" \n")).toBeNull();
    expect(await keptInstructions(42)).toBeNull();
  });

  it("are cut at a few KB per server, at a line end, saying so", async () => {
    const line = "Call list_things before get_thing, or the ids will not resolve.\n";
    const long = line.repeat(200);
    const kept = (await keptInstructions(long))!;
    expect(kept.length).toBeLessThan(SERVER_MAX_CHARS + 200);
    expect(kept).toMatch(/resolve\.\n\[Spillway cut these instructions here: \d+ of 12800 characters shown, at most 4000 per server\.\]$/);
  });

  it("follow Spillway's own, each under its server's name, and all of them within a total", () => {
    const text = composeInstructions(SERVER_INSTRUCTIONS, [
      { server: "everything", text: "Use echo." },
      { server: "git\nhub", text: "Use git." },
    ]);
    expect(text).toBe(
      `${SERVER_INSTRUCTIONS}\n\n## Instructions of the MCP server "everything"\nUse echo.\n\n## Instructions of the MCP server "git hub"\nUse git.`,
    );
    expect(composeInstructions(SERVER_INSTRUCTIONS, [])).toBe(SERVER_INSTRUCTIONS);
    const big = "x ".repeat(1_750);
    const many = composeInstructions(
      "own",
      ["a", "b", "c", "d", "e"].map((server) => ({ server, text: big })),
    );
    expect(many.length).toBeLessThan(TOTAL_MAX_CHARS + 1_000);
    expect(many).toContain(`## Instructions of the MCP server "c"\n${big}\n\n## Instructions of the MCP server "d"`);
    expect(many).toMatch(/the upstreams' together are capped at 12000\.\]/);
    expect(many).toMatch(/## Instructions of the MCP server "e"\n\[Left out by Spillway: .* capped at 12000 characters\.\]$/);
  });
});
