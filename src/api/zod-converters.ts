/**
 * zod's JSON Schema converters, for the schemas that cannot convert themselves.
 * Neither is reached from the package's main entries: an app registers the one
 * its schemas need, once, with `import "webdata/zod4"` (zod mini, classic zod
 * before 4.2, zod 3.25's `zod/v4`: zod's `toJSONSchema`) or `import "webdata/zod3"`
 * (zod 3: zod-to-json-schema and zod 3, about 20 KB gzipped). So an app whose schemas
 * are classic zod 4.2+ (they carry `~standard.jsonSchema`), other Standard JSON
 * Schemas or plain JSON Schema ships neither. Without its import, such a schema is a
 * `ValidationError` naming it ({@link converterMissing}), before anything is sent.
 */
import { ValidationError } from "../core/errors.js";
import type { ZodConverters } from "./schema-types.js";

/** The converters registered, by zod major: set by `webdata/zod4` and `webdata/zod3` only. */
export const zodConverters: ZodConverters = {};

const WHICH: Record<keyof ZodConverters, string> = {
  zod4: "is a zod 4 schema without a JSON Schema of its own (zod mini, zod before 4.2, or zod 3.25's zod/v4)",
  zod3: "is a zod 3 schema",
};

/** The error of a zod schema met before `import "webdata/zod4"` (or `"webdata/zod3"`) registered its converter. */
export function converterMissing(need: keyof ZodConverters, where: string): ValidationError {
  return new ValidationError(
    [{ path: where, message: `${WHICH[need]}: add import "webdata/${need}" once in your app (classic zod 4.2+ schemas need nothing)` }],
    "schema",
  );
}
