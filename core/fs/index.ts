/** The fs surface: all that code outside core/fs may import (ARCHITECTURE.md, "Surfaces"). */
export { DIR_MODE, FILE_MODE, TEMP_SUFFIX, ensurePrivateDir, safeUnlink, writeFileAtomic } from "./fsUtil";
