/** The replay surface: all that code outside core/replay may import (ARCHITECTURE.md, "Surfaces"). */
export { replayCsv, replayJson, replayMarkdown } from "./export";
export { applyPolicyFile, loadPolicyFile, parsePolicy, policyFromConfig } from "./policy";
export { sessionReport, toolSavings } from "./report";
export { simulateSession } from "./simulate";
export type { ReplayCallInput } from "./simulate";
export type {
  PolicyTotals,
  ReplayAction,
  ReplayCallRow,
  ReplayPolicy,
  ReplayReport,
  ReplayRequestRow,
  ReplayScope,
  ReplaySessionReport,
  SessionInput,
  ToolSavings,
} from "./types";
