/**
 * Checks of the arguments every method shares, before anything is sent: the
 * per-call `RequestOptions`, the waiters' options, the type of an options
 * argument, and the JSON encoding of a body. Each failure is a
 * `ValidationError`; called inside the request path (or an async waiter), so it
 * rejects the returned promise and never throws synchronously.
 */
import { isRecord, ValidationError } from "./errors.js";
import * as z from "zod/v4/mini";
import { check, int } from "./validate.js";
import { MAX_TIMER_MS } from "./time.js";

/** The longest delay one runtime timer holds (2^31 - 1 ms): the bound of every time option (its home is `./time.ts`). */
export { MAX_TIMER_MS };

/** True for an `AbortSignal` (also one from another realm or polyfill: checked by shape). */
export function isAbortSignal(v: unknown): v is AbortSignal {
  const s = v as { aborted?: unknown; addEventListener?: unknown } | null;
  return typeof s === "object" && s !== null && typeof s.aborted === "boolean" && typeof s.addEventListener === "function";
}

const signal = z.optional(z.unknown().check(z.refine((v) => v === undefined || isAbortSignal(v), { message: "must be an AbortSignal" })));
/** Whole milliseconds, as the client's own `timeoutMs` (a fractional one is a mistake of units). */
const timeoutMs = z.optional(int(1, MAX_TIMER_MS));

/** An HTTP header name: a token of RFC 9110. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What every runtime's `fetch` and undici accept in a header value: no CR, LF, NUL or other control character, nothing past U+00FF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Header names and values that can be sent, checked before anything is: a CR/LF in a value used to
 * come back from the transport as a `ConnectionError` (retried twice), and a runtime's message quoted
 * the value. The messages never show a value (it may be a secret).
 */
export const headersSchema = z.record(
  z.string().check(z.regex(HEADER_NAME, { message: "is not a header name" })),
  z.string().check(z.regex(HEADER_VALUE, { message: "must be printable, no line break (the value is not shown)" })),
);

/** True for a header name {@link headersSchema} accepts. */
export function isHeaderName(name: unknown): boolean {
  return typeof name === "string" && HEADER_NAME.test(name);
}

/** True for a header value {@link headersSchema} accepts. */
export function isHeaderValue(value: unknown): boolean {
  return typeof value === "string" && HEADER_VALUE.test(value);
}

const hook = z.optional(z.unknown().check(z.refine((v) => v === undefined || typeof v === "function", { message: "must be a function" })));

/** `hooks` (`ClientOptions`, `RequestOptions`): an object of the four lifecycle hooks, each a function when given (`core/hooks.ts`). */
export const hooksSchema = z.optional(z.looseObject({ onRequest: hook, onResponse: hook, onRetry: hook, onError: hook, onJob: hook }));

const requestOptions = z.looseObject({
  signal,
  timeoutMs,
  maxRetries: z.optional(int(0)),
  headers: z.optional(headersSchema),
  idempotencyKey: z.optional(z.string()),
  hooks: hooksSchema,
  requestId: z.optional(z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[\x21-\x7e]+$/, { message: "must be printable ASCII without spaces (it is sent as the x-request-id header)" }))),
});

/** A poll interval, ms: at least 0, at most what a timer holds (the waiters', the documents iterators' and the watcher's). */
export const pollIntervalMs = z.optional(z.number().check(z.gte(0), z.lte(MAX_TIMER_MS)));

/**
 * Stall detection: `stallTimeoutMs`, whole milliseconds bounded as `timeoutMs` (a timer holds it),
 * and `cancelOnStall`. Members of the wait family: the crawl and batch-scrape waiters, the documents
 * iterators and the watcher read them.
 */
export const stallShape = { stallTimeoutMs: timeoutMs, cancelOnStall: z.optional(z.boolean()) };

/** The wait/polling family's fields (`signal`, `timeoutMs`, `pollIntervalMs`, and the stall fields): the one schema of a waiter's, an iterator's and the watcher's. */
export const waitShape = { signal, timeoutMs, pollIntervalMs, ...stallShape };

/**
 * A credit budget (`budget`, a client option and a per-call option of the job waiters): `credits` a number
 * >= 0, `onExceeded` `"cancel"` (the default) or `"throw"`. Its one schema, for both.
 */
export const budgetSchema = z.strictObject({
  credits: z.number().check(z.gte(0), z.refine(Number.isFinite, { message: "must be a finite number of credits" })),
  onExceeded: z.optional(z.enum(["cancel", "throw"])),
});

/**
 * The floor on the team's remaining credits as the service's own ledger reports them (`creditFloor`, a client option
 * with the `team` plugin): `credits` a number >= 0, `maxAgeMs` how old the figure may be before it is read again.
 */
export const creditFloorSchema = z.strictObject({
  credits: z.number().check(z.gte(0), z.refine(Number.isFinite, { message: "must be a finite number of credits" })),
  maxAgeMs: z.optional(z.number().check(z.int(), z.gte(0), z.lte(MAX_TIMER_MS))),
});

/** A waiter's options: the wait family, its `budget` and its `onStatus` callback. */
const waitOptions = z.looseObject({ ...waitShape, budget: z.optional(budgetSchema), onStatus: hook });

declare const CHECKED: unique symbol;

/**
 * A value its family's schema has checked ({@link checkRequestOptions}, {@link checkWaitOptions}): the
 * public method checks once and hands this inward, and what takes it (`api/endpoint.ts` `sendChecked`,
 * `HttpClient.request`, the poll loop, the page walk) never checks again. A type brand: TypeScript
 * proves that no unchecked options reach them. Checked request options also carry a mark no caller
 * can make ({@link isChecked}), so `send` knows them from a caller's and does not check them again.
 */
export type Checked<T> = T & { readonly [CHECKED]: true };

/** The run-time mark of checked request options (module-private: no caller's object can carry it). */
const MARK = Symbol("checked request options");

/** A marked copy of `value` (the mark is not enumerable: a spread copy is not marked, and is checked again). */
function marked<T extends object>(value: T): Checked<T> {
  return Object.defineProperty({ ...value }, MARK, { value: true }) as Checked<T>;
}

/** True for request options {@link checkRequestOptions} made (or {@link withSignal} from them). */
export function isChecked<T extends object>(value: T | null | undefined): value is Checked<T> {
  return typeof value === "object" && value !== null && Object.prototype.hasOwnProperty.call(value, MARK);
}

/** No request options, checked. */
export const NO_OPTIONS: Checked<Record<never, never>> = Object.freeze(marked({}));

/**
 * Checks a call's `RequestOptions` (`undefined` and `null` mean none): `timeoutMs` in (0, 2^31-1],
 * `maxRetries` a non-negative integer, `signal` an `AbortSignal`, `headers` strings. Run once per
 * public call; its result is what the request path takes.
 */
export function checkRequestOptions<T extends object>(value: T | null | undefined): Checked<T> {
  if (value === undefined || value === null) return NO_OPTIONS as Checked<T>;
  return marked(check(requestOptions, optionsArg(value, "request options"), "request options"));
}

/**
 * Checked options with their `signal` replaced by one the SDK made or took from other checked options
 * (a waiter's own signal, a poll's controller): still checked, so not checked again.
 */
export function withSignal<T extends { signal?: AbortSignal | undefined }>(checked: Checked<T>, signal: AbortSignal | undefined): Checked<T> {
  return signal === checked.signal ? checked : marked({ ...checked, signal });
}

/** A credit budget: the client option `budget`, or a job waiter's `budget` option (see `ClientOptions.budget`). */
export interface Budget {
  /** The most credits that may be spent (the client's: in all, as `client.credits.total` counts them; a call's: by its job). */
  credits: number;
  /** Once a running job passes it: `"cancel"` the job, then throw (default), or `"throw"` and leave the job running. */
  onExceeded?: "cancel" | "throw" | undefined;
}

/** A floor on the team's remaining credits, read from the service's ledger (see `ClientOptions.creditFloor`). */
export interface CreditFloor {
  /** Spending calls are refused once the team's remaining credits (`GET /v2/team/credit-usage` `remainingCredits`) are below this. */
  credits: number;
  /** How old the figure may be before a spending call reads it again, ms (default 30000: at most one read every 30 s; 0: before every spending call). */
  maxAgeMs?: number | undefined;
}

/**
 * Where checked request options carry a waiter's own credit budget to its job start (`budget` of `crawl()`,
 * `batchScrape()`, `extract()`, `agent()`), for the budget stage (`api/endpoint.ts` `sendChecked`) to read in place of
 * the client's. A symbol no caller's options can hold; copied with the options ({@link withSignal}).
 */
export const CALL_BUDGET = Symbol("the call's credit budget");

/** Checked options that carry `budget` to the budget stage ({@link CALL_BUDGET}); none: `checked` itself. */
export function withBudget<T extends object>(checked: Checked<T>, budget: Budget | undefined): Checked<T> {
  return budget ? marked({ ...checked, [CALL_BUDGET]: budget }) : checked;
}

/**
 * Checks a waiter's `pollIntervalMs`, `timeoutMs` and `signal` (the options object is checked to be an
 * object first) and returns the options as a plain object (`{}` for none).
 */
export function checkWaitOptions<T extends object>(value: T | null | undefined, context = "wait options"): Checked<T> {
  if (value === undefined || value === null) return NO_OPTIONS as Checked<T>;
  return check(waitOptions, optionsArg(value, context), context) as Checked<T>;
}

/**
 * An options argument: `undefined` and `null` become `{}`; a plain object is returned as it is;
 * anything else (a string, a number, an array, a class instance) is a `ValidationError`.
 */
export function optionsArg<T>(value: T | undefined | null, context: string): T {
  if (value === undefined || value === null) return {} as T;
  if (isPlainObject(value)) return value;
  throw new ValidationError([{ path: "", message: `must be a plain object of options, got ${Array.isArray(value) ? "an array" : `a ${typeof value}`}` }], context);
}

/** True for a plain object (`{...}` or `Object.create(null)`): not an array, a boxed primitive, a Map or a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Checks that the values of an options object can be carried as JSON (no BigInt, no cycle, not too
 * deep), for options that are not sent as a body but must still be the data they claim to be.
 * `signal` (an `AbortSignal`) and a schema object (zod, Standard Schema) are not data and are skipped.
 */
export function checkJsonOptions(value: object, context: string): void {
  const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (isAbortSignal(rest.signal)) delete rest.signal;
  const schema = rest.schema as Record<string, unknown> | undefined;
  if (typeof schema === "object" && schema !== null && ("~standard" in schema || "_zod" in schema || "_def" in schema)) delete rest.schema;
  encodeJson(rest, context, "cannot be read as JSON data");
}

/**
 * An options argument whose values go to the query string ({@link optionsArg} first): each value must
 * be a string, number or boolean, since an object, array or BigInt has no query-string form.
 */
export function queryOptionsArg<T>(value: T | undefined | null, context: string): T {
  const opts = optionsArg(value, context);
  const bad = Object.entries(opts as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null && !["string", "number", "boolean"].includes(typeof v));
  if (bad.length) throw new ValidationError(bad.map(([k, v]) => ({ path: k, message: `must be a string, number or boolean (it goes to the query string), got ${Array.isArray(v) ? "an array" : `a ${typeof v}`}` })), context);
  return opts;
}

/**
 * `RequestOptions` with an idempotency key given beside them (the v1 signatures). Options that are
 * not a plain object are returned as they are, for the request path to reject (a spread would hide them).
 */
export function withIdempotencyKey<T>(req: T | undefined, idempotencyKey: string | undefined): T | undefined {
  if (idempotencyKey === undefined || (req !== undefined && req !== null && !isPlainObject(req))) return req;
  return { ...req, idempotencyKey } as T;
}

/** A request's body as sent: none, its JSON text, or with `files` a multipart form (its parts: see `RequestSpec.files`). */
export function encodeBody(body: unknown, files: Record<string, [Blob, string]> | undefined): string | FormData | undefined {
  if (!files) return body === undefined ? undefined : encodeJson(body);
  const form = new FormData();
  for (const [k, v] of Object.entries(isRecord(body) ? body : {})) form.append(k, encodeJson(v));
  for (const [k, [blob, name]] of Object.entries(files)) form.append(k, blob, name);
  return form;
}

/** `JSON.stringify` of a request body (or of options, `context` and `cannot` then say which); a circular or too deeply nested value is a `ValidationError`. */
export function encodeJson(body: unknown, context = "request body", cannot = "cannot be sent as JSON"): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    throw new ValidationError([{ path: "", message: `${cannot} (circular, too deep, or a BigInt): ${err instanceof Error ? err.message : ""}` }], context);
  }
}

/*
 * The server-timeout rule, in one place: one HTTP attempt lasts at least a call's server-side `timeout` (how
 * long the server may work on it) plus the margin, whatever the client's shorter `timeoutMs`
 * ({@link attemptTimeoutMs}); endpoint modules name their row of {@link SERVER_TIMEOUTS} and never convert by hand.
 */
/** Added to a call's server-side timeout for its per-attempt timeout: the server's answer needs time to arrive. */
export const SERVER_TIMEOUT_MARGIN_MS = 10_000;

/**
 * Every endpoint whose body carries a server-side `timeout`, by route (all are POST): the milliseconds per
 * unit of its wire value (1000 where the wire counts seconds), and after it the server's default (in wire
 * units) when the call gives none.
 */
export const SERVER_TIMEOUTS = {
  "/v2/scrape": [1],
  "/v2/map": [1],
  "/v2/search": [1],
  "/v2/parse": [1],
  "/v2/browser/{id}/execute": [1000, 30],
  "/v2/scrape/{id}/interact": [1000],
  "/v1/scrape": [1],
  "/v1/map": [1],
  "/v1/search": [1, 60_000],
  "/v1/extract": [1, 60_000],
} as const satisfies Record<string, readonly [unit: 1 | 1000, serverDefault?: number]>;

/** A route of {@link SERVER_TIMEOUTS}. */
export type ServerTimeoutRoute = keyof typeof SERVER_TIMEOUTS;

/** The server-side time limit of a call to `route` whose `timeout` field is `timeout` (0 or absent: the server's default), in ms. */
export function serverTimeoutMs(route: ServerTimeoutRoute, timeout: number | undefined): number | undefined {
  const [unit, serverDefault]: readonly [number, number?] = SERVER_TIMEOUTS[route];
  const value = timeout || serverDefault;
  return value ? value * unit : undefined;
}

/** The per-attempt timeout in force: the call's, or the server's limit plus the margin when longer, never past what a timer can hold. */
export function attemptTimeoutMs(callMs: number, serverMs: number | undefined): number {
  return Math.min(MAX_TIMER_MS, Math.max(callMs, serverMs === undefined ? 0 : serverMs + SERVER_TIMEOUT_MARGIN_MS));
}

/** Levels for the client's logger, least to most verbose after `off`. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** The log levels, quietest first. */
export const LEVELS: readonly LogLevel[] = ["off", "error", "warn", "info", "debug"];

/** True when a line at `level` should be written under `configured`. */
export function levelEnabled(configured: LogLevel, level: Exclude<LogLevel, "off">): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(configured) && configured !== "off";
}
