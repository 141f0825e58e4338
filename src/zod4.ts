/**
 * `webdata/zod4`: support for zod 4 schemas that carry no JSON Schema of their own.
 * Import it once, anywhere in an app that passes such schemas for extraction:
 *
 *     import "webdata/zod4";
 *
 * Which schemas need it: zod mini (`zod/mini`, `zod/v4/mini`), classic zod before 4.2,
 * and the `zod/v4` subpath of zod 3.25. It registers zod's own `toJSONSchema` (from
 * `zod/v4/core`, your app's zod), which the main entries never reach, so an app that
 * passes no such schema ships none of zod's JSON Schema code. Classic zod 4.2+ schemas
 * convert themselves (`~standard.jsonSchema`), as do other Standard JSON Schemas;
 * plain JSON Schema needs nothing; zod 3 schemas need `webdata/zod3`.
 */
import { zodConverters } from "./api/zod-converters.js";
import { zod4ToJsonSchema } from "./api/zod4-json.js";

zodConverters.zod4 = zod4ToJsonSchema;

/** The converter registered: JSON Schema (draft 7) of what a zod 4 schema accepts. */
export { zod4ToJsonSchema };
export type { JsonSchema, ZodLike } from "./api/zod-like.js";
