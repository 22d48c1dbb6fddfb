/** The sensitivity surface: all that code outside core/sensitivity may import (ARCHITECTURE.md, "Surfaces"). */
export { fetchArgSecrets, redactRuns } from "./fetchArgsMask";
export { maskJsonText } from "./jsonText";
export { labelResult, personalData, personalDataAsync } from "./labels";
export { lazyMaskingLogger, maskJsonValue, maskingLogger } from "./maskJson";
export { findSecrets, maskFindings, maskSecrets, mergeFindings } from "./secrets";
export type { SecretFinding } from "./secrets";
export { SensitiveViews } from "./views";
export type { ViewText } from "./views";
