/**
 * A JSON Schema validator for the SDK's Server and Client that loads and compiles nothing until a
 * validation actually runs. The SDK builds an Ajv instance per Server and Client and compiles a
 * validator for every upstream tool with an outputSchema as soon as it is listed; the proxy never
 * elicits and forwards tool results raw, so that was CPU and memory spent at startup for nothing.
 */
import { createRequire } from "node:module";
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

let shared: AjvJsonSchemaValidator | null = null;

function ajv(): AjvJsonSchemaValidator {
  if (!shared) {
    const { AjvJsonSchemaValidator: Provider } = createRequire(import.meta.url)(
      "@modelcontextprotocol/sdk/validation/ajv",
    ) as typeof import("@modelcontextprotocol/sdk/validation/ajv");
    shared = new Provider();
  }
  return shared;
}

/** The validator provider to pass as `jsonSchemaValidator`. */
export function lazySchemaValidator(): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      let compiled: JsonSchemaValidator<T> | null = null;
      return (input) => (compiled ??= ajv().getValidator<T>(schema))(input);
    },
  };
}
