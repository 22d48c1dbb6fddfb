/** The config surface: all that code outside core/config may import (ARCHITECTURE.md, "Surfaces"). */
export {
  configIssues,
  configSchema,
  configuredTransport,
  defaultConfig,
  issuesSentence,
  loadConfigFile,
  matchesToolPattern,
} from "./config";
export type { SpillwayConfig, UpstreamConfig, UpstreamTransport } from "./config";
export { expandEntry } from "./expand";
