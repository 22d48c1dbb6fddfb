/** The audit surface: all that code outside core/audit may import (ARCHITECTURE.md, "Surfaces"). */
export { importHistory } from "./importRun";
export type { ImportProgress } from "./importRun";
export { replayHistory } from "./replayRun";
