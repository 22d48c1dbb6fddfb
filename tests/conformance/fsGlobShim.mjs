// The conformance CLI imports fs.globSync (Node 22) for its tier-check command only; on Node 20
// its other commands run with this stand-in, which fails loudly if ever called.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL && context.parentURL.includes("@modelcontextprotocol/conformance")) {
    return { url: "data:text/javascript," + encodeURIComponent('export * from "node:fs"; import fs from "node:fs"; export default fs; export const globSync = fs.globSync ?? (() => { throw new Error("fs.globSync needs Node 22"); });'), shortCircuit: true };
  }
  return next(specifier, context);
}`),
);
