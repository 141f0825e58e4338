/**
 * `path` template: builds request paths with every interpolated value checked
 * and percent-encoded, so an id can never change the route
 * (`path\`/v2/crawl/${id}\``).
 */
import { ValidationError } from "./errors.js";

/** Encodes each interpolated value as one path segment; values that are not strings, or are empty, are rejected before sending. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  let out = strings[0] ?? "";
  values.forEach((v: unknown, i) => {
    if (typeof v !== "string") {
      const got = v === null ? "null" : Array.isArray(v) ? "an array" : `${typeof v === "object" ? "an" : "a"} ${typeof v}${typeof v === "number" ? ` ${String(v)}` : ""}`;
      throw new ValidationError([{ path: "id", message: `must be a string identifier, got ${got}` }]);
    }
    const s = String(v);
    if (s.trim() === "" || s === "." || s === "..") {
      throw new ValidationError([{ path: "id", message: `must be a non-empty identifier, got ${JSON.stringify(s)}` }]);
    }
    let encoded: string;
    try {
      encoded = encodeURIComponent(s);
    } catch {
      // A lone surrogate (e.g. "\uD800") has no UTF-8 form: `encodeURIComponent` throws a URIError.
      throw new ValidationError([{ path: "id", message: "must be well-formed Unicode text (it holds a lone surrogate)" }]);
    }
    out += encoded + (strings[i + 1] ?? "");
  });
  return out;
}
