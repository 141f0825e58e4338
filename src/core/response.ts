/**
 * The answer edge: a 2xx body is decoded as JSON and parsed with the loose zod schema of what the calling
 * method relies on (`RequestSpec.response`) before any result is built ({@link readAnswer}; a body it
 * cannot use is an {@link InvalidResponseError}); any other status is an error answer, read for
 * `APIError.from` ({@link answerError}). Here too: the server's deprecation signal, and the request id on
 * results and errors. The schemas live beside each capability (`api/*`, `jobs/*`, `v1/*`); the helpers
 * here keep them short and cheap (documents are checked to be objects, never deep-checked).
 */
import * as z from "zod/v4/mini";
import { APIError, DeprecatedEndpointError, InvalidResponseError, isRecord, statusText, urlOf, WebDataError, type InvalidResponseCode, type ResponseIssue } from "./errors.js";
import { hidesSecrets, parseRedacted, redactAll, redactHeaders, redactKeyShapes, redactParsed } from "./redact.js";
import { parseRetryAfter } from "./retry.js";
import type { TransportResponse } from "./transport.js";
import { at } from "./validate.js";

/** A zod schema (zod 4 / zod mini) describing what a method reads from a 2xx body. */
export type ResponseSchema = z.ZodMiniType;

/** Longest body excerpt kept on the error, in characters. */
export const EXCERPT_CHARS = 500;

/** Any JSON object; its fields are not looked into (documents, options, records passed on as they are). */
export const anyObject = z.custom<Record<string, unknown>>(isRecord, { error: "expected an object" });
// Marked pure (esbuild does not read zod's own marks): a bundle whose methods use neither drops them.
/** An array of JSON objects (documents, errors, sessions), each not looked into. */
export const objects = /* @__PURE__ */ z.array(anyObject);
/** An optional string that the server may also send as `null`. */
export const maybeString = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()));

/**
 * Decodes a 2xx body (the key already redacted from `text`). Not JSON, or
 * empty: {@link InvalidResponseError}, unless `schema` accepts an empty body.
 */
function decodeAnswer(text: string, call: AnsweredCall, info: ResponseInfo, secrets: readonly string[]): unknown {
  if (text.trim() === "") {
    if (call.response && z.safeParse(call.response, undefined).success) return undefined;
    throw invalid("EMPTY_RESPONSE", text, call, info, secrets);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid((info.headers.get("content-type") ?? "").includes("json") ? "INVALID_RESPONSE_JSON" : "NOT_JSON", text, call, info, secrets);
  }
}

/** Parses a decoded body with the method's schema; a mismatch is {@link InvalidResponseError} with zod's issues. */
function checkAnswer(body: unknown, text: string, call: AnsweredCall, info: ResponseInfo, secrets: readonly string[]): void {
  if (!call.response) return;
  const result = z.safeParse(call.response, body);
  if (result.success) return;
  throw invalid("INVALID_RESPONSE_SHAPE", text, call, info, secrets, result.error.issues.map((i) => issue(i, body)));
}

/** The answer's error, naming its status, request ids and endpoint (the call's method, the answering URL's path). */
function invalid(code: InvalidResponseCode, text: string, call: AnsweredCall, info: ResponseInfo, secrets: readonly string[], issues?: ResponseIssue[]): InvalidResponseError {
  const headers = redactHeaders(info.headers, secrets); // only an error reads them: redacted here, not on every answer
  return new InvalidResponseError({
    code,
    status: info.status,
    contentType: headers.get("content-type") ?? undefined,
    requestId: info.requestId,
    serverRequestId: info.serverRequestId,
    endpoint: `${call.method} ${new URL(info.url).pathname}`,
    bodyExcerpt: excerpt(text),
    issues,
    headers,
  });
}

/**
 * The start of a body, with anything shaped like an API key (`fc-...`) redacted. The client's own
 * secrets are out of `text` already (the request path redacts the answer before decoding it).
 */
export function excerpt(text: string): string {
  return redactKeyShapes(text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}...` : text);
}

type ZodIssue = z.core.$ZodIssue;

function issue(i: ZodIssue, body: unknown): ResponseIssue {
  const path = i.path.map((p) => (typeof p === "number" ? p : String(p)));
  return { code: i.code, path, message: describe(i, at(body, path)) };
}

/** zod mini carries no message text by default: say it in words here (never quoting the body). */
function describe(i: ZodIssue, value: unknown): string {
  if (i.code === "invalid_type") return `expected ${i.expected === "object" || i.expected === "array" ? `an ${i.expected}` : i.expected}, got ${kind(value)}`;
  if (i.code === "invalid_value") return `expected ${i.values.map((v) => JSON.stringify(v)).join(" or ")}`;
  if (i.code === "invalid_union") return `matches none of the expected shapes (got ${kind(value)})`;
  if (i.code === "custom") return `${i.message}, got ${kind(value)}`;
  return i.message && i.message !== "Invalid input" ? i.message : `invalid (got ${kind(value)})`;
}

function kind(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return typeof v;
}

/**
 * The server's deprecation signal of one answer (since 2026-05 the service flags deprecated endpoints: RFC 9745
 * `Deprecation: true` or `@<epoch seconds>`, RFC 8594 `Sunset`, `Link` with `rel="successor-version"` and
 * `rel="deprecation"`, a `Warning: 299 - "text"`, and in a JSON body `warnings[]` plus `replacement`).
 */
export interface DeprecationInfo {
  /** When the endpoint was deprecated, if the `Deprecation` header gave a date; `undefined` for `Deprecation: true` or no header. */
  deprecatedAt: Date | undefined;
  /** When the endpoint stops answering (`Sunset`), if said. */
  sunset: string | undefined;
  /** What to call instead (the body's `replacement`, else the `successor-version` link), if said. */
  replacement: string | undefined;
  /** The documentation of the deprecation (the `deprecation` link), if said. */
  docs: string | undefined;
  /** The server's texts: the body's `warnings[]`, else the `Warning` header's text. */
  warnings: string[];
}

/** Reads the deprecation signal of an answer; `undefined` when it has none (neither a `Deprecation` header nor `warnings[]`). */
export function deprecationOf(headers: Headers, body: unknown): DeprecationInfo | undefined {
  const header = headers.get("deprecation");
  const rec = isRecord(body) ? body : {};
  const bodyWarnings = Array.isArray(rec.warnings) ? rec.warnings.filter((w): w is string => typeof w === "string") : [];
  if (header === null && bodyWarnings.length === 0) return undefined;
  const at = header?.trim().match(/^@(-?\d+)$/);
  const links = linksOf(headers.get("link"));
  const warning = headers.get("warning")?.match(/^\s*299\s+\S+\s+"((?:[^"\\]|\\.)*)"/)?.[1]?.replace(/\\(.)/g, "$1");
  return {
    deprecatedAt: at?.[1] ? new Date(Number(at[1]) * 1000) : undefined,
    sunset: headers.get("sunset") ?? undefined,
    replacement: typeof rec.replacement === "string" ? rec.replacement : links["successor-version"],
    docs: links.deprecation,
    warnings: bodyWarnings.length ? bodyWarnings : warning ? [warning] : [],
  };
}

/** `<target>; rel="name"` entries of a `Link` header, by relation. */
function linksOf(link: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (link ?? "").matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)) if (m[1] !== undefined && m[2]) out[m[2]] ??= m[1];
  return out;
}

/** The deprecation notices given in this process (a log line, never a result): endpoint and the server's text. */
const noticed = new Set<string>();

/**
 * True the first time in this process that the deprecated capability of `endpoint` is flagged: the server's
 * deprecation is logged once per process and capability. A job's start and its status reads are one
 * capability (`POST /v2/extract` and `GET /v2/extract/:jobId`: one `extract()` call logs one line, not two).
 */
export function firstDeprecationNotice(endpoint: string, d: DeprecationInfo): boolean {
  // The server's text names the route (`/v2/extract/:jobId is deprecated...`): without its parameters, and
  // without the method, the start's and the status read's texts are one key. Without a text, the path
  // without its last segment when that is an id (it holds a digit).
  const key = d.warnings[0] ? d.warnings[0].replace(/\/:\w+/g, "") : (endpoint.split(" ")[1] ?? endpoint).replace(/\/[^/]*\d[^/]*$/, "");
  if (noticed.has(key)) return false;
  noticed.add(key);
  return true;
}

/**
 * The credits an answer reports, as it reports them (`-1`: a self-hosted server that does not know):
 * `creditsUsed` at the top (search, job and task statuses), else in `data` or the document's
 * `data.metadata` (scrape and parse: `metadata.creditsUsed`, the page's cost). The one reading of it: the
 * meter counts what is >= 0, the hooks' `onResponse` passes it on (`HookRun` of `core/hooks.ts`).
 */
export function reportedCredits(raw: unknown): number | undefined {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  return num(at(raw, ["creditsUsed"])) ?? num(at(raw, ["data", "creditsUsed"])) ?? num(at(raw, ["data", "metadata", "creditsUsed"]));
}

/** Status, headers and request id of the HTTP answer. */
export interface ResponseInfo {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The `x-request-id` the SDK sent with the call (see `RequestOptions.requestId`), whether or not the server echoed it. */
  requestId: string | undefined;
  /** A request id the server sent in its response headers (`x-request-id`, `request-id`, `x-correlation-id`, `cf-ray`), when it differs from {@link requestId}. */
  serverRequestId?: string | undefined;
  /** The URL that answered. */
  url: string;
  /** The server's deprecation signal (a `Deprecation` header or `warnings[]`), when the answer had one. */
  deprecation?: DeprecationInfo | undefined;
}

/** A parsed body together with its {@link ResponseInfo}. */
export interface WithResponse<T> {
  /** The parsed result. */
  data: T;
  /** The raw answer's status and headers. */
  response: ResponseInfo;
}

/** What reading an answer needs of the client: its secrets, its configuration (a `ResolvedConfig` is one) and a warning line. */
export interface AnswerPolicy {
  /** The client's secrets (the key, credential headers), redacted from what the server sent. */
  secrets: readonly string[];
  /** The client's API URL (a redirect's error names it) and deprecation options (`ClientOptions.strictDeprecations`, `silenceDeprecationWarnings`). */
  config: { apiUrl: string; strictDeprecations: boolean; silenceDeprecationWarnings: boolean };
  /** Writes a warning line (the client's logger, secrets redacted). */
  warn(message: string): void;
}

/** What reading an answer needs of its call (a `RequestSpec` is one): its method, its schema of a 2xx body, and whether a body with `success: false` is a result. */
export type AnsweredCall = { method: string; response?: ResponseSchema | undefined; allowUnsuccessful?: boolean | undefined };

/**
 * A read 2xx body: JSON, then the method's loose schema, else `InvalidResponseError`; the key redacted from the text,
 * the parsed value (a \u escape) and the headers (core/redact.ts), which only an error reads (redacted then).
 * Synchronous but for a parsed value to redact.
 */
export function readAnswer<T>(call: AnsweredCall, res: TransportResponse, url: string, requestId: string, text: string, policy: AnswerPolicy): WithResponse<T> | Promise<WithResponse<T>> {
  const info: ResponseInfo = { status: res.status, headers: res.headers, requestId, serverRequestId: serverIdOf(res.headers, requestId), url };
  const secrets = policy.secrets;
  // (No closure over `res` here: one kept each status page's text alive while its documents were iterated.)
  const safeText = redactAll(text, secrets);
  const parsed = decodeAnswer(safeText, call, info, secrets);
  if (hidesSecrets(safeText, secrets)) return redactParsed(parsed, safeText, secrets).then((body) => accept<T>(call, res, text, safeText, info, body, policy));
  return accept<T>(call, res, text, safeText, info, parsed, policy);
}

/** A decoded 2xx body: `success: false` is its error (unless the call allows it), then the method's schema, then the server's deprecation signal. */
function accept<T>(call: AnsweredCall, res: TransportResponse, text: string, safeText: string, info: ResponseInfo, body: unknown, policy: AnswerPolicy): WithResponse<T> {
  if (!call.allowUnsuccessful && (body as { success?: unknown } | null | undefined)?.success === false) {
    throw errorOf(call, res, info.url, info.requestId ?? "", body, text, policy);
  }
  checkAnswer(body, safeText, call, info, policy.secrets);
  const deprecation = deprecationOf(res.headers, body);
  if (deprecation) deprecated((info.deprecation = deprecation), `${call.method} ${new URL(info.url).pathname}`, body, policy);
  return { data: body as T, response: info }; // the result is tagged with the request id on the way out (`APIPromise`)
}

/**
 * The server flagged an answer as deprecated: with `strictDeprecations`, a `DeprecatedEndpointError` carrying
 * the answer; else a warning, once per process and endpoint, unless `silenceDeprecationWarnings`.
 */
function deprecated(d: DeprecationInfo, endpoint: string, body: unknown, policy: AnswerPolicy): void {
  if (policy.config.strictDeprecations) throw new DeprecatedEndpointError({ endpoint, replacement: d.replacement, sunset: d.sunset, warnings: d.warnings, body });
  if (policy.config.silenceDeprecationWarnings || !firstDeprecationNotice(endpoint, d)) return;
  const why = d.warnings[0] ?? `${endpoint} is deprecated`;
  policy.warn(`webdata: the server says: ${why}${d.replacement ? ` Replacement: ${d.replacement}.` : ""}${d.sunset ? ` Sunset: ${d.sunset}.` : ""}${d.docs ? ` See ${d.docs}.` : ""}`);
}

/** The error of a non-2xx answer (its body `text` when read already): the body parsed with the key redacted, for `APIError.from`. */
export async function answerError(call: AnsweredCall, res: TransportResponse, url: string, requestId: string, policy: AnswerPolicy, text?: string): Promise<APIError> {
  const raw = text ?? (await res.text().catch(() => ""));
  const body = await parseRedacted(raw, policy.secrets);
  return errorOf(call, res, url, requestId, body, raw, policy);
}

function errorOf(call: AnsweredCall, res: TransportResponse, url: string, requestId: string, body: unknown, text: string, policy: AnswerPolicy): APIError {
  const rec = isRecord(body) ? body : {};
  const serverText =
    typeof rec.error === "string" ? rec.error
    : typeof rec.message === "string" ? rec.message
    : typeof body === "string" && body.trim() && !body.trim().startsWith("<") ? body.trim().slice(0, 300)
    : statusText(res.status) || "Request failed";
  const message = typeof rec.message === "string" && typeof rec.error === "string" && rec.message !== rec.error ? `${rec.error}: ${rec.message}` : serverText;
  return APIError.from({
    status: res.status,
    message, // redacted with every other secret at the boundary (`redactError`), as all of this error's strings
    code: typeof rec.code === "string" ? rec.code : undefined,
    details: rec.details,
    requestId,
    serverRequestId: serverIdOf(res.headers, requestId),
    body,
    headers: redactHeaders(res.headers, policy.secrets),
    endpoint: `${call.method} ${new URL(url).pathname}`,
    retryAfterMs: parseRetryAfter(res.headers, text), // kept by a RateLimitError
    location: redirectTarget(res.headers.get("location"), url),
    apiUrl: policy.config.apiUrl,
  });
}

/** A redirect's `Location`, absolute against the request URL and without user name or password; `undefined` when absent or unreadable. */
function redirectTarget(location: string | null, requestUrl: string): string | undefined {
  const u = location ? urlOf(location, requestUrl) : undefined;
  if (!u) return undefined;
  u.username = "";
  u.password = "";
  return u.toString();
}

const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-correlation-id", "cf-ray"];

/** A request id the server sent in its headers, when it differs from the one sent (`sent`). */
export function serverIdOf(headers: Headers, sent: string): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers.get(name);
    if (v) return v === sent ? undefined : v;
  }
  return undefined;
}

/** Puts the request id on a result object as the non-enumerable `_requestId` (not in JSON, not compared by deep equality). */
export function tagRequestId<T>(value: T, requestId: string | undefined): T {
  if (requestId && typeof value === "object" && value !== null && Object.isExtensible(value) && !Object.prototype.hasOwnProperty.call(value, "_requestId")) {
    Object.defineProperty(value, "_requestId", { value: requestId, enumerable: false });
  }
  return value;
}

/** `err` with the call's request id, when it is one of the SDK's errors without one (an answer's error has it already). */
export function tagError<E>(err: E, requestId: string): E {
  if (err instanceof WebDataError && err.requestId === undefined) err.requestId = requestId;
  return err;
}
