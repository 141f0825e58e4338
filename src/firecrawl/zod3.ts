/**
 * The drop-in takes zod 3 schemas with no other import: the official client is built on zod 3
 * and converts its users' zod 3 schemas itself, so code moved with only the import changed passes zod 3
 * schemas. Each drop-in class registers webdata's zod 3 converter (the one `webdata/zod3` registers) when
 * it is constructed: a call in a constructor, which no bundler drops as an unused side effect. The root
 * entry never reaches this module, so a zod 4 app importing `webdata` still ships no zod 3 converter.
 */
import { zodConverters } from "../api/zod-converters.js";
import { zod3ToJsonSchema } from "../api/zod3-json.js";

/** Registers the zod 3 converter, unless one is (`webdata/zod3`'s, the same function). */
export function takeZod3Schemas(): void {
  zodConverters.zod3 ??= zod3ToJsonSchema;
}
