/** The hooks surface: all that code outside core/hooks may import (ARCHITECTURE.md, "Surfaces"). */
export { mountHooks } from "./hookRoutes";
export { ToolUseSessions } from "./toolUseSessions";
