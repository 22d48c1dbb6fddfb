/** The connect surface: all that code outside core/connect may import (ARCHITECTURE.md, "Surfaces"). */
export { AGENTS, findAgent } from "./agents";
export type { Agent, ConnectContext } from "./agents";
export { connectContext } from "./context";
export { applyRemove, applyWrite } from "./write";
export type { HostEnv, WriteResult } from "./write";
