/**
 * Input validation before anything is sent. Schemas are written with
 * `zod/v4/mini` (zod is a peer dependency: the application's own zod 4, or
 * zod 3.25+ through its `zod/v4` subpath) and built once per module; issues
 * are turned into words a person can act on here, so no zod locale is needed.
 */
import * as z from "zod/v4/mini";
import type { $ZodCheck, $ZodIssue, $ZodType } from "zod/v4/core";
import { ValidationError, type ValidationIssue } from "./errors.js";

/**
 * Parses `value` with `schema`; throws {@link ValidationError} listing every problem. Returns the value unchanged (never a stripped copy).
 * `apart`: a field of an object schema that varies from call to call (a scrape's `url`) and that no check of
 * the schema reads but the field's own: the verdicts remembered leave it out, and it is checked alone on a hit
 * (a failing field falls back to the whole parse, so the issues are those of a first check).
 * Call it inside an endpoint's builders (`body: (url, opts) => check(...)`, run by `api/endpoint.ts`
 * `send` when the request is built) so the error rejects the returned promise instead of throwing synchronously.
 */
export function check<T>(schema: $ZodType, value: T, context: string, apart?: string): T {
  const key = jsonKey(apart === undefined ? value : without(value, apart));
  if (key !== undefined && verdicts.get(schema)?.has(key) && (apart === undefined || fieldAccepts(schema, value, apart))) return value;
  const s = cutTo(schema, value);
  // Valid input takes zod's fast path (no parse options). Invalid input is parsed again with a
  // per-parse error map that marks zod's default messages, so ours are used even when an
  // application loaded classic `zod` or a zod locale (which set messages globally).
  if (z.safeParse(s, value).success) {
    if (key !== undefined) remember(schema, key);
    return value;
  }
  const result = z.safeParse(s, value, MARK_DEFAULTS);
  if (result.success) return value;
  const issues = result.error.issues.map((i) => describeIssue(i, value));
  const zodIssues = result.error.issues.map((i, n) => ({ ...i, message: issues[n]!.message }));
  throw new ValidationError(issues, context, zodIssues);
}

/** `value` (a plain object) without its field `field`; anything else as it is (its key is then `undefined`, as for any value not made of JSON). */
function without(value: unknown, field: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const { [field]: _apart, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** True when the shape's own schema of `field` (of an object `schema`) accepts `value[field]`. */
function fieldAccepts(schema: $ZodType, value: unknown, field: string): boolean {
  const shape = (schema._zod.def as unknown as { shape?: Record<string, $ZodType> }).shape;
  const own = shape?.[field];
  return own !== undefined && z.safeParse(own, (value as Record<string, unknown>)[field]).success;
}

/**
 * The values each schema has accepted, as JSON text (at most 64 a schema, each at most 2,000 characters),
 * so that the same options sent again (a loop of scrapes with one literal) skip zod. In the Node entry's
 * loop against a server in another process, where many schemas share zod's parse functions and the
 * network code runs between calls, the check of `{ formats: ["markdown"] }` cost about 10% of a call's
 * CPU (measured: bench/README.md). Only a value made of JSON alone is remembered ({@link jsonKey}): every
 * rule reads the value and nothing else, so the verdict is a function of the schema and the JSON text. A
 * rejected value is never remembered: it is parsed again, for its issues.
 */
const verdicts = new WeakMap<$ZodType, Set<string>>();

function remember(schema: $ZodType, key: string): void {
  let known = verdicts.get(schema);
  if (!known) verdicts.set(schema, (known = new Set()));
  if (known.size < 64) known.add(key);
}

/** Longest JSON text remembered; a larger value is checked every time. */
const KEY_CHARS = 2000;

/**
 * The JSON text of `value` when it is an object or array of JSON and nothing else: plain objects (no
 * class, no `undefined` field, no inherited enumerable key), dense arrays, strings, booleans, `null` and
 * finite numbers other than `-0`; at most 200 values, nested at most 16 deep. Anything else (a signal, a
 * schema, a Blob, a Date, a function, NaN) gives `undefined`: such a value is checked every time.
 */
export function jsonKey(value: unknown): string | undefined {
  let budget = 200;
  const plain = (v: unknown, depth: number): boolean => {
    if (--budget < 0 || depth > 16) return false;
    if (v === null || typeof v === "string" || typeof v === "boolean") return true;
    if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0);
    if (typeof v !== "object") return false;
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) return false;
      for (let i = 0; i < v.length; i++) if (!(i in v) || !plain(v[i], depth + 1)) return false;
      return true;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) return false;
      if (!plain((v as Record<string, unknown>)[k], depth + 1)) return false;
    }
    return true;
  };
  if (value === null || typeof value !== "object" || !plain(value, 0)) return undefined;
  const text = JSON.stringify(value);
  return text.length <= KEY_CHARS ? text : undefined;
}

/** The object schemas cut so far, by the schema and then by the input's own keys (at most 32 lists a schema). */
const cuts = new WeakMap<$ZodType, Map<string, $ZodType>>();

/**
 * `schema` (an object schema) without the optional fields `value` does not have: the same
 * checks, catchall and issues (a field absent from the value passes an optional field, and
 * required fields are always kept; a key JSON does not send, inherited or not enumerable, may
 * go unchecked), but zod runs a field for each key the value has instead of each of the shape
 * (a request's options: 3 keys given of 30 known). Cut once per key list, with zod's own
 * `clone`; any other schema or value is returned as it is.
 */
function cutTo(schema: $ZodType, value: unknown): $ZodType {
  const def = schema._zod.def as unknown as { type: string; shape: Record<string, $ZodType> };
  if (def.type !== "object" || value == null) return schema;
  const own = Object.keys(value); // what JSON sends: own enumerable keys
  const id = JSON.stringify(own);
  const byKeys = cuts.get(schema) ?? new Map<string, $ZodType>();
  cuts.set(schema, byKeys);
  let cut = byKeys.get(id);
  if (!cut && byKeys.size < 32) {
    const shape = Object.entries(def.shape).filter(([k, f]) => own.includes(k) || f._zod.optin !== "optional");
    byKeys.set(id, (cut = z.clone(schema, { ...def, shape: Object.fromEntries(shape) } as never)));
  }
  return cut ?? schema;
}

/** Marks an issue whose message zod would have chosen (not one of ours). */
const DEFAULT_MESSAGE = "\u0000default";
const MARK_DEFAULTS = { error: () => DEFAULT_MESSAGE };

/**
 * The issues of `value` against `schema`, for a rule that checks part of a value with a schema chosen
 * at run time (a format by its `type`): push them into the rule's context and {@link check} words them
 * as its own, paths included.
 */
export function issuesOf(schema: $ZodType, value: unknown): RuleContext["issues"] {
  const result = z.safeParse(schema, value, MARK_DEFAULTS);
  return result.success ? [] : (result.error.issues as unknown as RuleContext["issues"]);
}

/** The fields of a zod issue that {@link describeIssue} reads (any `$ZodIssue` fits). */
export interface RawIssue {
  code: string;
  path: PropertyKey[];
  message?: string | undefined;
  expected?: string | undefined;
  origin?: string | undefined;
  minimum?: number | bigint | undefined;
  maximum?: number | bigint | undefined;
  inclusive?: boolean | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  values?: unknown[] | undefined;
  keys?: string[] | undefined;
}

/** The value at `path` inside `value` (`undefined` where the path leaves objects); `core/response.ts` reads answers with it too. */
export function at(value: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = value;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

function typeName(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "number" && !Number.isInteger(v)) return `the number ${v}`;
  if (typeof v === "number" || typeof v === "boolean") return `${typeof v} ${String(v)}`;
  return `a ${typeof v}`;
}

/** A value as JSON for a message; one JSON cannot carry (a BigInt, a cycle) is named by its type instead. */
function shown(v: unknown): string {
  try {
    return JSON.stringify(v) ?? typeName(v);
  } catch {
    return typeName(v);
  }
}

/** One zod issue in plain words. */
export function describeIssue(issue: RawIssue | $ZodIssue, root: unknown): ValidationIssue {
  const i = issue as RawIssue;
  const path = i.path.map(String).join(".");
  const got = at(root, i.path);
  const custom = i.message && i.message !== DEFAULT_MESSAGE ? i.message : undefined;
  let message: string;
  switch (i.code) {
    case "invalid_type":
      message = got === undefined ? (i.expected === "nonoptional" ? "is required" : `is required (expected ${i.expected})`) : `expected ${i.expected}, got ${typeName(got)}`;
      break;
    case "too_small":
    case "too_big": {
      const small = i.code === "too_small";
      const bound = String(small ? i.minimum : i.maximum);
      const op = small ? (i.inclusive === false ? ">" : ">=") : i.inclusive === false ? "<" : "<=";
      message =
        i.origin === "string" ? `must have ${small ? "at least" : "at most"} ${bound} characters`
        : i.origin === "array" ? `must have ${small ? "at least" : "at most"} ${bound} items`
        : `must be ${op} ${bound}, got ${typeName(got)}`;
      break;
    }
    case "invalid_format":
      message = i.format === "regex" ? `must match ${i.pattern}, got ${shown(got)}` : `must be a valid ${i.format}, got ${shown(got)}`;
      break;
    case "invalid_value":
      message = `must be ${(i.values ?? []).map((v) => shown(v)).join(" or ")}, got ${shown(got)}`;
      break;
    case "unrecognized_keys":
      message = `unknown ${(i.keys ?? []).length === 1 ? "key" : "keys"} ${(i.keys ?? []).map((k) => JSON.stringify(k)).join(", ")}`;
      break;
    default:
      message = custom ?? "is invalid";
  }
  if (custom && i.code !== "custom") message = custom;
  return { path, message };
}

/**
 * A nested options object (`location`, ...): zod's object schema also takes a boxed primitive
 * (`new String("")`, which is `typeof "object"`), which JSON then sends as a string.
 * One check on the value as given (the object schema's output is a fresh copy, whose prototype
 * says nothing): not a plain object, or the object schema's own issues. Not a `z.pipe`, whose
 * class no other check needs (about 140 bytes gzipped in every bundle).
 */
export function plainObject<S extends Parameters<typeof z.looseObject>[0]>(shape: S): z.ZodMiniType<z.output<z.ZodMiniObject<S>>> {
  const object = z.looseObject(shape);
  return z.unknown().check(
    rules((v, ctx) => {
      const proto = typeof v === "object" && v !== null ? (Object.getPrototypeOf(v) as unknown) : null;
      if (proto === Object.prototype || proto === null) ctx.issues.push(...issuesOf(object, v)); // (not an object: the object schema says so)
      else ctx.issues.push({ code: "custom", path: [], message: "must be a plain object", input: v });
    }),
  ) as unknown as z.ZodMiniType<z.output<z.ZodMiniObject<S>>>;
}

/** The forms {@link oneOf} tells apart, by what the value is: an object's form may depend on the object (its `type`). */
export interface Forms {
  /** The schema of a string value. */
  string?: $ZodType;
  /** The schema of a number value. */
  number?: $ZodType;
  /** The schema of an object value (not an array, not null), or a function that picks it from the object. */
  object?: $ZodType | ((value: Record<string, unknown>) => $ZodType);
}

/**
 * A value of one of several forms (a name or an object, a URL or an object, `"auto"` or a number), each
 * checked by its own schema, chosen by what the value is: a wrong value gets the issues of the form it
 * takes (`parsers.0.mode: must be "fast" or "auto" or "ocr"`), a value of no form
 * `must be <expected>, got ...`. Not `z.union`: its error names no field and differs across the zod peer
 * range (zod 3.25's `zod/v4` reports only that no form matched; zod 4 the one form not aborted, if one),
 * and its class is about 400 bytes gzipped of every bundle.
 */
export function oneOf<T = unknown>(forms: Forms, expected: string): z.ZodMiniType<T> {
  return z.unknown().check(
    rules((v, ctx) => {
      const kind = v === null || Array.isArray(v) ? undefined : typeof v;
      const form = kind === "string" ? forms.string : kind === "number" ? forms.number : kind === "object" ? forms.object : undefined;
      const schema = typeof form === "function" ? form(v as Record<string, unknown>) : form;
      if (schema) ctx.issues.push(...issuesOf(schema, v));
      else ctx.issues.push({ code: "custom", path: [], message: `must be ${expected}, got ${shown(v).slice(0, 80)}`, input: v });
    }),
  ) as unknown as z.ZodMiniType<T>;
}

/** A whole number within [min, max]. */
export function int(min?: number, max?: number): z.ZodMiniNumber<number> {
  const checks: $ZodCheck<number>[] = [];
  if (min !== undefined) checks.push(z.gte(min));
  if (max !== undefined) checks.push(z.lte(max));
  return z.int().check(...checks);
}

/** What a rule pushes problems into (zod's check payload): paths are relative to the checked value. */
export interface RuleContext {
  /** zod's raw issues of this parse; push `{ code: "custom", path, message, input }`. */
  issues: { code: "custom"; path: PropertyKey[]; message: string; input: unknown }[];
}

/**
 * A check that runs `fn` with the value and a context to push any number of issues into
 * (zod's `superRefine`, built on `z.check`, which zod 3.25's `zod/v4/mini` has too).
 * `when: () => true` runs it even when a field of the value has a type problem.
 */
export function rules<T>(fn: (value: T, ctx: RuleContext) => void, params?: { when?: () => boolean }): $ZodCheck<T> {
  return z.check<T>((payload) => fn(payload.value, payload as unknown as RuleContext), params);
}

/** A URL as the service accepts it: http(s), or a bare host the server prefixes with `http://`. */
export const httpUrl = z.string().check(
  z.refine((s) => isHttpUrl(s), { message: "must be an http(s) URL such as https://example.com" }),
);

/** True for an absolute http(s) URL or a bare host (`example.com/path`). */
export function isHttpUrl(s: string): boolean {
  if (typeof s !== "string" || s.trim() === "" || /\s/.test(s.trim())) return false;
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `http://${s}`;
  try {
    const u = new URL(candidate);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}
