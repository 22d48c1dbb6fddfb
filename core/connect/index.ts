/** The connect surface: all that code outside core/connect may import (ARCHITECTURE.md, "Surfaces"). */
export { AGENTS, findAgent } from "./agents";
export type { Agent, ConnectContext } from "./agents";
export { connectContext } from "./context";
export { applyWrite } from "./write";
export type { HostEnv } from "./write";
