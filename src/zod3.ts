/**
 * `webdata/zod3`: support for zod 3 schemas. Import it once, anywhere in an app
 * that passes zod 3 schemas (zod 3.x, or `zod/v3` of zod 3.25+) for extraction:
 *
 *     import "webdata/zod3";
 *
 * It registers the zod 3 converter (the `zod-to-json-schema` library), which the
 * main entries never reach, so a zod 4 app's bundle carries neither it nor zod 3.
 * zod 4 schemas, Standard Schemas and plain JSON Schema need nothing.
 */
import { zodConverters } from "./api/zod-converters.js";
import { zod3ToJsonSchema } from "./api/zod3-json.js";

zodConverters.zod3 = zod3ToJsonSchema;

/** The converter registered: JSON Schema (draft 7) of a zod 3 schema. */
export { zod3ToJsonSchema };
export type { JsonSchema, ZodLike } from "./api/zod-like.js";
