/** The http surface: all that code outside core/http may import (ARCHITECTURE.md, "Surfaces"). */
export { allowedOrigins } from "./guard";
export { readBody, readJson, sendError, sendJson, sendOk } from "./respond";
export { DEFAULT_MAX_BODY_BYTES, createHttpServer } from "./server";
export type { HttpEndpoint, RouteAuth } from "./server";
export { ensureToken, tokenMatches, tokenPath } from "./token";
