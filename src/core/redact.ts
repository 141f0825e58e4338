/**
 * Key redaction of what the server sent back: the parsed body (a JSON string
 * may spell the key with `\u` escapes, which redacting the raw text misses)
 * and response headers that echo it.
 */
import { redact } from "./errors.js";
import { redactDeep } from "./redact-deep.js";

/**
 * Parses a response body (JSON, else the text as it is; empty: `undefined`) with the key redacted,
 * before and after parsing.
 */
export async function parseRedacted(text: string, key: string | undefined): Promise<unknown> {
  const safe = redact(text, key);
  if (safe === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(safe) as unknown;
  } catch {
    return safe;
  }
  return redactParsed(body, safe, key);
}

/**
 * A parsed body with the key redacted inside its strings. Only a `\u` escape can hide the key (letters,
 * digits, `-`, `_`) from a redaction of the text, so the walk runs only then. A static import: loading
 * it on demand, between an error answer and its retry timer, stalled tests under fake timers.
 */
export async function redactParsed(body: unknown, safeText: string, key: string | undefined): Promise<unknown> {
  if (!key || key.length < 4 || !safeText.includes("\\u")) return body;
  return redactDeep(body, key);
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
