/**
 * Key redaction of what the server sent back: the parsed body (a JSON string
 * may spell the key with `\u` escapes, which redacting the raw text misses)
 * and response headers that echo it. Used when an answer becomes an error.
 */
import { isRecord, redact } from "./errors.js";

/** Deepest level walked; a deeper branch is replaced by a marker (nothing from it is kept). */
const MAX_DEPTH = 200;

/** A copy of a parsed JSON value with the key redacted in every string and property name (the value itself when nothing changes). */
export function redactDeep(value: unknown, key: string | undefined, depth = 0): unknown {
  if (!key || key.length < 4) return value;
  if (typeof value === "string") return redact(value, key);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactDeep(v, key, depth + 1);
      changed ||= r !== v;
      return r;
    });
    return changed ? out : value;
  }
  if (!isRecord(value)) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const rk = redact(k, key);
    const rv = redactDeep(v, key, depth + 1);
    changed ||= rk !== k || rv !== v;
    Object.defineProperty(out, rk, { value: rv, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}

/** Parses a response body (JSON, else the text as it is; empty: `undefined`) with the key redacted, before and after parsing. */
export function parseRedacted(text: string, key: string | undefined): unknown {
  const safe = redact(text, key);
  if (safe === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(safe) as unknown;
  } catch {
    return safe;
  }
  // Only an escape can hide the key from the text redaction above.
  return safe.includes("\\") ? redactDeep(body, key) : body;
}

/** The response headers, with the key redacted from every value (the same object when no value holds it). */
export function redactHeaders(headers: Headers, key: string | undefined): Headers {
  if (!key || key.length < 4) return headers;
  let hit = false;
  headers.forEach((v) => {
    hit ||= v.includes(key);
  });
  if (!hit) return headers;
  const out = new Headers();
  headers.forEach((v, k) => out.append(k, redact(v, key)));
  return out;
}
