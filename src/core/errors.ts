/**
 * The public error hierarchy. Every error the SDK throws is a `WebDataError`; errors that carry an HTTP
 * answer are `APIError`s, one subclass per status family, so a program can branch with `instanceof` or on
 * `status`/`code`. Every public error class is defined here, the few that belong to one capability
 * (signup, browser sessions, webhooks, the watcher...) included. No error ever holds the API key: each
 * passes `redactError` (`core/redact.ts`) on its way out, and `toJSON()` lists plain fields only.
 */

import { KNOWN_FORMATS_TEXT } from "./formats.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** Issues as one line of a message: `path: message`, separated by `; `. */
function listIssues(issues: readonly { path: string; message: string }[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}

/** Limits of a value copied by {@link bounded}. */
export interface Bounds {
  /** Levels of nesting kept; a deeper branch becomes `"[too deep]"`. */
  depth: number;
  /** Longest string kept whole (default: no limit); a longer one is cut, ending in `...`. */
  maxString?: number;
  /** Most items of an array or properties of an object kept (default: no limit); a last `...` marks the cut. */
  maxItems?: number;
  /** Applied to every string and property name of the copy, before any cut (`core/redact.ts` passes its redaction). */
  text?: (text: string) => string;
}

/** What an error keeps of a server's `details` and body: nesting past this is never data a program reads. */
export const CARRIED: Bounds = { depth: 32 };
/** What an error prints (`toJSON`, `util.inspect`, `console.error`): enough to act on, never megabytes. */
export const PRINTED: Bounds = { depth: 8, maxString: 2_000, maxItems: 50 };

/**
 * A copy of a JSON-like value within `limits`, so that printing, serialising or walking it can never
 * throw (a `details` nested 100,000 levels deep made `JSON.stringify`, `util.inspect` and
 * `console.error` throw `RangeError`). A cycle is cut like a branch too deep.
 */
export function bounded(value: unknown, limits: Bounds, depth = 0): unknown {
  const max = limits.maxString ?? Infinity;
  const map = limits.text ?? ((t: string) => t);
  if (typeof value === "string") {
    const text = map(value);
    return text.length > max ? `${text.slice(0, max)}...` : text;
  }
  if (typeof value !== "object" || value === null) return value;
  if (depth >= limits.depth) return "[too deep]";
  const n = limits.maxItems ?? Infinity;
  const entries = Object.entries(value);
  const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  const put = (k: PropertyKey, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true }); // a `__proto__` key stays a plain property
  for (const [k, v] of entries.slice(0, n)) put(map(k), bounded(v, limits, depth + 1));
  if (entries.length > n) put(Array.isArray(out) ? n : "...", "...");
  return out;
}

/** The base of every error this SDK throws. */
export class WebDataError extends Error {
  override name = "WebDataError";
  /**
   * The `x-request-id` the SDK sent with the call that failed (one per call, the same on its retries; the
   * caller's `requestId` option when given), whether or not an answer came: also on a network failure, a
   * timeout, an abort or a {@link HookError}. `undefined` for an error raised before any request was built
   * (a `ValidationError` of the arguments). Quote it to the service's support with {@link APIError.exceptionId}.
   */
  declare requestId: string | undefined;

  /** A plain, key-free record of the error, used by `JSON.stringify`; bounded in depth and size (8 levels, 50 items, 2,000 characters a string), so it never throws. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [k, v] of Object.entries(this)) {
      if (k === "cause" || k === "stack" || typeof v === "function") continue;
      out[k] = bounded(v, PRINTED);
    }
    return out;
  }

  /** Node's `util.inspect` (and `console.error`) shows the same key-free, bounded record plus the stack. */
  [INSPECT](): string {
    return `${this.stack ?? `${this.name}: ${this.message}`}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

/** Everything the server said about a failed request. */
export interface APIErrorInit {
  /** HTTP status (a 200 whose body says `success: false` keeps 200). */
  status: number;
  /** The server's `error` text, or a description when it sent none. */
  message: string;
  /** The server's `code` field (e.g. `SCRAPE_TIMEOUT`, `BAD_REQUEST`). */
  code?: string | undefined;
  /** The server's `details` field (zod issues for 400s). */
  details?: unknown;
  /** The `x-request-id` the SDK sent with the call. */
  requestId?: string | undefined;
  /** A request id the server sent in its response headers, when it differs from `requestId`. */
  serverRequestId?: string | undefined;
  /** The parsed response body (or its text when it was not JSON). */
  body?: unknown;
  /** Response headers. */
  headers?: Headers | undefined;
  /** Method and path of the request, for messages (never the query's secrets). */
  endpoint?: string | undefined;
  /** A 429's wait, from `Retry-After`, `retry-after-ms` or the body text (`parseRetryAfter` of `core/retry.ts`), in ms: {@link RateLimitError.retryAfterMs}. */
  retryAfterMs?: number | undefined;
  /** A redirect's `Location`, absolute and without user name or password: {@link RedirectError.location}. */
  location?: string | undefined;
  /** The client's `apiUrl` (never holds a user name or password), for a redirect's fix. */
  apiUrl?: string | undefined;
}

/** An HTTP answer that the SDK treats as a failure. */
export class APIError extends WebDataError {
  override name = "APIError";
  /** HTTP status code. */
  readonly status: number;
  /** The server's `code` field, when it sent one. */
  readonly code: string | undefined;
  /** The server's `details` field, when it sent one. */
  readonly details: unknown;
  /** The `x-request-id` the SDK sent with the call (see {@link WebDataError.requestId}). */
  override readonly requestId: string | undefined;
  /** A request id the server sent in its response headers (`x-request-id`, `request-id`, `x-correlation-id`, `cf-ray`), when it differs from {@link requestId}. */
  readonly serverRequestId: string | undefined;
  /**
   * The exception id of a 5xx answer, from its text: the service's "Your exception ID is <id>", a
   * self-hosted server's "Error ID: <32 hex>". What its support (or the server's logs) look up.
   */
  readonly exceptionId: string | undefined;
  /** The parsed response body. */
  readonly body: unknown;
  /** `login_url` sent by the agent-signup and agent-key errors. */
  readonly loginUrl: string | undefined;
  /** `sponsor_status` sent with agent-key errors. */
  readonly sponsorStatus: string | undefined;
  /** The server's own error text, unchanged. */
  readonly serverMessage: string;
  /** `METHOD /path` of the failed request. */
  readonly endpoint: string | undefined;
  readonly #headers: Headers | undefined;

  constructor(init: APIErrorInit) {
    const details = bounded(init.details, CARRIED);
    const said = withReason(init.message, details);
    super(init.endpoint ? `${said} (HTTP ${init.status}, ${init.endpoint})` : `${said} (HTTP ${init.status})`);
    this.status = init.status;
    this.code = init.code;
    this.details = details;
    this.requestId = init.requestId;
    this.serverRequestId = init.serverRequestId;
    this.exceptionId = init.status >= 500 ? exceptionIdOf(init.message) : undefined;
    this.body = bounded(init.body, CARRIED);
    this.serverMessage = init.message;
    this.endpoint = init.endpoint;
    this.#headers = init.headers;
    const rec = isRecord(init.body) ? init.body : {};
    this.loginUrl = typeof rec.login_url === "string" ? rec.login_url : undefined;
    this.sponsorStatus = typeof rec.sponsor_status === "string" ? rec.sponsor_status : undefined;
  }

  /** Response headers of the failed request. */
  get headers(): Headers | undefined {
    return this.#headers;
  }

  /**
   * Builds the class of an answer, the one place status becomes class: the first row of the table of
   * answers with a class of their own (`ERROR_CLASSES`, at the end of `core/errors.ts`) whose status,
   * endpoint and server text match (v1 and v2 routes alike), else the class of its status family; a
   * redirect (3xx, or 0: a browser's opaque redirect) is a {@link RedirectError}, never a result.
   */
  static from(init: APIErrorInit): APIError {
    const s = init.status;
    const row = ERROR_CLASSES.find(([status, route, text]) => status === s && route.test(init.endpoint ?? "") && text.test(init.message));
    const Ctor =
      row ? row[3]
      : s === 0 || (s >= 300 && s < 400) ? RedirectError
      : STATUS_CLASSES[s] ?? (s >= 500 ? InternalServerError : APIError);
    return new Ctor(init);
  }
}

/** True for an answer of the 4xx family: `BadRequestError` to `RateLimitError`, or an `APIError` of another 4xx status (418). */
export function isClientError(err: unknown): err is APIError {
  return err instanceof APIError && err.status >= 400 && err.status < 500;
}

/**
 * The exception id in a 5xx answer's text: "Your exception ID is <id>" (the service), "Error ID: <id>" (a
 * self-hosted server). The id is the whole token after it, whatever its length and whatever text follows
 * ("... is abc123 (quote it to support)"); a token without a digit is a word ("error ID is required"), not an id.
 */
function exceptionIdOf(text: string): string | undefined {
  return /\b(?:exception|error) ID(?: is|:)\s*((?=[\w-]*\d)[0-9A-Za-z][\w-]*)(?![\w-])/i.exec(text)?.[1];
}

/**
 * The server's text with its reason: the fields and what is wrong with each, as its `details` say (zod
 * issues: `path: message`, `; ` between them, repeats once; a union of literal choices as the values it
 * takes), `field: text` for a record of texts, or `details` itself when it is text. Bounded as an error prints ({@link PRINTED}: at most
 * `maxItems` issues, `maxString` characters of reason). When the text is one of the issues' own
 * messages (a failed refine), the issues alone say it, with their field.
 */
function withReason(text: string, details: unknown): string {
  const shown = bounded(details, PRINTED);
  const lines =
    typeof shown === "string" ? [shown.trim()]
    : Array.isArray(shown) ? [...new Set(shown.flatMap((i) => issueLines(i, [])))]
    : isRecord(shown) ? Object.entries(shown).flatMap(([k, v]) => (typeof v === "string" ? [`${k}: ${v}`] : []))
    : [];
  const reason = bounded(lines.filter(Boolean).join("; "), PRINTED) as string;
  if (!reason || reason === text) return text;
  return lines.some((l) => l === text || l.endsWith(`: ${text}`)) ? reason : `${text}: ${reason}`;
}

/** One server issue (a zod issue as JSON, `path` relative to `base`) as `path: message` lines. */
function issueLines(issue: unknown, base: readonly unknown[]): string[] {
  if (!isRecord(issue)) return typeof issue === "string" ? [issue] : [];
  const path = [...base, ...(Array.isArray(issue.path) ? issue.path : [])];
  const where = (p: readonly unknown[], what: string) => (p.length ? `${p.join(".")}: ${what}` : what);
  if (issue.code === "invalid_union" && Array.isArray(issue.errors)) {
    // `formats: ["markdwn"]`: every branch refuses the one literal it takes (`type`); say which it takes.
    const literals = issue.errors.map((branch: unknown) => (Array.isArray(branch) ? branch : []).find((i): i is { path: unknown[]; values: unknown[] } => isRecord(i) && i.code === "invalid_value" && Array.isArray(i.values) && Array.isArray(i.path)));
    const first = literals[0]?.path;
    if (first && literals.every((i) => JSON.stringify(i?.path) === JSON.stringify(first))) {
      const values = literals.flatMap((i) => i?.values ?? []).map((v) => JSON.stringify(v));
      return [where([...path, ...first], `Invalid option: expected one of ${values.join("|")}`)];
    }
  }
  if (typeof issue.message !== "string") return [];
  // A format the server refused without naming the ones it takes (`formats.0: Invalid input`): the names this SDK knows.
  const format = /^(?:.+\.)?formats\.\d+(?:\.type)?$/.test(path.join("."));
  return [where(path, format ? `${issue.message} (not a format this server takes; the formats this SDK knows: ${KNOWN_FORMATS_TEXT})` : issue.message)];
}

/** 400: the server rejected the request's parameters. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
}
/** 401: the API key is missing or invalid. */
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
}
/** 402: not enough credits (or an agent key over its 50-credit limit). */
export class PaymentRequiredError extends APIError {
  override name = "PaymentRequiredError";
}
/** 403: forbidden (blocked site, permission, blocked or expired agent signup). */
export class PermissionDeniedError extends APIError {
  override name = "PermissionDeniedError";
}
/** 404: unknown job, route or resource. */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}
/** 408: the server gave up (`SCRAPE_TIMEOUT`, `MAP_TIMEOUT`). Which statuses are retried: `RETRYABLE_STATUSES` (`core/retry.ts`). */
export class RequestTimeoutError extends APIError {
  override name = "RequestTimeoutError";
}
/** 409: a real conflict (a used idempotency key, a finished job; a pending agent signup is a {@link SignupError}). Which statuses are retried: `RETRYABLE_STATUSES` (`core/retry.ts`). */
export class ConflictError extends APIError {
  override name = "ConflictError";
}
/** 410: the resource is gone. The API's one 410 is a browser session that was destroyed (deleted, or its TTL ran out): start a new one. */
export class GoneError extends APIError {
  override name = "GoneError";
}
/**
 * 3xx, or a redirect the runtime hid (a browser's opaque redirect): the server, or a proxy in front of
 * it, redirected. The API never redirects its endpoints, so the SDK follows no redirect: nothing was
 * sent to `location`, and the answer is never taken as a result. Usually `apiUrl` is off (`http://`
 * for an `https://` server, a missing path prefix). Never retried.
 */
export class RedirectError extends APIError {
  override name = "RedirectError";
  /** Where the redirect pointed (absolute, without user name or password), when the runtime shows it. */
  readonly location: string | undefined;
  /** The message says where it pointed and the fix (`apiUrl` with the scheme the server redirected to, else check `apiUrl`); a hidden status (0) is 302. */
  constructor(init: APIErrorInit) {
    const to = urlOf(init.location);
    const api = urlOf(init.apiUrl);
    const fix = to && api && to.host === api.host && to.protocol !== api.protocol ? `set apiUrl to ${to.protocol}//${init.apiUrl?.split("//")[1]}` : "check apiUrl";
    super({ ...init, status: init.status || 302, message: `Redirected to ${to?.origin ?? "(hidden)"}, not followed (the API never redirects): ${fix}` });
    this.location = init.location;
  }
}
/** `text` as a URL (against `base`, when given), or `undefined` when absent or not a URL. */
export function urlOf(text: string | undefined, base?: string): URL | undefined {
  try {
    return text ? new URL(text, base) : undefined;
  } catch {
    return undefined;
  }
}

/** 429: rate limited. `retryAfterMs` is the server's hint, when it gave one. */
export class RateLimitError extends APIError {
  override name = "RateLimitError";
  /** How long the server asked to wait, from `Retry-After`, `retry-after-ms` or the body text. */
  retryAfterMs: number | undefined;
  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** 5xx: the server failed. */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
}

/** One way a 2xx answer missed what the SDK needs (from zod's issues). */
export interface ResponseIssue {
  /** zod's issue code (`invalid_type`, `invalid_union`, ...). */
  code: string;
  /** Where in the body, e.g. `["links"]` or `["data", "web"]` (empty for the whole body). */
  path: (string | number)[];
  /** What was wrong. */
  message: string;
}

/** Everything known about an answer the SDK could not read. */
export interface InvalidResponseErrorInit {
  /** Why: `INVALID_RESPONSE_JSON` (malformed JSON), `EMPTY_RESPONSE`, `NOT_JSON` (an HTML page, plain text), `INVALID_RESPONSE_SHAPE` (JSON without what the result needs). */
  code: InvalidResponseCode;
  /** HTTP status (2xx: error statuses are `APIError`s whatever their body). */
  status: number;
  /** The `content-type` header, when sent. */
  contentType?: string | undefined;
  /** The `x-request-id` the SDK sent with the call. */
  requestId?: string | undefined;
  /** A request id the server sent in its response headers, when it differs from `requestId`. */
  serverRequestId?: string | undefined;
  /** `METHOD /path` of the request. */
  endpoint?: string | undefined;
  /** The start of the body, with the API key redacted. */
  bodyExcerpt: string;
  /** zod's issues, for `INVALID_RESPONSE_SHAPE`. */
  issues?: ResponseIssue[] | undefined;
  /** Response headers. */
  headers?: Headers | undefined;
}

/** Why an answer could not be read (see {@link InvalidResponseError.code}). */
export type InvalidResponseCode = "INVALID_RESPONSE_JSON" | "EMPTY_RESPONSE" | "NOT_JSON" | "INVALID_RESPONSE_SHAPE";

/**
 * A 2xx answer the SDK cannot read: not JSON (a proxy's or captive portal's HTML
 * page), empty, malformed JSON, or JSON without what the result needs. Thrown
 * instead of resolving to `undefined` or a half-built result; never retried.
 */
export class InvalidResponseError extends WebDataError {
  override name = "InvalidResponseError";
  /** Why the answer could not be read. */
  readonly code: InvalidResponseCode;
  /** HTTP status. */
  readonly status: number;
  /** The `content-type` header, when sent. */
  readonly contentType: string | undefined;
  /** The `x-request-id` the SDK sent with the call (see {@link WebDataError.requestId}). */
  override readonly requestId: string | undefined;
  /** A request id the server sent in its response headers, when it differs from {@link requestId}. */
  readonly serverRequestId: string | undefined;
  /** `METHOD /path` of the request. */
  readonly endpoint: string | undefined;
  /** The start of the body (at most 500 characters), with the API key redacted. */
  readonly bodyExcerpt: string;
  /** zod's issues (`INVALID_RESPONSE_SHAPE`; empty otherwise). */
  readonly issues: ResponseIssue[];
  readonly #headers: Headers | undefined;

  constructor(init: InvalidResponseErrorInit) {
    const what =
      init.code === "INVALID_RESPONSE_JSON" ? "a malformed JSON body"
      : init.code === "EMPTY_RESPONSE" ? "an empty body"
      : init.code === "NOT_JSON" ? `a body that is not JSON (${init.contentType || "no content-type"})`
      : `JSON the SDK cannot use (${listIssues((init.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message })))})`;
    super(`The server answered HTTP ${init.status} with ${what}${init.endpoint ? ` (${init.endpoint})` : ""}`);
    this.code = init.code;
    this.status = init.status;
    this.contentType = init.contentType;
    this.requestId = init.requestId;
    this.serverRequestId = init.serverRequestId;
    this.endpoint = init.endpoint;
    this.bodyExcerpt = init.bodyExcerpt;
    this.issues = init.issues ?? [];
    this.#headers = init.headers;
  }

  /** Response headers. */
  get headers(): Headers | undefined {
    return this.#headers;
  }
}

/** The network failed before an HTTP answer arrived (refused, reset, DNS). */
export class ConnectionError extends WebDataError {
  override name = "ConnectionError";
  /**
   * True when the failure proves the request never reached the server
   * (connection refused, DNS failure), so a non-idempotent POST may be retried.
   */
  readonly notSent: boolean;
  constructor(message: string, options: { cause?: unknown; notSent?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.notSent = options.notSent ?? false;
  }
}

/** One attempt ran past its `timeoutMs`. */
export class TimeoutError extends WebDataError {
  override name = "TimeoutError";
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  constructor(timeoutMs: number, endpoint?: string) {
    super(`Request timed out after ${timeoutMs} ms${endpoint ? ` (${endpoint})` : ""}`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` fired. */
export class AbortError extends WebDataError {
  override name = "AbortError";
  constructor(message = "The request was aborted", options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** One problem found in the caller's input. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `formats.0.schema` (empty for the whole value). */
  path: string;
  /** What is wrong, in words a person can act on. */
  message: string;
}

/** A zod issue as zod reported it (`code`, `path`, `expected`, `minimum`, ...), typed loosely so no zod version's types are needed; `message` is the SDK's readable one. */
export type ZodIssueRecord = { readonly code: string; readonly path: readonly PropertyKey[]; readonly message: string } & Readonly<Record<string, unknown>>;

/** Bad input, caught before anything was sent. Lists every problem found. */
export class ValidationError extends WebDataError {
  override name = "ValidationError";
  /** Every problem, by field path. */
  readonly issues: ValidationIssue[];
  /** The issues as zod reported them, when the SDK's zod request checks found the problems (else empty). */
  readonly zodIssues: readonly ZodIssueRecord[];
  constructor(issues: ValidationIssue[], context?: string, zodIssues: readonly ZodIssueRecord[] = []) {
    super(`${context ? `Invalid ${context}: ` : "Invalid input: "}${listIssues(issues)}`);
    this.issues = issues;
    this.zodIssues = zodIssues;
  }
}

/** A job ended `failed` or `cancelled` while a waiter waited for it. */
export class JobFailedError extends WebDataError {
  override name = "JobFailedError";
  /** The job's id. */
  readonly jobId: string;
  /** The terminal status (`failed` or `cancelled`). */
  readonly status: string;
  /** The server's error text, when it gave one. */
  readonly serverError: string | undefined;
  /** `requestId`: the `x-request-id` of the status read that learned the job ended so (see {@link WebDataError.requestId}). */
  constructor(jobId: string, status: string, serverError?: string, requestId?: string) {
    super(`Job ${jobId} ${status}${serverError ? `: ${serverError}` : ""}`);
    this.jobId = jobId;
    this.status = status;
    this.serverError = serverError;
    this.requestId = requestId;
  }
}

/** A waiter's deadline passed before the job finished. */
export class JobTimeoutError extends WebDataError {
  override name = "JobTimeoutError";
  /** The job's id. */
  readonly jobId: string;
  /** The last status seen before the deadline. */
  readonly lastStatus: unknown;
  /** The deadline, in milliseconds. */
  readonly timeoutMs: number;
  /** `requestId`: the `x-request-id` of the status read whose answer is `lastStatus` (see {@link WebDataError.requestId}). */
  constructor(jobId: string, timeoutMs: number, lastStatus: unknown, requestId?: string) {
    super(`Job ${jobId} did not finish within ${timeoutMs} ms`);
    this.jobId = jobId;
    this.timeoutMs = timeoutMs;
    this.lastStatus = lastStatus;
    this.requestId = requestId;
  }
}

// Long jobs: a job that stopped progressing, a job whose results expired. Thrown by `jobs/`.

/**
 * A crawl or batch scrape made no progress for `stallTimeoutMs`: its `status`, `completed` and `total`
 * did not change for that long (the waiters, the watcher and the documents iterators, only with
 * `stallTimeoutMs` set). The job may still run on the server unless `cancelled` says the client
 * cancelled it (`cancelOnStall`). Documents finished so far can still be read.
 */
export class JobStalledError extends WebDataError {
  override name = "JobStalledError";
  /** The job's id. */
  readonly jobId: string;
  /** The last `status` seen (`scraping` while it runs). */
  readonly status: string;
  /** The last `completed` seen. */
  readonly completed: number;
  /** The last `total` seen. */
  readonly total: number;
  /** Milliseconds since the counters last changed (or since waiting began, when they never did). */
  readonly sinceProgressMs: number;
  /** True when the client cancelled the job because of the stall (`cancelOnStall`). */
  readonly cancelled: boolean;
  constructor(jobId: string, last: { status: string; completed: number; total: number }, sinceProgressMs: number, cancelled: boolean) {
    const where = `status ${last.status}, ${last.completed} of ${last.total} pages done`;
    const next = cancelled
      ? "It was cancelled (cancelOnStall)"
      : "It may still be running on the server: cancel it (cancelCrawl / cancelBatchScrape, or pass cancelOnStall: true), or allow more time with a larger stallTimeoutMs";
    super(
      `Job ${jobId} made no progress for ${Math.round(sinceProgressMs / 1000)} s (${where}): its status, completed and total did not change for stallTimeoutMs, so the service has probably stalled on it. ${next}. Documents finished so far can still be read (crawlDocuments / batchScrapeDocuments) until the job expires.`,
    );
    this.jobId = jobId;
    this.status = last.status;
    this.completed = last.completed;
    this.total = last.total;
    this.sinceProgressMs = sinceProgressMs;
    this.cancelled = cancelled;
  }
}

/**
 * A 404 for a crawl or batch scrape whose results have expired: its `expiresAt` (from an earlier status
 * read of this client) has passed, this client started it more than 24 h earlier, or the service's answer
 * says it expired; the message says which of these is known. A subclass of
 * {@link NotFoundError}, so `instanceof NotFoundError` code keeps working; the server's answer is kept
 * (`status`, `serverMessage`, `endpoint`, `body`) and is the `cause`.
 */
export class JobExpiredError extends NotFoundError {
  override name = "JobExpiredError";
  /** The job's id. */
  readonly jobId: string;
  /** When its results expired (ISO time, as the service reported it), when this client saw it; else undefined. */
  readonly expiresAt: string | undefined;
  /** `startedAt`: when this client started the job (ms since the epoch), given when that was more than 24 h ago. */
  constructor(jobId: string, expiresAt: string | undefined, notFound: NotFoundError, startedAt?: number) {
    super({ status: notFound.status, message: notFound.serverMessage, code: notFound.code, details: notFound.details, requestId: notFound.requestId, body: notFound.body, headers: notFound.headers, endpoint: notFound.endpoint });
    const when =
      expiresAt !== undefined && Date.parse(expiresAt) <= Date.now() ? `its results expired at ${expiresAt}`
      : startedAt !== undefined ? `this client started it at ${new Date(startedAt).toISOString()}, more than 24 h ago`
      : "the service answered that it expired";
    this.message = `Job ${jobId} has expired (${when}): the service keeps a crawl's or batch scrape's results for 24 h (a team's own TTL may differ), then answers 404. Start the job again to get its results, and read them within the TTL next time. Server: ${notFound.message}`;
    this.cause = notFound;
    this.jobId = jobId;
    this.expiresAt = expiresAt;
  }
}

// Errors of one capability, defined here: `core/` imports nothing of `api/` or `jobs/` (ERROR_CLASSES: which answers get them).

/** 409 "Idempotency key already used": a job was already started with this key (or the key is not a UUID). Thrown by job starts of both API versions. */
export class IdempotencyConflictError extends ConflictError {
  override name = "IdempotencyConflictError";
}

/** Why an agent signup was refused (see {@link SignupError.reason}). */
export type SignupRefusal = "invalid" | "blocked" | "expired" | "pending";

/**
 * An agent signup the server refused (thrown by `api/agent-signup.ts`; `status` 400, 403 or 409), `reason` says why: `invalid` (400 `Invalid request body`: the server rejected a field),
 * `blocked` (403 `This email has blocked agent signups`: the sponsor blocked signups for this address), `expired` (403 `Previous agent signup verification has expired`: the sponsor
 * should log in, `loginUrl`), `pending` (409 `A pending agent signup confirmation has already been sent`: a key is pending for this e-mail, `loginUrl`).
 */
export class SignupError extends APIError {
  override name = "SignupError";
  /** Why the signup was refused: `invalid` (400), `blocked` or `expired` (403), `pending` (409). */
  readonly reason: SignupRefusal;
  constructor(init: APIErrorInit) {
    super(init);
    this.reason = init.status === 400 ? "invalid" : init.status === 409 ? "pending" : /blocked/i.test(init.message) ? "blocked" : "expired";
  }
}

/** Where the JSON extracted by the service did not match the caller's schema (`validate: true`). */
export interface ResultIssue {
  /** Dotted path inside the extracted value (empty for the whole value). */
  path: string;
  /** What the schema said. */
  message: string;
}

/** The extracted JSON did not match the caller's schema (only with `validate: true`). Thrown by `api/schema.ts`. */
export class ResultValidationError extends WebDataError {
  override name = "ResultValidationError";
  /** Every mismatch, by path inside the extracted value. */
  readonly issues: ResultIssue[];
  /** The value the service returned. */
  readonly value: unknown;
  /** Where the value was found (e.g. `json` of https://example.com). */
  readonly where: string;
  constructor(issues: ResultIssue[], value: unknown, where: string) {
    super(`The extracted ${where} does not match the schema: ${listIssues(issues)}`);
    this.issues = issues;
    this.value = value;
    this.where = where;
  }
}

/** A webhook delivery could not be accepted: bad signature, not JSON, or not a webhook payload. Thrown by `api/webhooks.ts`. */
export class WebhookVerificationError extends WebDataError {
  override name = "WebhookVerificationError";
}

/** A watcher's live stream (WebSocket or SSE) failed or the server closed it with an error. Delivered by the watcher (`jobs/`). */
export class WatchTransportError extends WebDataError {
  override name = "WatchTransportError";
  /** `websocket` or `sse`. */
  readonly transport: "websocket" | "sse";
  /** The WebSocket close code (1006 for a dropped connection), when there was one. */
  readonly code: number | undefined;
  /** The server's error text (the close reason's `error`, or an SSE `error` event), when it gave one. */
  readonly serverError: string | undefined;
  constructor(transport: "websocket" | "sse", message: string, options: { code?: number | undefined; serverError?: string | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.transport = transport;
    this.code = options.code;
    this.serverError = options.serverError;
  }
}

/** Why a walk over a job's result pages stopped (see {@link PaginationError.reason}). */
export type PaginationStop = "foreign" | "loop";

/**
 * Pagination of a job's results stopped because a status page could not be trusted; `reason` says how: `foreign`, its `next` link points at
 * another job's results (the message names it) or at no results route at all, and nothing from that link was read; `loop`, the walk went
 * in a circle (a `next` URL already followed, or a finished job's page repeating the one before), and nothing was repeated.
 */
export class PaginationError extends WebDataError {
  override name = "PaginationError";
  /** The job's id. */
  readonly jobId: string;
  /** The `next` link that was not followed, as a path and query under `apiUrl` (never an origin, user name or password). */
  readonly next: string | undefined;
  /** `foreign` (a `next` link for another job or for no results route) or `loop` (a page already read, reached again). */
  readonly reason: PaginationStop;
  constructor(jobId: string, why: string, next?: string, reason: PaginationStop = "foreign") {
    super(`Pagination of job ${jobId} stopped: ${why}`);
    this.jobId = jobId;
    this.next = next;
    this.reason = reason;
  }
}

/** A response body larger than the client's `maxResponseBytes` (reading stopped at the limit). */
export class ResponseTooLargeError extends WebDataError {
  override name = "ResponseTooLargeError";
  /** The limit in force, in bytes. */
  readonly limitBytes: number;
  /** `METHOD /path` of the request, when known. */
  readonly endpoint: string | undefined;
  constructor(limitBytes: number, endpoint?: string) {
    super(`The response body is larger than maxResponseBytes (${limitBytes} bytes)${endpoint ? ` (${endpoint})` : ""}`);
    this.limitBytes = limitBytes;
    this.endpoint = endpoint;
  }
}

/** The name of a lifecycle hook (`ClientOptions.hooks`, `RequestOptions.hooks`). */
export type HookName = "onRequest" | "onResponse" | "onRetry" | "onError" | "onJob";

/**
 * A lifecycle hook threw (or its promise rejected): the call fails with this error, and nothing is
 * sent after it (an `onRequest` that throws sends nothing at all). `hook` names the hook, `cause` is
 * what it threw. Never retried.
 */
export class HookError extends WebDataError {
  override name = "HookError";
  /** The hook that threw. */
  readonly hook: HookName;
  constructor(hook: HookName, cause: unknown) {
    super(`The ${hook} hook threw: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`, { cause });
    this.hook = hook;
  }
}

/**
 * An answer the server flags as deprecated (a `Deprecation` header or `warnings[]`), refused because the client
 * has `strictDeprecations: true`. The call itself succeeded: `body` is the answer (a job it started has its id
 * there), so nothing is lost.
 */
export class DeprecatedEndpointError extends WebDataError {
  override name = "DeprecatedEndpointError";
  /** `METHOD /path` of the call. */
  readonly endpoint: string;
  /** What to call instead, when the server said. */
  readonly replacement: string | undefined;
  /** When the endpoint stops answering (`Sunset`), when the server said. */
  readonly sunset: string | undefined;
  /** The server's deprecation texts. */
  readonly warnings: readonly string[];
  /** The answer, parsed (its key-shaped strings redacted as every answer's). */
  readonly body: unknown;
  constructor(init: { endpoint: string; replacement: string | undefined; sunset: string | undefined; warnings: readonly string[]; body: unknown }) {
    const said = init.warnings[0] ?? `${init.endpoint} is deprecated`;
    super(
      `${said}${init.replacement ? ` (replacement: ${init.replacement})` : ""}${init.sunset ? ` (sunset: ${init.sunset})` : ""}. The server flagged ${init.endpoint} as deprecated and strictDeprecations is on; the answer is on this error's \`body\`.`,
    );
    this.endpoint = init.endpoint;
    this.replacement = init.replacement;
    this.sunset = init.sunset;
    this.warnings = init.warnings;
    this.body = bounded(init.body, CARRIED);
  }
}

/**
 * A keyless client's 401, 402 or 429 says where it came from: the public service's free keyless allowance, and
 * how to add a key. Other errors, and every error of a client with a key, are returned unchanged.
 */
export function explainKeyless(err: unknown, keyless: boolean): unknown {
  if (keyless && err instanceof APIError && (err.status === 401 || err.status === 402 || err.status === 429)) {
    err.message += `. No API key was sent (keyless: apiKey: null or WEBDATA_API_KEY set empty): this answer comes from the free keyless allowance, which is rate-limited and covers search, scrape, parse and interact only. Add a key with { apiKey } or the WEBDATA_API_KEY environment variable to use your plan.`;
  }
  return err;
}

/** What a {@link BudgetExceededError} knows. */
export interface BudgetExceededInit {
  /** The budget in force, credits (the call's `budget.credits`, else the client's). */
  budget: number;
  /** Credits spent against it: the client's meter total (a client budget), or this call's job (a per-call budget). */
  spent: number;
  /** The call's stated maximum, credits (see `budget` in the README: a crawl's `limit`, a batch's URL count, an agent's `maxCredits`). */
  requested: number;
  /** What the call was: `crawl`, `batchScrape`, `agent`, `extract`. */
  operation: string;
  /** The job's id, once it was started (a job stopped while running). */
  jobId?: string | undefined;
  /** True when this client cancelled the job (`onExceeded: "cancel"`, the default). */
  cancelled?: boolean | undefined;
  /** The documents the job had fetched when it was stopped (crawl, batch scrape). */
  documents?: readonly unknown[] | undefined;
  /** The last status read of the job. */
  lastStatus?: unknown;
  /** Which budget refused: the client's or the call's own (`"budget"`, the default), a shared one (`"shared"`), or the `creditFloor` (`"floor"`). */
  reason?: BudgetRefusal | undefined;
  /** A shared budget: its name for messages (`redisBudget "key"`) and the credits reserved by calls in flight (`spent` is then what was settled). */
  shared?: { name: string; reserved: number } | undefined;
  /** The floor: how long ago the service's credit usage was read, ms. */
  readAgoMs?: number | undefined;
}

/**
 * Which budget refused a call ({@link BudgetExceededError.reason}): the client's or the call's own `budget`
 * (`"budget"`), a budget shared by several clients (`"shared"`, `webdata/redis`'s `redisBudget`), or the team's
 * remaining credits below `creditFloor` (`"floor"`, read from the service's ledger).
 */
export type BudgetRefusal = "budget" | "shared" | "floor";

/** The message of a {@link BudgetExceededError}, by its reason. */
function budgetMessage(init: BudgetExceededInit, remaining: number): string {
  const { operation, budget, spent, requested } = init;
  if (init.reason === "floor") {
    return `The ${operation} costs credits and the team has ${budget - spent} credits left, below the creditFloor of ${budget} (the service's credit usage, read ${Math.round((init.readAgoMs ?? 0) / 1000)} s ago): nothing was sent. Add credits to the team's plan, or lower creditFloor.credits`;
  }
  if (init.reason === "shared" && init.jobId === undefined) {
    const { name, reserved } = init.shared ?? { name: "shared budget", reserved: 0 };
    return `The ${operation} may spend up to ${requested} credits, and the ${name} of ${budget} cannot hold them: ${spent - reserved} spent and ${reserved} reserved by calls in flight. Nothing was sent. Raise the shared budget's credits, wait for its next window, or lower the call's stated maximum (a crawl's limit, a batch's URLs, an agent's maxCredits)`;
  }
  if (init.jobId === undefined && remaining <= 0) {
    return `The ${operation} costs credits and the budget of ${budget} is spent (${spent} spent): nothing was sent. Raise budget.credits, or call client.credits.reset() to count from zero again`;
  }
  if (init.jobId === undefined) {
    return `The ${operation} may spend up to ${requested} credits, more than the ${remaining} left of the budget of ${budget} (${spent} spent): nothing was sent. Lower its stated maximum (a crawl's limit, a batch's URLs, an agent's maxCredits) or raise budget.credits`;
  }
  return `The ${operation} job ${init.jobId} has spent past the budget of ${budget} credits (${spent} spent): ${init.cancelled ? "this client cancelled it" : "it was not cancelled (onExceeded: \"throw\", a job that had ended, or one without a cancel) and may still be running"}; the documents fetched so far are on err.documents`;
}

/**
 * A credit budget (`budget: { credits }`, of the client or of a call) would be or was passed. Thrown before
 * anything is sent when a call's stated maximum cannot fit in what is left of the budget (`jobId` absent), or
 * by a waiter once its running job's credits pass the budget: the job cancelled first unless
 * `onExceeded: "throw"` (`cancelled`), with the documents fetched so far (`documents`) and the last status.
 */
export class BudgetExceededError extends WebDataError {
  override name = "BudgetExceededError";
  /** The budget in force, credits. */
  readonly budget: number;
  /** Credits spent against the budget. */
  readonly spent: number;
  /** The call's stated maximum, credits. */
  readonly requested: number;
  /** What was left of the budget: `budget - spent`, at least 0. */
  readonly remaining: number;
  /** `crawl`, `batchScrape`, `agent` or `extract`. */
  readonly operation: string;
  /** The job's id, when a running job passed the budget (absent for a call refused before sending). */
  readonly jobId: string | undefined;
  /** True when this client cancelled the job. */
  readonly cancelled: boolean;
  /** The documents fetched so far (a crawl's or batch scrape's; empty for a refused call, an extract or an agent). */
  readonly documents: readonly unknown[];
  /** The last status read of the job (`undefined` for a refused call). */
  readonly lastStatus: unknown;
  /** Which budget refused: the client's or the call's own (`"budget"`), a shared one (`"shared"`), or the `creditFloor` (`"floor"`). */
  readonly reason: BudgetRefusal;
  constructor(init: BudgetExceededInit) {
    const remaining = Math.max(0, init.budget - init.spent);
    super(budgetMessage(init, remaining));
    this.reason = init.reason ?? "budget";
    this.budget = init.budget;
    this.spent = init.spent;
    this.requested = init.requested;
    this.remaining = remaining;
    this.operation = init.operation;
    this.jobId = init.jobId;
    this.cancelled = init.cancelled ?? false;
    this.documents = init.documents ?? [];
    this.lastStatus = init.lastStatus;
  }
}

/** The answers that get a class of their own (status, endpoint `METHOD /path`, server text, class), read by {@link APIError.from}. */
const ERROR_CLASSES: readonly [number, RegExp, RegExp, new (init: APIErrorInit) => APIError][] = [
  [409, /./, /idempotency key/i, IdempotencyConflictError],
  [400, /\/agent-signup$/, /./, SignupError],
  [403, /\/agent-signup$/, /blocked|expired/i, SignupError],
  [409, /\/agent-signup$/, /./, SignupError],
];

/** The class of each error status with one of its own (any other 5xx is an `InternalServerError`), read by `APIError.from`. */
const STATUS_CLASSES: Readonly<Record<number, new (init: APIErrorInit) => APIError>> = {
  400: BadRequestError, 401: AuthenticationError, 402: PaymentRequiredError, 403: PermissionDeniedError, 404: NotFoundError,
  408: RequestTimeoutError, 409: ConflictError, 410: GoneError, 429: RateLimitError,
};

/** The status line's text of an error status the API answers (`Bad Request`), for an answer without text of its own; else `""`. */
export function statusText(status: number): string {
  const texts: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };
  return texts[status] ?? "";
}

/** True for plain objects (JSON records). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a shared bound of `webdata/redis` is, for {@link RedisUnavailableError}'s message. */
const REDIS_KINDS = {
  limit: { thing: "concurrency limit", verb: "taken", maker: "redisLimiter", own: "{ limit: n } to go on under this process's own limit of n slots" },
  budget: { thing: "credit budget", verb: "reserved or settled", maker: "redisBudget", own: "{ credits: n } to go on under this process's own budget of n credits" },
} as const;

/**
 * Redis could not be reached (its connection is down, or a command had no answer within `redisTimeoutMs`) when a
 * shared limit or budget of `webdata/redis` needed it, and its `whenRedisDown` is `"fail"` (the default): nothing was
 * sent. Its `code` is `"redis_unavailable"`. When Redis comes back (ioredis reconnects by itself), the next calls use it
 * again: no restart.
 */
export class RedisUnavailableError extends WebDataError {
  override name = "RedisUnavailableError";
  /** Always `"redis_unavailable"`. */
  readonly code = "redis_unavailable" as const;
  /** The option that chooses what happens while Redis is away: `whenRedisDown` (of `redisLimiter` or `redisBudget`). */
  readonly option = "whenRedisDown" as const;
  /** What could not be had: the shared `"limit"` or the shared `"budget"`. */
  readonly shared: "limit" | "budget";
  /** The shared bound's key. */
  readonly key: string;

  constructor(shared: "limit" | "budget", key: string, reason: string, cause?: unknown) {
    const k = REDIS_KINDS[shared];
    super(
      `Redis is unreachable (${reason}): the ${k.thing} "${key}" shared through Redis could not be ${k.verb}, and nothing was sent. The option whenRedisDown of ${k.maker} chooses what happens while Redis is away: "fail" (the default: this error) or ${k.own} until Redis is back`,
      cause === undefined ? undefined : { cause },
    );
    this.shared = shared;
    this.key = key;
  }
}
