/** The store surface: all that code outside core/store may import (ARCHITECTURE.md, "Surfaces"). */
export { BlobStore, openStoreParts } from "./blobStore";
export type { StoreHooks } from "./blobStore";
export { OPENCODE_DB_FILE, openOpencodeDb } from "./foreign/opencodeDb";
export type { OpencodeDataRow, OpencodeDb } from "./foreign/opencodeDb";
export { HistoryStore } from "./history";
export type { Ledger, MediaRecord } from "./ledger";
export { enforceCap, sweep } from "./lifecycle";
export type { SweepReport } from "./lifecycle";
export { StoreReader } from "./read/reader";
export type { StoreHealth } from "./read/reader";
export type * from "./read/readModel";
export type { SavingsGroup } from "./read/savings";
export { rotateStoreKey } from "./rotate";
export type { SessionStore } from "./sessions";
export { openStartupIndex } from "./startupIndex";
export type { StartupIndex } from "./startupIndex";
export { storeToolCatalog } from "./toolCatalog";
export type { ToolCatalogView } from "./toolCatalog";
