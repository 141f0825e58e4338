/**
 * Request paths with every value put in them checked and percent-encoded, so
 * an id can never change the route: `fill("/v2/crawl/{id}", [id])`, how
 * `api/endpoint.ts` builds an endpoint's path from its route template.
 */
import { ValidationError } from "./errors.js";

/** One path segment: a string that is not empty, `.` or `..`, percent-encoded; anything else is a `ValidationError` (nothing is sent). */
function segment(v: unknown): string {
  try {
    // `encodeURIComponent` throws a URIError on a lone surrogate ("\uD800"): it has no UTF-8 form.
    if (typeof v === "string" && v.trim() !== "" && v !== "." && v !== "..") return encodeURIComponent(v);
  } catch {}
  // A string is shown as JSON, so a lone surrogate reads "\ud800".
  throw new ValidationError([{ path: "id", message: `must be a non-empty string id, not "." or "..", got ${typeof v == "string" ? JSON.stringify(v) : v === null || typeof v != "object" && typeof v != "function" ? String(v) : Array.isArray(v) ? "an array" : typeof v == "object" ? "an object" : "a function"}` }]);
}

/** `route` with each `{name}` placeholder replaced, in order, by the next of `values` as one checked, encoded segment. */
export function fill(route: string, values: readonly unknown[]): string {
  if (!route.includes("{")) return route; // no placeholder (`/v2/scrape`): the route as it is
  let i = 0;
  return route.replace(/\{\w+\}/g, () => segment(values[i++]));
}
