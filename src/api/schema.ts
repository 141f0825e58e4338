/**
 * Schemas for structured (JSON) extraction. Every place the wire takes a JSON
 * Schema (the `json` format, `changeTracking`, `scrapeOptions` of crawl, batch
 * and search, extract, agent) converts through {@link wireSchema}, here
 * (what it accepts and does: {@link toWireSchema}).
 *
 * Converters are zod's own: zod 4 classic schemas carry `toJSONSchema` in
 * `~standard.jsonSchema`; other zod 4 schemas go through `toJSONSchema` of
 * `zod/v4/core` (`./zod4-json.ts`, registered by `webdata/zod4`), zod 3 schemas through the
 * `zod-to-json-schema` library (`./zod3-json.ts`, registered by `webdata/zod3`).
 */
import { ResultValidationError, ValidationError, type ValidationIssue } from "../core/errors.js";
import { isZodSchema, type JsonSchema, zod4Options, type ZodLike } from "./zod-like.js";
import { type InferSchema, isStandardSchema, type SchemaInput, type StandardSchemaV1, type ZodConverters } from "./schema-types.js";
import { converterMissing, zodConverters } from "./zod-converters.js";
import { requestedUrl } from "./document.js";

export * from "./schema-types.js";

/**
 * Converts a schema input to the JSON Schema that would be sent: a zod 4 schema
 * (classic or mini, from `zod` 4 or zod 3.25's `zod/v4`), a zod 3 classic schema,
 * any Standard Schema that can emit JSON Schema (`~standard.jsonSchema`, the
 * "Standard JSON Schema" spec), or a plain JSON Schema object. The result is a
 * fresh object (the input is never mutated), without `$schema`, checked against
 * the service's JSON-schema rules (reference §3.3). Rejects with `ValidationError`
 * naming `where`, before anything is sent.
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

const cache = new WeakMap<object, JsonSchema>();

/** Which zod converter `input` needs, if any (a zod 4 classic schema converts itself through `~standard.jsonSchema`). */
function converterFor(input: unknown): keyof ZodConverters | undefined {
  if (!isZodSchema(input)) return undefined;
  if (typeof (input as Partial<StandardSchemaV1>)["~standard"]?.jsonSchema?.input === "function") return undefined;
  return input._zod ? "zod4" : "zod3";
}

function convert(input: SchemaInput, where: string, converters: ZodConverters): JsonSchema {
  if (isStandardSchema(input) || isZodSchema(input)) {
    const cached = cache.get(input);
    if (cached) return structuredClone(cached);
    let out: JsonSchema;
    const need = converterFor(input);
    try {
      const conv = (input as StandardSchemaV1)["~standard"]?.jsonSchema;
      if (need) {
        const zodConvert = converters[need];
        if (!zodConvert) throw converterMissing(need, where);
        out = zodConvert(input as ZodLike);
      } else if (conv && typeof conv.input === "function") {
        const std = (input as StandardSchemaV1)["~standard"];
        out = conv.input({ target: "draft-07", libraryOptions: std.vendor === "zod" ? zod4Options : undefined });
      } else {
        throw new Error(`a ${(input as StandardSchemaV1)["~standard"].vendor} schema without ~standard.jsonSchema cannot be converted; pass a JSON Schema object instead`);
      }
    } catch (err) {
      if (err instanceof ValidationError) throw err;
      throw new ValidationError([{ path: where, message: `could not convert the schema to JSON Schema: ${err instanceof Error ? err.message : String(err)}` }], "schema");
    }
    delete out.$schema;
    cache.set(input, out);
    return structuredClone(out);
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ValidationError([{ path: where, message: "must be a JSON Schema object, a zod schema or a Standard Schema" }], "schema");
  }
  const copy = structuredClone(input as JsonSchema);
  delete copy.$schema;
  return copy;
}

/**
 * {@link toWireSchema}, synchronous (that is its public, asynchronous face): throws `ValidationError` naming
 * `where`; a zod schema whose converter no import registered (`webdata/zod4`, `webdata/zod3`) is one too.
 */
export function wireSchema(input: SchemaInput, where = "schema"): JsonSchema {
  let out: JsonSchema;
  let issues: ValidationIssue[];
  try {
    out = convert(input, where, zodConverters);
    issues = wireSchemaIssues(out, where);
  } catch (err) {
    // A schema nested past the stack (thousands of levels) cannot be converted or sent.
    if (err instanceof RangeError) throw new ValidationError([{ path: where, message: "is nested too deeply to convert or send" }], "schema");
    throw err;
  }
  if (issues.length) throw new ValidationError(issues, "schema");
  return out;
}

function isObjectType(s: JsonSchema): boolean {
  return s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
}

/** The problems the service would reject a JSON Schema for (reference §3.3), by path. */
export function wireSchemaIssues(schema: JsonSchema, where = "schema"): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const top = schema.type;
  if (!isObjectType(schema) && schema.properties === undefined && schema.$ref === undefined) {
    issues.push({
      path: where,
      message: `the top-level schema must describe an object (type "object" with properties), got ${top === undefined ? "no type" : `type ${JSON.stringify(top)}`}; wrap it, e.g. { type: "object", properties: { items: ... } }`,
    });
  }
  walk(schema, where, issues, new Set());
  return issues;
}

function walk(s: unknown, path: string, issues: ValidationIssue[], seen: Set<unknown>): void {
  if (typeof s !== "object" || s === null || seen.has(s)) return;
  seen.add(s);
  if (Array.isArray(s)) {
    s.forEach((x, i) => walk(x, `${path}.${i}`, issues, seen));
    return;
  }
  const o = s as JsonSchema;
  if (isObjectType(o) && o.properties === undefined && o.patternProperties === undefined && (o.additionalProperties === undefined || o.additionalProperties === true)) {
    issues.push({
      path,
      message: "an object schema needs properties (or patternProperties): an object that allows any keys is rejected by the service (\"Schema contains invalid structure for OpenAI\")",
    });
  }
  for (const key of ["properties", "patternProperties", "definitions", "$defs"]) {
    const rec = o[key];
    if (typeof rec === "object" && rec !== null) for (const [k, v] of Object.entries(rec)) walk(v, `${path}.${key}.${k}`, issues, seen);
  }
  for (const key of ["items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems", "not"]) {
    if (o[key] !== undefined) walk(o[key], `${path}.${key}`, issues, seen);
  }
}

function issuePath(path: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined): string {
  return (path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p)).join(".");
}

/**
 * Parses `value` with the caller's schema (a Standard Schema; zod 3 and 4 are
 * Standard Schemas). Returns the parsed value or throws {@link ResultValidationError}.
 */
export async function validateResult<S extends SchemaInput>(schema: S, value: unknown, where: string): Promise<InferSchema<S>> {
  if (!isStandardSchema(schema)) return value as InferSchema<S>;
  const result = await schema["~standard"].validate(value);
  if (result.issues) {
    throw new ResultValidationError(result.issues.map((i) => ({ path: issuePath(i.path), message: i.message })), value, where);
  }
  return result.value as InferSchema<S>;
}

/** Parses `doc.json` of each document (that has one) with `schema`; `ResultValidationError` names the document's URL and the path. No schema: unchanged. */
export async function validateDocumentsWith<D extends { json?: unknown; metadata?: { sourceURL?: unknown; url?: unknown } }>(
  schema: StandardSchemaV1 | undefined,
  docs: D[],
): Promise<D[]> {
  if (!schema) return docs;
  for (const doc of docs) {
    if (!("json" in doc)) continue;
    const src = requestedUrl(doc);
    doc.json = await validateResult(schema, doc.json, `json${src === undefined ? "" : ` of ${src}`}`);
  }
  return docs;
}

