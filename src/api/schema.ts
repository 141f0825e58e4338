/**
 * Schemas for structured (JSON) extraction. Every place the wire takes a JSON
 * Schema (the `json` format, `changeTracking`, `scrapeOptions` of crawl, batch
 * and search, extract, agent) converts through {@link toWireSchemaWith}, here.
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
 * `zod/v4/core` (`./zod4-json.ts`), zod 3 schemas through the
 * `zod-to-json-schema` library (`./zod3-json.ts`). Both modules are loaded the
 * first time such a schema is sent ({@link wireSchema}) or converted
 * ({@link toWireSchema}).
 */
import { ResultValidationError, ValidationError, type ValidationIssue } from "../core/errors.js";
import { OnDemand } from "../core/on-demand.js";
import { later } from "../core/later.js";
import { isZodSchema, zod4Options, type JsonSchema, type ZodLike } from "./zod-like.js";

export { isZodSchema, type ZodLike };

/** Converts a zod schema of one major version to JSON Schema (`./zod4-json.ts`, `./zod3-json.ts`). */
export type ZodConverter = (schema: ZodLike) => JsonSchema;

/** The converters at hand: zod 4 schemas without `~standard.jsonSchema`, and zod 3 schemas. */
export interface ZodConverters {
  /** zod 4 (`toJSONSchema` of `zod/v4/core`). */
  zod4?: ZodConverter | undefined;
  /** zod 3 (`zod-to-json-schema`). */
  zod3?: ZodConverter | undefined;
}

/** A JSON Schema object, as the wire takes it. */
export type { JsonSchema };
export { zod4Options };

/** The result of a Standard Schema `validate` call. */
export type StandardResult<O> =
  | { readonly value: O; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined }[] };

/** The Standard Schema v1 interface (https://standardschema.dev), implemented by zod 3.24+, zod 4, valibot, arktype, ... */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** Spec version (1). */
    readonly version: 1;
    /** The library (`zod`, `valibot`, ...). */
    readonly vendor: string;
    /** Validates a value. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Phantom input/output types. */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema converter, when the library offers one. */
    readonly jsonSchema?: StandardJSONSchemaConverter | undefined;
  };
}

/** `~standard.jsonSchema` of the Standard JSON Schema spec. */
export interface StandardJSONSchemaConverter {
  /** JSON Schema of the accepted input. */
  readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> | undefined }) => Record<string, unknown>;
  /** JSON Schema of the parsed output. */
  readonly output: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> | undefined }) => Record<string, unknown>;
}

declare const TYPE: unique symbol;

/** A plain JSON Schema with a result type named by the caller (see {@link typedJsonSchema}). */
export type TypedJsonSchema<T> = JsonSchema & { readonly [TYPE]?: T };

/** Anything accepted where the API takes a JSON Schema. */
export type SchemaInput = StandardSchemaV1 | JsonSchema;

/** The result type a schema describes: the output type of a zod / Standard Schema, the named type of a {@link TypedJsonSchema}, else `unknown`. */
export type InferSchema<S> =
  S extends { readonly "~standard": { readonly types?: infer T } } ? (NonNullable<T> extends { readonly output: infer O } ? O : unknown)
  : S extends { readonly [TYPE]?: infer T } ? (unknown extends T ? unknown : T)
  : unknown;

/** Names the result type of a plain JSON Schema: `typedJsonSchema<{ title: string }>({ type: "object", ... })`. Returns the same object. */
export function typedJsonSchema<T>(schema: JsonSchema): TypedJsonSchema<T> {
  return schema as TypedJsonSchema<T>;
}

/** True for a Standard Schema (zod 3.24+, zod 4, valibot, arktype, ...). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const std = (value as { "~standard"?: unknown } | null | undefined)?.["~standard"];
  return typeof std === "object" && std !== null && typeof (std as { validate?: unknown }).validate === "function";
}

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
        if (!zodConvert) throw new Error(`the ${need === "zod4" ? "zod 4" : "zod 3"} schema converter is not loaded`);
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
 * The zod converters, each loaded the first time a schema needs it (a chunk of its own in split
 * bundles; `require` in the CommonJS build). The Node entry hands over zod 4's up front (its
 * `toJSONSchema` is in `zod/v4/core`, loaded anyway); zod 3's stays on demand (zod-to-json-schema
 * and zod 3, for apps that pass zod 3 schemas only).
 */
export const zodConverters = {
  zod4: new OnDemand<ZodConverter>("the zod 4 schema converter", () => import("./zod4-json.js").then((m) => m.zod4ToJsonSchema)),
  zod3: new OnDemand<ZodConverter>("the zod 3 schema converter", () => import("./zod3-json.js").then((m) => m.zod3ToJsonSchema)),
};

/** The zod converters loaded (or handed over) so far. */
function loaded(): ZodConverters {
  return { zod4: zodConverters.zod4.now, zod3: zodConverters.zod3.now };
}

/**
 * {@link toWireSchemaWith} for request bodies: a schema whose zod converter is not
 * loaded yet gives a placeholder (`core/later.ts`) while the converter loads; the
 * schema object itself is captured now, so the request is the one of the call.
 * Call it only while building a request spec.
 */
export function wireSchema(input: SchemaInput, where = "schema"): JsonSchema {
  const need = converterFor(input);
  if (need && !zodConverters[need].now) return later(zodConverters[need].load().then(() => toWireSchemaWith(input, where, loaded())));
  return toWireSchemaWith(input, where, loaded());
}

/**
 * Converts a schema input (zod 4 or zod 3 schema, Standard Schema with JSON
 * Schema output, or plain JSON Schema) to the JSON Schema that would be sent:
 * a fresh object (the input is never mutated), without `$schema`, checked
 * against the service's JSON-schema rules. Rejects with `ValidationError`
 * naming `where`. Asynchronous because the zod converter a schema needs is
 * loaded on first use: a process (or bundle) that never converts a zod 3
 * schema never loads `zod-to-json-schema` and zod 3.
 */
export async function toWireSchema(input: SchemaInput, where = "schema"): Promise<JsonSchema> {
  const need = converterFor(input);
  if (need) await zodConverters[need].load();
  return toWireSchemaWith(input, where, loaded());
}

/**
 * Converts a schema input to the JSON Schema sent on the wire: a fresh object
 * (the input is never mutated), without `$schema`, checked against the
 * service's JSON-schema rule. Throws `ValidationError` naming `where`.
 */
export function toWireSchemaWith(input: SchemaInput, where = "schema", converters: ZodConverters = {}): JsonSchema {
  let out: JsonSchema;
  let issues: ValidationIssue[];
  try {
    out = convert(input, where, converters);
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

export { ResultValidationError, type ResultIssue } from "../core/errors.js";

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
 * the caller's are not touched).
 */
export function wireFormats<F>(formats: readonly F[], where = "formats"): F[] {
  // Not an array: left for the option checks to report.
  if (!Array.isArray(formats)) return formats as F[];
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

/** A result type named by the caller (`T`), else the one inferred from the schema `S` (for extract and agent). */
export type SchemaResult<T, S> = [T] extends [never] ? InferSchema<S> : T;
