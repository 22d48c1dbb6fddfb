/** The history surface: all that code outside core/history may import (ARCHITECTURE.md, "Surfaces"). */
export { throwIfAborted } from "./jsonLines";
export { planRequests } from "./requests";
export type { PlannedCall } from "./requests";
export { AGENT_SOURCES, listSessionFiles, parseAgent } from "./sources";
export type { HistorySession, ImportIssue, ImportProgress } from "./types";
