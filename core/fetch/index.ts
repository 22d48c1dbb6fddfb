/** The fetch surface: all that code outside core/fetch may import (ARCHITECTURE.md, "Surfaces"). */
export { FETCH_ARG_NAMES, fetchToolShape } from "./fetchArgs";
export { runFetch } from "./fetchModes";
export type { FetchAnswer } from "./fetchTypes";
export { compilePattern } from "./grepPattern";
export { scanLines } from "./grepScan";
