/** The config surface: all that code outside core/config may import (ARCHITECTURE.md, "Surfaces"). */
export { configIssues, configSchema, defaultConfig, issuesSentence, loadConfigFile, matchesToolPattern } from "./config";
export type { SpillwayConfig, UpstreamConfig } from "./config";
