/** The mcp surface: all that code outside core/mcp may import (ARCHITECTURE.md, "Surfaces"). */
export type { DeferredEngine } from "./engineSource";
export { createHandRunner } from "./handRunner";
export type { CatalogTool, CatalogUpstream, ToolCatalog, ToolRun } from "./handTypes";
export { mountMcp } from "./httpMcp";
export type { McpHttp } from "./httpMcp";
export { serveStdio } from "./stdioMcp";
export { Upstream } from "./upstream";
export { createUpstreamManager } from "./upstreamManager";
export type { UpstreamManager } from "./upstreamManager";
export { SPILLWAY_VERSION } from "./version";
export { startEarlyStdio } from "./earlyStdio";
export type { StdinPrelude } from "./earlyStdio";
export { configFingerprint, readCachedAnswers } from "./toolsListCache";
export type { ListKey } from "./toolsListCache";
