/** The home surface: all that code outside core/home may import (ARCHITECTURE.md, "Surfaces"). */
export { resolveConfig } from "./home";
export { configPath, resolveHome } from "./paths";
