/**
 * JSON Schemas in the form OpenAI's strict mode (`strict: true`, structured
 * outputs) accepts: every object lists all its properties in `required` and has
 * `additionalProperties: false`; an optional property becomes nullable (the
 * model sends `null` for "not given"); a free-form object (a JSON Schema, a
 * record) becomes a JSON string; keywords strict mode does not support
 * (`minLength`, `maxLength`, `propertyNames`, `default`, unsupported `format`s,
 * ...) are dropped, their limits stated in the description instead.
 * `Tools.call` reads both forms back (`null` as not given, the JSON string parsed).
 */
import type { JsonSchemaObject } from "./spec.js";

/** The `format` values strict mode supports. */
export const STRICT_FORMATS: readonly string[] = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/** The keywords strict mode supports, besides the structural ones handled here. */
const KEPT = ["description", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems"] as const;

function said(description: unknown, extra: readonly string[]): string | undefined {
  const text = typeof description === "string" ? description : "";
  const more = extra.filter(Boolean).join("; ");
  if (!more) return text || undefined;
  return text ? `${text} (${more})` : `(${more})`;
}

/** Limits strict mode cannot state as keywords, in words. */
function limitsInWords(s: JsonSchemaObject): string[] {
  const out: string[] = [];
  const min = s.minLength as number | undefined;
  const max = s.maxLength as number | undefined;
  if (min !== undefined && max !== undefined) out.push(`${min}-${max} characters`);
  else if (max !== undefined) out.push(`at most ${max} characters`);
  else if (min !== undefined && min > 1) out.push(`at least ${min} characters`);
  else if (min === 1) out.push("not empty");
  if (typeof s.format === "string" && !STRICT_FORMATS.includes(s.format)) out.push(`format ${s.format}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

const isFreeForm = (s: JsonSchemaObject) => (s.type === "object" && !s.properties) || (s.type === undefined && !s.anyOf && !s.oneOf && !s.enum && s.const === undefined);

function nullable(s: JsonSchemaObject): JsonSchemaObject {
  if (Array.isArray(s.anyOf)) return { ...s, anyOf: [...(s.anyOf as JsonSchemaObject[]), { type: "null" }] };
  if (s.type === "object" || s.type === "array") {
    const { description, ...rest } = s;
    return { anyOf: [rest, { type: "null" }], ...(description === undefined ? {} : { description }) };
  }
  const out: JsonSchemaObject = { ...s, type: [s.type, "null"] };
  if (Array.isArray(s.enum)) out.enum = [...(s.enum as unknown[]), null];
  if (s.const !== undefined) {
    delete out.const;
    out.enum = [s.const, null];
  }
  return out;
}

function convert(s: JsonSchemaObject, optional: boolean): JsonSchemaObject {
  let out: JsonSchemaObject;
  if (isFreeForm(s)) {
    out = { type: "string", ...(said(s.description, ["a JSON object, written as a JSON string"]) ? { description: said(s.description, ["a JSON object, written as a JSON string"]) } : {}) };
  } else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    out = { anyOf: ((s.anyOf ?? s.oneOf) as JsonSchemaObject[]).map((b) => convert(b, false)) };
    if (s.description !== undefined) out.description = s.description;
  } else if (s.type === "object") {
    const props = s.properties as Record<string, JsonSchemaObject>;
    const required = new Set((s.required as string[] | undefined) ?? []);
    out = {
      type: "object",
      properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, convert(v, !required.has(k))])),
      required: Object.keys(props),
      additionalProperties: false,
    };
    if (s.description !== undefined) out.description = s.description;
  } else {
    out = { type: s.type };
    for (const k of KEPT) if (s[k] !== undefined) out[k] = s[k];
    if (s.type === "array" && s.items && typeof s.items === "object") out.items = convert(s.items as JsonSchemaObject, false);
    if (typeof s.format === "string" && STRICT_FORMATS.includes(s.format)) out.format = s.format;
    // zod states "any safe integer" as +-2^53-1: no limit worth a keyword.
    if (typeof out.maximum === "number" && out.maximum >= Number.MAX_SAFE_INTEGER) delete out.maximum;
    if (typeof out.minimum === "number" && out.minimum <= Number.MIN_SAFE_INTEGER) delete out.minimum;
    const description = said(s.description, limitsInWords(s));
    if (description !== undefined) out.description = description;
    else delete out.description;
  }
  return optional ? nullable(out) : out;
}

/** `schema` (an object schema) in the form OpenAI's strict mode accepts. A new object; the input is not changed. */
export function toStrictSchema(schema: JsonSchemaObject): JsonSchemaObject {
  return convert(schema, false);
}
