/**
 * What both halves of the schema handling share (`./schema.ts`, the checks,
 * and the conversion below in `./schema.ts`, the conversion): the schema types, recognising a
 * Standard Schema, and the converter types.
 */
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

