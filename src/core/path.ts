/**
 * Request paths with every value put in them checked and percent-encoded, so
 * an id can never change the route: `fill("/v2/crawl/{id}", [id])`, how
 * `api/endpoint.ts` builds an endpoint's path from its route template.
 */
import { ValidationError } from "./errors.js";

/** One path segment: a string that is not empty, `.` or `..`, percent-encoded; anything else is a `ValidationError` (nothing is sent). */
function segment(v: unknown): string {
  if (typeof v !== "string") {
    const got = v === null ? "null" : Array.isArray(v) ? "an array" : `${typeof v === "object" ? "an" : "a"} ${typeof v}${typeof v === "number" ? ` ${String(v)}` : ""}`;
    throw new ValidationError([{ path: "id", message: `must be a string identifier, got ${got}` }]);
  }
  if (v.trim() === "" || v === "." || v === "..") {
    throw new ValidationError([{ path: "id", message: `must be a non-empty identifier, got ${JSON.stringify(v)}` }]);
  }
  try {
    return encodeURIComponent(v);
  } catch {
    // A lone surrogate (e.g. "\uD800") has no UTF-8 form: `encodeURIComponent` throws a URIError.
    throw new ValidationError([{ path: "id", message: "must be well-formed Unicode text (it holds a lone surrogate)" }]);
  }
}

/** `route` with each `{name}` placeholder replaced, in order, by the next of `values` as one checked, encoded segment. */
export function fill(route: string, values: readonly unknown[]): string {
  let i = 0;
  return route.replace(/\{\w+\}/g, () => segment(values[i++]));
}
