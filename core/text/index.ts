/** The text surface: all that code outside core/text may import (ARCHITECTURE.md, "Surfaces"). */
export { countLines, lineOfOffset, lineStarts } from "./lines";
export { stringDoc } from "./textDoc";
export type { TextDoc } from "./textDoc";
export { memberOf, readJsonSpans } from "./jsonSpans";
export type { JsonMember, JsonNode, JsonObjectNode, Span } from "./jsonSpans";
