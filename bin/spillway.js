#!/usr/bin/env node
// The `spillway` command. The CLI is TypeScript; tsx compiles it on load (and caches the result).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../core/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
