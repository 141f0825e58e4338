/**
 * Converting a user's schema to the JSON Schema sent on the wire (zod's own
 * converters, `./zod4-json.ts` and `./zod3-json.ts`, registered by
 * `webdata/zod4` and `webdata/zod3` only: `./zod-converters.ts`), the service's
 * JSON Schema rules (reference §3.3), and parsing a result with the caller's
 * schema. `./schema.ts` re-exports what the request path uses.
 */
import { ResultValidationError, ValidationError, type ValidationIssue } from "../core/errors.js";
import { isStandardSchema, type InferSchema, type SchemaInput, type StandardSchemaV1, type ZodConverters } from "./schema-types.js";
import { converterMissing, zodConverters } from "./zod-converters.js";
import { isZodSchema, zod4Options, type JsonSchema, type ZodLike } from "./zod-like.js";

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
 * Converts a schema input (zod 4 or zod 3 schema, Standard Schema with JSON
 * Schema output, or plain JSON Schema) to the JSON Schema sent on the wire:
 * a fresh object (the input is never mutated), without `$schema`, checked
 * against the service's JSON-schema rules. Throws `ValidationError` naming
 * `where`; a zod schema whose converter no import registered (`webdata/zod4`,
 * `webdata/zod3`) is one too. `toWireSchema` (`./schema.ts`) is its public,
 * asynchronous face.
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
    const src = doc.metadata?.sourceURL ?? doc.metadata?.url;
    doc.json = await validateResult(schema, doc.json, `json${typeof src === "string" ? ` of ${src}` : ""}`);
  }
  return docs;
}

