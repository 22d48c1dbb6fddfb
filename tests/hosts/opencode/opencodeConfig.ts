/** The OpenCode host runs' environment and global config before Spillway: shared by the host test and the history capture. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseEnv, type HostDirs } from "../models/host";

/** The user's global config before Spillway: one local OpenAI-compatible provider, no sharing or updates. */
export function opencodeUserConfig(modelUrl: string): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    model: "scripted/scripted-model",
    small_model: "scripted/scripted-model",
    autoupdate: false,
    share: "disabled",
    provider: {
      scripted: {
        npm: "@ai-sdk/openai-compatible",
        name: "Scripted model",
        options: { baseURL: `${modelUrl}/v1`, apiKey: "scripted" },
        models: { "scripted-model": { name: "Scripted model", tool_call: true } },
      },
    },
  };
}

/** A hermetic OpenCode environment under `dirs.home`: XDG folders, and nothing fetched or shared. */
export function opencodeEnv(dirs: HostDirs, proxyUrl: string): Record<string, string | undefined> {
  return {
    ...baseEnv(dirs, proxyUrl),
    XDG_CONFIG_HOME: join(dirs.home, ".config"),
    XDG_DATA_HOME: join(dirs.home, ".local", "share"),
    XDG_CACHE_HOME: join(dirs.home, ".cache"),
    XDG_STATE_HOME: join(dirs.home, ".local", "state"),
    // No models.dev catalogue, update check, share link, LSP download or ~/.claude reading.
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
  };
}

/**
 * OpenCode installs @opencode-ai/plugin into every config folder in the background (for custom
 * tools and plugins, which these runs have none of) unless the folder's lockfile lists it already.
 */
export function prepareConfigDir(configDir: string): void {
  mkdirSync(join(configDir, "node_modules"), { recursive: true });
  writeFileSync(
    join(configDir, "package-lock.json"),
    JSON.stringify({ packages: { "": { dependencies: { "@opencode-ai/plugin": "*" } } } }),
  );
}
