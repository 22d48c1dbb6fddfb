/** The search surface: all that code outside core/search may import (ARCHITECTURE.md, "Surfaces"). */
export { queryTerms } from "./queryTerms";
export { BlobScan } from "./scanSearch";
export { openSearchIndex, scratchSearchIndex, searchMigrationSql } from "./searchIndex";
export type { SearchHit, SearchIndex, SearchOptions } from "./searchIndex";
export { centreSnippet } from "./snippet";
