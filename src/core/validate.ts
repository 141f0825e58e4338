/**
 * Input validation before anything is sent. Schemas are written with the
 * zod/mini-style builder in `./mini.ts` (about 1.5 KB in a browser bundle);
 * issues are turned into words a person can act on here.
 */
import * as z from "./mini.js";
import { ValidationError, type ValidationIssue } from "./errors.js";

export { z };

/**
 * Parses `value` with `schema`; throws {@link ValidationError} listing every problem. Returns the value unchanged (never a stripped copy).
 * Call it inside the RequestSpec thunk (`http.request(() => ({ ..., body: check(...) }))`) so the
 * error rejects the returned promise instead of throwing synchronously.
 */
export function check<T>(schema: z.Schema, value: T, context: string): T {
  const issues: z.Issue[] = [];
  schema.run(value, [], issues);
  if (issues.length === 0) return value;
  throw new ValidationError(
    issues.map((i) => describeIssue(i, value)),
    context,
  );
}

function at(value: unknown, path: PropertyKey[]): unknown {
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

/** One zod issue in plain words. */
export function describeIssue(issue: z.Issue, root: unknown): ValidationIssue {
  const path = issue.path.map(String).join(".");
  const got = at(root, issue.path);
  const custom = issue.message;
  let message: string;
  switch (issue.code) {
    case "invalid_type":
      message = got === undefined ? (issue.expected === "nonoptional" ? "is required" : `is required (expected ${issue.expected})`) : `expected ${issue.expected}, got ${typeName(got)}`;
      break;
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const bound = String(small ? issue.minimum : issue.maximum);
      const op = small ? (issue.inclusive === false ? ">" : ">=") : issue.inclusive === false ? "<" : "<=";
      message =
        issue.origin === "string" ? `must have ${small ? "at least" : "at most"} ${bound} characters`
        : issue.origin === "array" ? `must have ${small ? "at least" : "at most"} ${bound} items`
        : `must be ${op} ${bound}, got ${typeName(got)}`;
      break;
    }
    case "invalid_format":
      message = issue.format === "regex" ? `must match ${issue.pattern}, got ${JSON.stringify(got)}` : `must be a valid ${issue.format}, got ${JSON.stringify(got)}`;
      break;
    case "invalid_value":
      message = `must be ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(" or ")}, got ${JSON.stringify(got)}`;
      break;
    case "invalid_union":
      message = `does not match any accepted form${got === undefined ? "" : ` (got ${JSON.stringify(got)?.slice(0, 80)})`}`;
      break;
    default:
      message = custom ?? "is invalid";
  }
  if (custom && issue.code !== "custom") message = custom;
  return { path, message };
}

/** A whole number within [min, max]. */
export function int(min?: number, max?: number): z.Schema<number> {
  const checks: z.Check<number>[] = [];
  if (min !== undefined) checks.push(z.gte(min));
  if (max !== undefined) checks.push(z.lte(max));
  return z.int().check(...checks);
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

/** ISO 3166-1 alpha-2 country code in capitals (the v1 map rule). */
export const countryUpper = z.string().check(z.regex(/^[A-Z]{2}$/, "must be a two-letter ISO 3166-1 country code in capitals, such as US"));
