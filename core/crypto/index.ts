/** The crypto surface: all that code outside core/crypto may import (ARCHITECTURE.md, "Surfaces"). */
export { decrypt, encrypt, isEncrypted, keyId } from "./aead";
export { fileKeyProvider } from "./keys";
export type { KeyProvider } from "./keys";
