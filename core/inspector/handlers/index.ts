/** The inspector/handlers surface: all that code outside core/inspector/handlers may import (ARCHITECTURE.md, "Surfaces"). */
export { BlobViews } from "./blobViews";
export { createDispatch } from "./dispatch";
export type { Dispatch } from "./dispatch";
export { createHandlers } from "./handlers";
export type { EndpointControl, InspectorHost, ToolHost } from "./host";
