/**
 * zod 4 schemas without `~standard.jsonSchema` (zod 4 mini, and zod 3.25's
 * `zod/v4`) converted by zod's own `toJSONSchema` from `zod/v4/core` (the
 * application's zod: a peer dependency). Registered by `webdata/zod4` only.
 */
import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { zod4Options, type JsonSchema, type ZodLike } from "./zod-like.js";

/** JSON Schema (draft 7) of the input a zod 4 schema accepts; `z.date()` becomes a `date-time` string. */
export function zod4ToJsonSchema(schema: ZodLike): JsonSchema {
  return toJSONSchema(schema as unknown as $ZodType, { target: "draft-7", io: "input", ...zod4Options } as Parameters<typeof toJSONSchema>[1]) as JsonSchema;
}
