/** The passref surface: all that code outside core/passref may import (ARCHITECTURE.md, "Surfaces"). */
export { expandArguments } from "./expand";
export type { Expansion } from "./expand";
