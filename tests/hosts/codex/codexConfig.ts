/** The Codex host runs' own config.toml (before Spillway's table is merged in): shared by the host test and the history capture. */

/** The user's own config before Spillway: a local model provider, and no network chatter. */
export function codexUserConfig(modelUrl: string, model: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "scripted"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.scripted]",
    'name = "Scripted model"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "remote_plugin = false",
    "plugin_sharing = false",
    "apps = false",
    "tool_suggest = false",
    "skill_mcp_dependency_install = false",
    "",
  ].join("\n");
}
