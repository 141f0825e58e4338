/**
 * zod's JSON Schema converters. zod 4's is loaded the first time a schema needs
 * it (a chunk of its own in split bundles; `require` in the CommonJS build; the
 * Node and server entries hand it over up front). zod 3's (zod-to-json-schema
 * and zod 3, about 20 KB gzipped) is never reached from the package's entries:
 * an app that passes zod 3 schemas registers it once with `import "webdata/zod3"`,
 * so a zod 4 app's bundle has none of it. Without it, a zod 3 schema is a
 * `ValidationError` naming that import ({@link zod3Missing}).
 */
import { ValidationError } from "../core/errors.js";
import { OnDemand } from "../core/on-demand.js";
import type { ZodConverter } from "./schema-types.js";

/** The converters, by zod major. */
export const zodConverters = {
  zod4: new OnDemand<ZodConverter>("the zod 4 schema converter", () => import("./zod4-json.js").then((m) => m.zod4ToJsonSchema)),
  zod3: new OnDemand<ZodConverter>("the zod 3 schema converter", () => Promise.reject(zod3Missing("schema"))), // provided by webdata/zod3 only
};

/** The error of a zod 3 schema met before `import "webdata/zod3"` registered its converter. */
export function zod3Missing(where: string): ValidationError {
  return new ValidationError([{ path: where, message: 'is a zod 3 schema: add import "webdata/zod3" once in your app (zod 4 schemas need nothing)' }], "schema");
}
