/**
 * A small JSON Schema checker for the subset the service's OpenAPI documents
 * use ($ref, allOf, oneOf, anyOf, type with `nullable`, properties, required,
 * items, enum, minimum/maximum, pattern, additionalProperties, format uri/url/uuid),
 * and a lookup of an operation's request-body schema. Used by contract tests.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

type Schema = Record<string, unknown>;

/** Loads `test/fixtures/openapi/<name>.json`. */
export function loadOpenApi(name: "v1-openapi" | "v2-openapi"): Schema {
  const file = fileURLToPath(new URL(`../fixtures/openapi/${name}.json`, import.meta.url));
  return JSON.parse(readFileSync(file, "utf8")) as Schema;
}

/** The request-body schema of `METHOD path` (path as in the document, e.g. `/crawl`). */
export function requestSchema(doc: Schema, method: string, path: string): Schema {
  const op = ((doc.paths as Schema)[path] as Schema | undefined)?.[method.toLowerCase()] as Schema | undefined;
  const schema = (((op?.requestBody as Schema | undefined)?.content as Schema | undefined)?.["application/json"] as Schema | undefined)?.schema as Schema | undefined;
  if (!schema) throw new Error(`no request schema for ${method} ${path}`);
  return schema;
}

function resolve(doc: Schema, ref: string): Schema {
  let cur: unknown = doc;
  for (const part of ref.replace(/^#\//, "").split("/")) cur = (cur as Schema)[part];
  if (!cur) throw new Error(`unresolvable $ref ${ref}`);
  return cur as Schema;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function formatOk(format: string, v: string): boolean {
  if (format === "uri" || format === "url") {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  }
  if (format === "uuid") return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
  return true;
}

/** Every way `value` breaks `schema` (empty when it conforms). */
export function validate(doc: Schema, schema: Schema, value: unknown, at = "$"): string[] {
  if (typeof schema.$ref === "string") return validate(doc, resolve(doc, schema.$ref), value, at);
  const errors: string[] = [];
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf as Schema[]) errors.push(...validate(doc, s, value, at));
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as Schema[]).some((s) => validate(doc, s, value, at).length === 0)) errors.push(`${at}: matches no anyOf branch`);
  if (Array.isArray(schema.oneOf)) {
    const n = (schema.oneOf as Schema[]).filter((s) => validate(doc, s, value, at).length === 0).length;
    if (n !== 1) errors.push(`${at}: matches ${n} oneOf branches (expected exactly 1)`);
  }
  if (value === null && schema.nullable === true) return errors;
  const t = schema.type as string | undefined;
  const actual = typeOf(value);
  if (t && !(t === actual || (t === "number" && actual === "integer"))) return [...errors, `${at}: expected ${t}, got ${actual}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in enum ${JSON.stringify(schema.enum)}`);
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) errors.push(`${at}: ${value} < minimum ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) errors.push(`${at}: ${value} > maximum ${schema.maximum}`);
  }
  if (typeof value === "string") {
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
    if (typeof schema.format === "string" && !formatOk(schema.format, value)) errors.push(`${at}: not a valid ${schema.format}`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...validate(doc, schema.items as Schema, v, `${at}[${i}]`)));
  if (actual === "object") {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) errors.push(`${at}.${r}: required`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) errors.push(...validate(doc, props[k], v, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${k}: not allowed`);
      else if (typeof schema.additionalProperties === "object") errors.push(...validate(doc, schema.additionalProperties as Schema, v, `${at}.${k}`));
    }
  }
  return errors;
}

const V1_DOC = loadOpenApi("v1-openapi");

/** Problems of a request body against the v1 OpenAPI request schema of `METHOD /v1<path>`. */
export function v1BodyProblems(method: string, v1Path: string, body: unknown): string[] {
  return validate(V1_DOC, requestSchema(V1_DOC, method, v1Path.replace(/^\/v1/, "")), body);
}
