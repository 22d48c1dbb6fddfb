/** The home surface: all that code outside core/home may import (ARCHITECTURE.md, "Surfaces"). */
export { resolveConfig, resolveHome } from "./home";
