/**
 * zod's JSON Schema converters, each loaded the first time a schema needs it (a
 * chunk of its own in split bundles; `require` in the CommonJS build). The Node
 * entry hands over zod 4's up front (its `toJSONSchema` is in `zod/v4/core`,
 * loaded anyway); zod 3's stays on demand (zod-to-json-schema and zod 3, for
 * apps that pass zod 3 schemas only).
 */
import { OnDemand } from "../core/on-demand.js";
import type { ZodConverter } from "./schema-types.js";

/** The converters, by zod major. */
export const zodConverters = {
  zod4: new OnDemand<ZodConverter>("the zod 4 schema converter", () => import("./zod4-json.js").then((m) => m.zod4ToJsonSchema)),
  zod3: new OnDemand<ZodConverter>("the zod 3 schema converter", () => import("./zod3-json.js").then((m) => m.zod3ToJsonSchema)),
};
