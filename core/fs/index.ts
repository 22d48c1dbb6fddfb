/** The fs surface: all that code outside core/fs may import (ARCHITECTURE.md, "Surfaces"). */
export {
  DIR_MODE,
  FILE_MODE,
  TEMP_SUFFIX,
  backgroundFlushes,
  ensurePrivateDir,
  inBackground,
  replaceFile,
  safeUnlink,
  stageFileAtomic,
  writeFileAtomic,
} from "./fsUtil";
export type { OpenTemp, StagedFile } from "./fsUtil";
export { SPARE_MAX_AGE_MS, SpareTemp } from "./spareTemp";
