/**
 * zod 3 classic schemas converted by the `zod-to-json-schema` library, which
 * keeps every constraint zod 3 can express. Registered by `webdata/zod3` only
 * (only apps that import it load it, and zod 3 with it).
 */
import { zodToJsonSchema } from "zod-to-json-schema";
import type { JsonSchema, ZodLike } from "./zod-like.js";

/** JSON Schema (draft 7) of a zod 3 schema; objects get `additionalProperties: false` only when `.strict()` (as zod 4 converts input schemas). */
export function zod3ToJsonSchema(schema: ZodLike): JsonSchema {
  return zodToJsonSchema(schema as unknown as Parameters<typeof zodToJsonSchema>[0], { target: "jsonSchema7", removeAdditionalStrategy: "strict", allowedAdditionalProperties: undefined }) as JsonSchema;
}
