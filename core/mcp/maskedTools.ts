/**
 * Upstream tool definitions as Spillway keeps and offers them: every string but the tool's name
 * with credential-shaped spans masked. A database server that writes its connection string into
 * a tool's description, or a schema whose `default` is an API key, would otherwise hand the secret
 * to every model that lists tools, and leave it in clear in the catalog and the early stdio cache.
 * Definitions are masked in every sensitivity mode, as everything written under the home is.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { maskJsonValue } from "../sensitivity/maskJson";

/** `tools` with their strings masked (the same objects where nothing changed); the name is never touched. */
export async function maskedToolList(tools: Tool[]): Promise<Tool[]> {
  // Loaded here, not at start: `spillway mcp` answers its first tools/list before the detector loads.
  const { maskSecrets } = await import("../sensitivity/secrets");
  const mask = (text: string) => maskSecrets(text).text;
  return tools.map((tool) => {
    const { name, ...rest } = tool;
    const masked = maskJsonValue(rest, mask);
    return masked === rest ? tool : ({ ...masked, name } as Tool);
  });
}
