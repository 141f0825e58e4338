/**
 * Schemas for structured (JSON) extraction. Every place the wire takes a JSON
 * Schema (the `json` format, `changeTracking`, `scrapeOptions` of crawl, batch
 * and search, extract, agent) converts through {@link wireSchema}, here.
 *
 * Accepted: a zod 4 schema (classic or mini, from `zod` 4 or zod 3.25's
 * `zod/v4`), a zod 3 classic schema, any Standard Schema that can emit JSON
 * Schema (`~standard.jsonSchema`, the "Standard JSON Schema" spec), or a plain
 * JSON Schema object. The caller's object is never mutated; `$schema` is
 * stripped; a schema the service would reject (reference §3.3) is a
 * `ValidationError` before anything is sent.
 *
 * Converters are zod's own: zod 4 classic schemas carry `toJSONSchema` in
 * `~standard.jsonSchema`; other zod 4 schemas go through `toJSONSchema` of
 * `zod/v4/core` (`./zod4-json.ts`, registered by `webdata/zod4`), zod 3 schemas through the
 * `zod-to-json-schema` library (`./zod3-json.ts`, registered by `webdata/zod3`).
 *
 * This module has the types and the `formats` and `validate` checks; the
 * conversion, the service's JSON Schema rules and result parsing are
 * `./schema-convert.ts`.
 */
import { ValidationError } from "../core/errors.js";
import type { JsonSchema } from "./zod-like.js";
import { validateDocumentsWith, wireSchema } from "./schema-convert.js";
import { isStandardSchema, type InferSchema, type SchemaInput, type StandardSchemaV1 } from "./schema-types.js";

export * from "./schema-types.js";
export { validateDocumentsWith, validateResult, wireSchema } from "./schema-convert.js";

/**
 * Converts a schema input (zod 4 or zod 3 schema, Standard Schema with JSON
 * Schema output, or plain JSON Schema) to the JSON Schema that would be sent:
 * a fresh object (the input is never mutated), without `$schema`, checked
 * against the service's JSON-schema rules. Rejects with `ValidationError`
 * naming `where`.
 */
export async function toWireSchema(input: SchemaInput, where = "schema"): Promise<JsonSchema> {
  return wireSchema(input, where);
}

export { ResultValidationError, type ResultIssue } from "../core/errors.js";

/** A `{ type, schema?, validate? }` entry of `formats`, loosely. */
interface SchemaFormat {
  type: string;
  schema?: SchemaInput;
  validate?: boolean;
}

function isSchemaFormat(f: unknown): f is SchemaFormat {
  return typeof f === "object" && f !== null && ((f as SchemaFormat).type === "json" || (f as SchemaFormat).type === "changeTracking");
}

/**
 * `formats` as sent on the wire: schemas converted, our own `validate` flag
 * removed; every other entry and key passes through unchanged (new objects,
 * the caller's are not touched; without a `json` or `changeTracking` object,
 * the caller's array itself, which nothing changes).
 */
export function wireFormats<F>(formats: readonly F[], where = "formats"): F[] {
  // Not an array: left for the option checks to report.
  if (!Array.isArray(formats)) return formats as F[];
  if (!formats.some(isSchemaFormat)) return formats as F[]; // nothing to convert: the same array (read only; the body is encoded at the call)
  return formats.map((f, i) => {
    if (!isSchemaFormat(f)) return f;
    const { validate, ...rest } = f;
    if (f.type === "json") resultSchema(f.schema, validate, `${where}.${i}.validate`, "formats");
    else if (validate !== undefined && typeof validate !== "boolean") {
      throw new ValidationError([{ path: `${where}.${i}.validate`, message: "must be a boolean" }], "formats");
    }
    if (rest.schema === undefined) return rest as F;
    return { ...rest, schema: wireSchema(rest.schema, `${where}.${i}.schema`) } as F;
  });
}

/**
 * The schema to parse a result with when the caller asked for `validate: true`,
 * else undefined. A `validate` that is not a boolean, or `validate: true` without a
 * zod / Standard Schema (a plain JSON Schema cannot parse), is a `ValidationError`
 * at `path`, before anything is sent.
 */
export function resultSchema(schema: unknown, validate: unknown, path: string, context = "options"): StandardSchemaV1 | undefined {
  if (validate !== undefined && typeof validate !== "boolean") throw new ValidationError([{ path, message: "must be a boolean" }], context);
  if (!validate) return undefined;
  if (!isStandardSchema(schema)) {
    throw new ValidationError([{ path, message: "validate: true needs a zod or Standard Schema `schema` to parse the result with" }], context);
  }
  return schema;
}

/** The schema of the first `json` format that asked for `validate: true`, if any. */
export function validatingSchema(formats: readonly unknown[] | undefined): StandardSchemaV1 | undefined {
  for (const f of formats ?? []) {
    if (isSchemaFormat(f) && f.type === "json" && f.validate === true && isStandardSchema(f.schema)) return f.schema;
  }
  return undefined;
}

/** Validates `doc.json` of each document against the `json` format's schema when it asked for `validate: true`. */
export function validateDocuments<D extends { json?: unknown; metadata?: { sourceURL?: unknown; url?: unknown } }>(
  formats: readonly unknown[] | undefined,
  docs: D[],
): Promise<D[]> {
  return validateDocumentsWith(validatingSchema(formats), docs);
}

/** A result type named by the caller (`T`), else the one inferred from the schema `S` (for extract and agent). */
export type SchemaResult<T, S> = [T] extends [never] ? InferSchema<S> : T;
