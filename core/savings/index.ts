/** The savings surface: all that code outside core/savings may import (ARCHITECTURE.md, "Surfaces"). */
export { createTokenCounter } from "./tokens";
export type { TokenCounter, TokenMeasure } from "./tokens";
