/**
 * JSON Schema inputs for structured extraction. Every place the wire takes a
 * JSON Schema (json format, changeTracking, extract, agent) converts through
 * {@link toWireSchema}, in this one module.
 *
 * First cut: plain JSON Schema objects are copied (never mutated) with
 * `$schema` stripped. Zod and Standard Schema support is added by the typed
 * extraction work (issue 4).
 */
import type { JsonSchema } from "./scrape.js";

/** Anything accepted where the API takes a JSON Schema. */
export type SchemaInput = JsonSchema;

/** Converts a schema input to the JSON Schema sent on the wire (a fresh object; the input is never mutated). */
export function toWireSchema(input: SchemaInput): JsonSchema {
  const copy = structuredClone(input) as JsonSchema;
  delete copy.$schema;
  return copy;
}
