/**
 * Redaction, in one home: the client's secrets (the key, credential headers; {@link secretsOf}) in what
 * the server sent back (the text, the parsed body: {@link redactParsed}, and response headers that echo
 * one), and in the errors that leave the request path ({@link redactError}), whichever transport made them.
 */
import { bounded, WebDataError } from "./errors.js";

/** What a secret becomes. */
const MARKER = "[redacted]";

/** `text` with every occurrence of each of `secrets` replaced by a fixed marker (a secret shorter than 4 characters is left: it would redact ordinary text). */
export function redactAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4 && out.includes(s)) out = out.split(s).join(MARKER);
  return out;
}

/** `text` with anything shaped like an API key (`fc-` and 6 or more key characters: another team's key in a proxy's page) redacted, not only the client's own secrets. */
export function redactKeyShapes(text: string): string {
  return text.replace(/\bfc-[A-Za-z0-9_-]{6,}/g, `fc-${MARKER}`);
}

/** A URL as text with its user name and password (`//user:pass@`) redacted, for a message about a URL that could not be read. */
export function redactUserInfo(url: string): string {
  return url.replace(/\/\/[^/?#@]*@/, `//${MARKER}@`);
}

/**
 * Parses a response body (JSON, else the text as it is; empty: `undefined`) with the secrets redacted,
 * before and after parsing.
 */
export async function parseRedacted(text: string, secrets: readonly string[]): Promise<unknown> {
  const safe = redactAll(text, secrets);
  if (safe === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(safe) as unknown;
  } catch {
    return safe;
  }
  return redactParsed(body, safe, secrets);
}

/**
 * A parsed body with the secrets redacted inside its strings. Only a `\u` escape can hide a secret
 * from a redaction of the text, so the walk runs only then. A static import: loading it on demand,
 * between an error answer and its retry timer, stalled tests under fake timers.
 */
export async function redactParsed(body: unknown, safeText: string, secrets: readonly string[]): Promise<unknown> {
  if (!hidesSecrets(safeText, secrets)) return body;
  return bounded(body, { depth: 200, text: (t) => redactAll(t, secrets) }); // a deeper branch becomes a marker: nothing of it is kept
}

/** True when the parsed form of `safeText` (redacted already) may still spell a secret: it has secrets and a `\u` escape (see {@link redactParsed}). */
export function hidesSecrets(safeText: string, secrets: readonly string[]): boolean {
  return secrets.length > 0 && safeText.includes("\\u");
}

/** The response headers, with the secrets redacted from every value (the same object when no value holds one). */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Headers {
  let hit = false;
  headers.forEach((v) => {
    hit ||= redactAll(v, secrets) !== v;
  });
  if (!hit) return headers;
  const out = new Headers();
  headers.forEach((v, k) => out.append(k, redactAll(v, secrets)));
  return out;
}

/**
 * Header names whose values are credentials (a gateway's token, a Cloudflare Access secret, a cookie):
 * redacted from errors and log lines like the key.
 */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|password|(^|-)key$|^cf-access-/i;

/** The secrets of a client: the key, and the values (less an auth scheme) of its credential headers (see {@link CREDENTIAL_HEADER}); none shorter than 4 characters. */
export function secretsOf(key: string | undefined, headers: Record<string, string>): string[] {
  const out = [key];
  for (const [name, value] of Object.entries(headers)) if (CREDENTIAL_HEADER.test(name)) out.push(String(value).replace(/^\w+ /, ""));
  return out.filter((s): s is string => !!s && s.length > 3);
}

/**
 * Request headers as a hook sees them (`core/hooks.ts`): a frozen copy, the value of every credential
 * header (`authorization` and the others of {@link CREDENTIAL_HEADER}) replaced by the marker, and the
 * client's secrets redacted from the rest.
 */
export function redactRequestHeaders(headers: Record<string, string>, secrets: readonly string[]): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = CREDENTIAL_HEADER.test(k) ? MARKER : redactAll(v, secrets);
  return Object.freeze(out);
}

/** Levels of `cause` looked at. */
const CAUSE_DEPTH = 5;

type Loose = Record<string, unknown>;

/**
 * A thrown value with every secret redacted: the value itself when no secret is in its message, stack,
 * plain fields or `cause` chain, else a copy (same prototype, so `instanceof` holds) of its name,
 * message, stack, plain string, number and boolean fields (`code`, `errno`...) and cleaned `cause`.
 */
function clean(e: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof e === "string") return redactAll(e, secrets);
  if (typeof e !== "object" || e === null || depth > CAUSE_DEPTH) return e;
  const o = e as Loose;
  const cause = clean(o.cause, secrets, depth + 1);
  const copy: Loose = { name: o.name, message: o.message, stack: o.stack };
  for (const [k, v] of Object.entries(o)) if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") copy[k] = v;
  let hit = cause !== o.cause;
  for (const [k, v] of Object.entries(copy)) if (typeof v === "string" && (copy[k] = redactAll(v, secrets)) !== v) hit = true;
  return hit ? Object.assign(Object.create(Object.getPrototypeOf(o) as object) as object, copy, cause === undefined ? {} : { cause }) : e;
}

/**
 * The one redaction boundary of errors: every error that leaves the request path (whichever transport
 * made it) or reaches a watcher event passes here. When a secret appears in its message, stack or
 * `cause` chain (a `fetch` wrapper whose error text lists the request headers, a runtime that quotes an
 * invalid header value), the SDK's own error is redacted in place and its `cause` replaced by a
 * redacted copy; a `cause` without a secret keeps its identity.
 * Values that are not the SDK's errors (an abort reason the caller chose) are returned as they are.
 */
export function redactError<E>(err: E, secrets: readonly string[]): E {
  if (!secrets.length || !(err instanceof WebDataError)) return err;
  const o = err as WebDataError & Loose;
  for (const k of ["message", "stack", ...Object.keys(o)]) if (typeof o[k] === "string") o[k] = redactAll(o[k], secrets);
  if (o.cause !== undefined) o.cause = clean(o.cause, secrets, 1);
  return err;
}
