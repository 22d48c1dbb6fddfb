import pkg from "../../package.json" with { type: "json" };

/** The version Spillway reports as an MCP server and client, and `spillway --version` prints: package.json's. */
export const SPILLWAY_VERSION: string = pkg.version;
