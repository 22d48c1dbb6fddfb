/** The rescue surface: all that code outside core/rescue may import (ARCHITECTURE.md, "Surfaces"). */
export { buildExcerpt, excerptBudget } from "./excerpt";
export { fmtInt, safeEnd } from "./format";
export { renderHandle } from "./handle";
export { detectKind, detectKindScanned } from "./kind";
