/**
 * A compact zod -> JSON Schema (draft-07) converter for the schemas that do
 * not carry their own converter: zod 3 (`_def.typeName`) and zod 4 mini
 * (`_zod.def`, no `~standard.jsonSchema`). It covers what structured
 * extraction needs: objects, strings (with common formats), numbers and
 * integers, booleans, arrays, tuples, enums, literals, optionals, nullables,
 * defaults, unions, intersections, records, dates (as date-time strings),
 * lazy (one level of recursion) and descriptions. Effects, pipes, brands,
 * readonly and catch convert as their input schema.
 *
 * It reads zod's internal definitions by shape and imports nothing from zod,
 * so it costs about a kilobyte and works with whichever zod the caller has.
 */

import { isZodSchema, type ZodLike } from "./zod-like.js";

export { isZodSchema, type ZodLike };

type Def = Record<string, unknown>;

function defOf(s: ZodLike): Def {
  return (s._zod?.def ?? s._def ?? {}) as Def;
}

/** zod 3 `ZodString` -> `string`; zod 4 `def.type` as is. */
function kindOf(s: ZodLike): string {
  if (s._zod) return String(s._zod.def.type);
  return String(s._def?.typeName ?? "").replace(/^Zod/, "").toLowerCase();
}

function isOptional(s: ZodLike): boolean {
  if (s._zod) return s._zod.optin === "optional";
  const fn = (s as { isOptional?: () => boolean }).isOptional;
  return typeof fn === "function" ? fn.call(s) : false;
}

function describe(s: ZodLike): string | undefined {
  const d = (s as { description?: unknown }).description ?? s._def?.description;
  if (typeof d === "string") return d;
  if (!s._zod) return undefined;
  const reg = (globalThis as { __zod_globalRegistry?: { get(s: unknown): { description?: unknown } | undefined } }).__zod_globalRegistry;
  const meta = reg?.get(s)?.description;
  return typeof meta === "string" ? meta : undefined;
}

const FORMATS: Record<string, string> = { email: "email", url: "uri", uuid: "uuid", datetime: "date-time", date: "date", time: "time", ipv4: "ipv4", ipv6: "ipv6" };

function stringSchema(s: ZodLike, d: Def): Def {
  const out: Def = { type: "string" };
  const checks = (d.checks ?? []) as Def[];
  const fmt = typeof d.format === "string" ? d.format : undefined;
  for (const c of checks) {
    const kind = (c.kind ?? (c._zod as { def?: Def } | undefined)?.def?.format ?? (c._zod as { def?: Def } | undefined)?.def?.check) as string | undefined;
    const cd = (c._zod as { def?: Def } | undefined)?.def ?? c;
    if (kind && FORMATS[kind]) out.format = FORMATS[kind];
    if (kind === "min" || kind === "min_length") out.minLength = cd.value ?? cd.minimum;
    if (kind === "max" || kind === "max_length") out.maxLength = cd.value ?? cd.maximum;
  }
  if (fmt && FORMATS[fmt]) out.format = FORMATS[fmt];
  void s;
  return out;
}

function isInt(d: Def): boolean {
  if (typeof d.format === "string" && /int/.test(d.format)) return true;
  return ((d.checks ?? []) as Def[]).some((c) => c.kind === "int" || /int/.test(String((c._zod as { def?: Def } | undefined)?.def?.format ?? "")));
}

/** Converts a zod 3 or zod 4 schema to a draft-07 JSON Schema. Throws for kinds with no JSON equivalent. */
export function zodToJsonSchema(schema: ZodLike): Def {
  return conv(schema, []);
}

function conv(s: ZodLike, stack: ZodLike[]): Def {
  if (stack.includes(s) || stack.length > 32) return {};
  const next = [...stack, s];
  const d = defOf(s);
  const c = (x: unknown): Def => conv(x as ZodLike, next);
  let out: Def;
  switch (kindOf(s)) {
    case "string": out = stringSchema(s, d); break;
    case "number": out = { type: isInt(d) ? "integer" : "number" }; break;
    case "bigint": out = { type: "integer" }; break;
    case "boolean": out = { type: "boolean" }; break;
    case "date": out = { type: "string", format: "date-time" }; break;
    case "null": out = { type: "null" }; break;
    case "any": case "unknown": out = {}; break;
    case "literal": {
      const values = (Array.isArray(d.values) ? d.values : [d.value]) as unknown[];
      out = values.length === 1 ? { const: values[0] } : { enum: values };
      break;
    }
    case "enum": {
      const values = Array.isArray(d.values) ? d.values : Object.values((d.entries ?? {}) as Def);
      out = { type: typeof values[0] === "number" ? "number" : "string", enum: values };
      break;
    }
    case "nativeenum": {
      const obj = (d.values ?? {}) as Def;
      const values = Object.entries(obj).filter(([k]) => typeof obj[obj[k] as string] !== "number").map(([, v]) => v);
      out = { enum: values };
      break;
    }
    case "array": out = { type: "array", items: c(d.element ?? d.type) }; break;
    case "set": out = { type: "array", uniqueItems: true, items: c(d.valueType) }; break;
    case "tuple": out = { type: "array", items: ((d.items ?? []) as unknown[]).map(c) }; break;
    case "object": {
      const shape = (typeof d.shape === "function" ? (d.shape as () => Def)() : d.shape ?? {}) as Record<string, ZodLike>;
      const properties: Def = {};
      const required: string[] = [];
      for (const [k, v] of Object.entries(shape)) {
        properties[k] = c(v);
        if (!isOptional(v)) required.push(k);
      }
      out = { type: "object", properties };
      if (required.length) out.required = required;
      const catchall = d.catchall as ZodLike | undefined;
      // zod 3: `.strict()` sets unknownKeys (its default catchall is ZodNever, so only zod 4's catchall counts).
      if (d.unknownKeys === "strict" || (s._zod && catchall && kindOf(catchall) === "never")) out.additionalProperties = false;
      break;
    }
    case "record": out = { type: "object", additionalProperties: c(d.valueType) }; break;
    case "map": out = { type: "object", additionalProperties: c(d.valueType) }; break;
    case "union": case "discriminatedunion": {
      const opts = d.options instanceof Map ? [...d.options.values()] : (d.options as unknown[]);
      out = { anyOf: opts.map(c) };
      break;
    }
    case "intersection": out = { allOf: [c(d.left), c(d.right)] }; break;
    case "optional": case "nonoptional": case "readonly": case "catch": case "promise":
      out = { ...c(d.innerType ?? d.type) };
      break;
    case "nullable": out = { anyOf: [c(d.innerType), { type: "null" }] }; break;
    case "default": case "prefault": {
      out = { ...c(d.innerType) };
      const dv = typeof d.defaultValue === "function" ? (d.defaultValue as () => unknown)() : d.defaultValue;
      if (dv !== undefined) out.default = dv;
      break;
    }
    case "effects": out = { ...c(d.schema) }; break;
    case "branded": out = { ...c(d.type) }; break;
    case "pipeline": case "pipe": out = { ...c(d.in) }; break;
    case "lazy": out = { ...c((d.getter as () => unknown)()) }; break;
    case "transform": out = {}; break;
    default:
      throw new Error(`zod type "${kindOf(s)}" has no JSON Schema equivalent`);
  }
  const desc = describe(s);
  if (desc !== undefined) out.description = desc;
  return out;
}
