/**
 * The walk behind `parseRedacted`: the key redacted in
 * every string and property name of a parsed JSON value.
 */
import { redact } from "./errors.js";

/** Deepest level walked; a deeper branch is replaced by a marker (nothing from it is kept). */
const MAX_DEPTH = 200;

/** A copy of a parsed JSON value with the key redacted in every string and property name. */
export function redactDeep(value: unknown, key: string | undefined, depth = 0): unknown {
  if (typeof value === "string") return redact(value, key);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, key, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays a plain property.
    Object.defineProperty(out, redact(k, key), { value: redactDeep(v, key, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
