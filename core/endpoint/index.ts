/** The endpoint surface: all that code outside core/endpoint may import (ARCHITECTURE.md, "Surfaces"). */
export { startEndpoint } from "./endpoint";
export type { RunningEndpoint } from "./endpoint";
