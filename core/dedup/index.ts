/** The dedup surface: all that code outside core/dedup may import (ARCHITECTURE.md, "Surfaces"). */
export { canonicalJson, decideDedup, renderStub, streakKey } from "./dedup";
export { nearDuplicateBase, renderNearStub } from "./nearDup";
export { echoedArgument, renderEchoStub } from "./echo";
export type { NearBase } from "./nearDup";
