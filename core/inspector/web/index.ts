/** The inspector/web surface: all that code outside core/inspector/web may import (ARCHITECTURE.md, "Surfaces"). */
export { DEFAULT_STATIC_DIR, mountInspector } from "./webRoutes";
export { mcpClients } from "./webEndpoint";
