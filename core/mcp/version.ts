/** The version Spillway reports as an MCP server and client. */
export const SPILLWAY_VERSION = "0.1.0";
