/** The engine surface: all that code outside core/engine may import (ARCHITECTURE.md, "Surfaces"). */
export { mediaOf } from "./callLedger";
export { createEngine } from "./engine";
export type { Engine } from "./engineApi";
export type { EngineEvent } from "./engineEvents";
export { OWN_TOOLS } from "./transform";
