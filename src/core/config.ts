/**
 * Client options and their resolution from the environment. Environment access
 * is guarded so the client constructs where there is no `process` (browsers,
 * Workers, Deno without permissions).
 */
import { ValidationError, WebDataError } from "./errors.js";
import { redactUserInfo } from "./redact.js";
import { BACKOFF_BASE_OPTION, type RetryEvent } from "./retry.js";
import { budgetSchema, creditFloorSchema, headersSchema, hooksSchema, LEVELS, levelEnabled, MAX_TIMER_MS, type Budget, type CreditFloor, type LogLevel } from "./options.js";
export type { LogLevel } from "./options.js";
export type { Budget } from "./options.js";
import { clientHookSets, type Hooks } from "./hooks.js";
import { check, int, oneOf } from "./validate.js";
import * as z from "zod/v4/mini";
import type { Transport } from "./transport.js";
import type { ClientPlugin, ConcurrencyLimiter, SharedBudget } from "./client-state.js";

/** The public deployment; a key is required only here. */
export const DEFAULT_API_URL = "https://api.firecrawl.dev";

/** Default `maxResponseBytes`: 50 MiB (a status page is at most 10 MiB; a scrape with every format rarely passes a few MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** Where log lines go. `console` fits; so does pino or winston. */
export interface Logger {
  /** Detailed request/response traces. */
  debug(message: string, data?: Record<string, unknown>): void;
  /** Notable events (retries). */
  info(message: string, data?: Record<string, unknown>): void;
  /** Deprecations and recoverable trouble. */
  warn(message: string, data?: Record<string, unknown>): void;
  /** Failures. */
  error(message: string, data?: Record<string, unknown>): void;
}

/** Options of `new WebData(options)`. */
export interface ClientOptions {
  /**
   * API key. Default: env `WEBDATA_API_KEY`, else `FIRECRAWL_API_KEY`. Required for the public deployment,
   * unless keyless on purpose: `null` (or `WEBDATA_API_KEY` set to the empty string) sends no `Authorization`
   * header to any URL: the public service answers `search`, `scrape`, `parse` and `interact` without a key,
   * under a rate-limited free allowance. A key in the environment is then not sent (said once in the log at
   * `info`), and an `authorization` header in `headers` is a `ValidationError`: a key is never dropped silently.
   */
  apiKey?: string | null | undefined;
  /** Base URL. Default: env `WEBDATA_API_URL`, else `FIRECRAWL_API_URL`, else `https://api.firecrawl.dev`. A trailing `/`, `/v1` or `/v2` is tolerated. `null` means the default. */
  apiUrl?: string | null | undefined;
  /**
   * Limit of one HTTP attempt, ms (default 120000); each retry gets a fresh one, and a
   * server-side `timeout` option raises it for that call. Not a waiter's whole-job
   * deadline (`WaitOptions.timeoutMs`).
   */
  timeoutMs?: number | undefined;
  /** Retries after a retryable failure (default 2). */
  maxRetries?: number | undefined;
  /** Longest wait a server's `Retry-After` may impose, in ms (default 60000); a longer demand fails at once with `RateLimitError.retryAfterMs`. */
  maxRetryAfterMs?: number | undefined;
  /**
   * Send a generated `x-idempotency-key` on the job starts the server de-duplicates (v2 crawl, v1 crawl and
   * batch scrape), so they are retried after any retryable failure without creating two jobs. Default: on for
   * `https://api.firecrawl.dev`, off for any other `apiUrl` (a self-hosted server without its database answers
   * 500 to every request that carries the header). Off, such a start is retried only after failures that prove
   * nothing was created. A caller's own `idempotencyKey` is sent either way.
   */
  idempotencyKeys?: boolean | undefined;
  /**
   * Called before each retry's wait (the failed attempt, its error and the server-directed wait, if any): the
   * `hooks.onRetry` hook under its older name, with the older event shape. It runs as a hook does (after the
   * client's `hooks`; a promise it returns is awaited, a throw fails the call with `HookError`).
   */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /**
   * Largest response body read, in bytes, counted as it arrives (after gzip/deflate/br decoding);
   * a larger answer fails with `ResponseTooLargeError` (default 52428800, 50 MiB; `Infinity`: no limit).
   */
  maxResponseBytes?: number | undefined;
  /** A `fetch` implementation to send requests with (tests, proxies, instrumentation). Always uses the fetch path. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Where log lines go (default `console`). */
  logger?: Logger | undefined;
  /** Log level (default env `WEBDATA_LOG`, else `warn`). */
  logLevel?: LogLevel | undefined;
  /**
   * Turn off the once-per-process deprecation warnings: the v1 legacy methods', and the server's own (a
   * `Deprecation` header or `warnings[]` in an answer). The server's signal stays on `withResponse()`.
   */
  silenceDeprecationWarnings?: boolean | undefined;
  /**
   * An answer the server flags as deprecated (a `Deprecation` header or `warnings[]`) fails with
   * `DeprecatedEndpointError`, which carries the answer (`body`: a job id it started is not lost), instead of
   * a warning in the log (default false).
   */
  strictDeprecations?: boolean | undefined;
  /** @internal Transport chosen by the runtime entry (Node uses undici). */
  transport?: Transport | undefined;
  /**
   * Needs the `team` plugin (`plugins: [team]`, `import { team } from "webdata/team"`).
   * Most calls of this client that occupy the team's browsers at once (scrape, search with
   * `scrapeOptions.formats`, interact and browser execute, crawl and batch-scrape starts; a waiter's
   * status reads are not held), on every face of the client (v1 and `webdata/firecrawl` included).
   * `"auto"`: the team's own figure, `GET /v2/team/queue-status` `maxConcurrency`, read before the first
   * such call and again when a minute has passed; 2 (the smallest plan's) until the server says, or
   * when it does not. A call waits for a slot at most its `timeoutMs` (`TimeoutError`) and stops
   * waiting when its `signal` aborts (`AbortError`); nothing is sent then. Default: no bound.
   */
  maxConcurrency?: number | "auto" | undefined;
  /**
   * Needs the `team` plugin (`plugins: [team]`, `import { team } from "webdata/team"`).
   * Any {@link ConcurrencyLimiter} in place of `maxConcurrency`: `redisLimiter(...)` of `webdata/redis`
   * shares one bound between processes and machines. Holds the same calls, with the same wait rules.
   */
  limiter?: ConcurrencyLimiter | undefined;
  /**
   * Lifecycle hooks of every request of this client (`onRequest`, `onResponse`, `onRetry`, `onError`;
   * see `Hooks`): logging, metrics, tracing, header injection. A call's own `hooks` run after these.
   * A hook that throws fails the call with `HookError`. Hooks never see the key.
   */
  hooks?: Hooks | undefined;
  /**
   * Needs the `team` plugin (`plugins: [team]`, `import { team } from "webdata/team"`).
   * A credit budget for this client, counted on `client.credits` (what the server reports). A job start whose
   * stated maximum cannot fit in what is left is refused before sending (`BudgetExceededError`): a crawl's
   * `limit` (the server's default 10000 when unset) or a batch scrape's URL count, at the documented minimum
   * of 1 credit a page; an agent's `maxCredits` (its documented default 2500 when unset); an extract states
   * no maximum and is refused only once nothing is left. A job a waiter of this client waits on is cancelled
   * once the meter passes the budget (`onExceeded: "cancel"`, the default), or only thrown on (`"throw"`).
   * A call's own `budget` option replaces this one for that call. Default: no budget.
   * A {@link SharedBudget} (`redisBudget(...)` of `webdata/redis`) in its place is one budget for every client that
   * names it, on any machine: each spending call reserves its stated maximum before it is sent and settles it with
   * what its answer reports (a call's own `budget` is then checked as well, not instead).
   */
  budget?: Budget | SharedBudget | undefined;
  /**
   * Needs the `team` plugin (`plugins: [team]`, `import { team } from "webdata/team"`).
   * The service's own ledger as the record: spending calls are refused before sending (`BudgetExceededError`)
   * once the team's remaining credits, read from `GET /v2/team/credit-usage` at most every `maxAgeMs`, are below
   * `credits`. Works with a `budget` of either kind, or alone. Default: no floor.
   */
  creditFloor?: CreditFloor | undefined;
  /**
   * Plugins of the client: `[team]` of `webdata/team` brings the credit budget (`budget`), the concurrency limit
   * (`maxConcurrency`, `limiter`) and the credit meter (`client.credits`) as stages of every call; `v1` of
   * `webdata/v1` the legacy face `client.v1`; `sse` of `webdata/sse` the watcher's server-sent-events transport.
   * A plugin's options given without it are refused (`ValidationError` naming its import).
   */
  plugins?: readonly ClientPlugin[] | undefined;
}

/** Options after defaults and the environment were applied, each checked. */
export interface ResolvedConfig {
  apiKey: string | undefined;
  /** Keyless on purpose (`apiKey: null` or `WEBDATA_API_KEY=""`): no `Authorization` header is ever sent. */
  keyless: boolean;
  strictDeprecations: boolean;
  apiUrl: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  idempotencyKeys: boolean;
  maxResponseBytes: number;
  headers: Record<string, string>;
  logger: Logger;
  logLevel: LogLevel;
  silenceDeprecationWarnings: boolean;
  maxConcurrency: number | "auto" | undefined;
  limiter: ConcurrencyLimiter | undefined;
  /** The client's lifecycle hooks; `undefined` when none is set. */
  hooks: Hooks | undefined;
  /** The client's hook sets as the request path runs them (`hooks`, then the `onRetry` option: `clientHookSets`); `undefined` when none (no event is built). */
  hookSets: readonly Hooks[] | undefined;
  /** The client's credit budget, checked (`ClientOptions.budget`): its own, or a shared one as given. */
  budget: Budget | SharedBudget | undefined;
  /** The floor on the team's remaining credits, checked (`ClientOptions.creditFloor`). */
  creditFloor: CreditFloor | undefined;
  /** @internal The options' test-only backoff base (`core/retry.ts` `BACKOFF_BASE_OPTION`), as given: `core/retry.ts` checks it. */
  backoffBaseMs: unknown;
}

/** Reads an environment variable where the runtime has one; never throws. Empty (or blank) reads as unset. */
export function readEnv(name: string): string | undefined {
  return rawEnv(name)?.trim() || undefined;
}

/** An environment variable as set, `""` included (`undefined`: unset or unreadable); never throws. */
function rawEnv(name: string): string | undefined {
  try {
    const g = globalThis as { process?: { env?: Record<string, string | undefined> }; Deno?: { env?: { get(n: string): string | undefined } } };
    return g.process?.env?.[name] ?? g.Deno?.env?.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The key to send, or keyless on purpose. `apiKey: null`, or `WEBDATA_API_KEY` set empty with no key given,
 * is keyless; a key configured elsewhere is then not silently dropped: an `authorization` header is refused,
 * and a key in the environment beside `apiKey: null` is reported (`envKeyUnsent`) for the log. An empty
 * `WEBDATA_API_KEY` beside a `FIRECRAWL_API_KEY` that holds one says two things: refused.
 */
function resolveKey(options: ClientOptions): { apiKey: string | undefined; keyless: boolean; envKeyUnsent: boolean } {
  const given: unknown = options.apiKey;
  if (given !== undefined && given !== null && typeof given !== "string") {
    throw new ValidationError([{ path: "apiKey", message: `must be a string (the key), or null (keyless); got ${Array.isArray(given) ? "an array" : typeof given}` }], "client options");
  }
  if (typeof given === "string" && given.trim()) return { apiKey: given.trim(), keyless: false, envKeyUnsent: false };
  const envKey = readEnv("WEBDATA_API_KEY") ?? readEnv("FIRECRAWL_API_KEY");
  let keyless = given === null;
  if (!keyless && given === undefined && rawEnv("WEBDATA_API_KEY") !== undefined && !readEnv("WEBDATA_API_KEY")) {
    if (envKey) {
      throw new ValidationError(
        [{ path: "apiKey", message: "WEBDATA_API_KEY is set empty (keyless) but FIRECRAWL_API_KEY holds a key: unset one of them, or pass { apiKey } (a key) or { apiKey: null } (keyless)" }],
        "client options",
      );
    }
    keyless = true;
  }
  if (keyless && Object.keys(options.headers ?? {}).some((h) => h.toLowerCase() === "authorization")) {
    throw new ValidationError([{ path: "headers.authorization", message: "is sent by no keyless client (apiKey: null or WEBDATA_API_KEY set empty): pass the key as { apiKey } instead" }], "client options");
  }
  return keyless ? { apiKey: undefined, keyless, envKeyUnsent: envKey !== undefined } : { apiKey: envKey, keyless, envKeyUnsent: false };
}

/** A fault of `apiUrl`: one class whatever the fault (`ValidationError` of the client options, at `apiUrl`). */
function badApiUrl(message: string): ValidationError {
  return new ValidationError([{ path: "apiUrl", message }], "client options");
}

/**
 * Strips trailing slashes and a trailing `/v1` or `/v2` from a base URL. Every fault is a
 * `ValidationError` of the client options at `apiUrl` (not a string, not an absolute URL, not
 * http(s), or with a user name or password: the service authenticates with the Bearer key, never
 * by URL, and the `fetch` path used to fail every call with the password in the error).
 */
export function normalizeApiUrl(raw: string): string {
  if (typeof raw !== "string") throw badApiUrl(`must be a string URL such as https://api.firecrawl.dev, got ${raw === null ? "null" : Array.isArray(raw) ? "an array" : typeof raw === "object" ? "an object" : `a ${typeof raw}`}`);
  let url = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badApiUrl(`is not a valid absolute URL: ${JSON.stringify(redactUserInfo(raw))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw badApiUrl(`must use http or https, got ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) {
    parsed.username = parsed.password = "";
    throw badApiUrl(`must not hold a password (pass { apiKey }): use ${parsed.href}`);
  }
  url = url.replace(/\/+$/, "").replace(/\/v[12]$/, "").replace(/\/+$/, "");
  return url;
}

/** The error of a client for the public deployment without a key, and not keyless. */
function noKey(): WebDataError {
  return new WebDataError(
    `An API key is required for ${DEFAULT_API_URL}: pass { apiKey } to new WebData(...) or set the WEBDATA_API_KEY environment variable (FIRECRAWL_API_KEY also works). A self-hosted server needs no key: pass { apiUrl }. To call the public service's free keyless allowance (search, scrape, parse, interact; rate-limited), pass { apiKey: null }.`,
  );
}

/** Applies defaults and the environment. Throws when the public deployment has no key and keyless was not asked for. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const apiUrl = normalizeApiUrl(options.apiUrl ?? readEnv("WEBDATA_API_URL") ?? readEnv("FIRECRAWL_API_URL") ?? DEFAULT_API_URL);
  const { apiKey, keyless, envKeyUnsent } = resolveKey(options);
  if (!apiKey && !keyless && isPublicDeployment(apiUrl)) throw noKey();
  const resolved = {
    apiKey,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    headers: options.headers ?? {},
    maxConcurrency: options.maxConcurrency,
    limiter: options.limiter,
    hooks: options.hooks,
    budget: isSharedBudget(options.budget) ? undefined : (options.budget ?? undefined),
    creditFloor: options.creditFloor ?? undefined,
  };
  check(clientOptions, resolved, "client options");
  const logger = options.logger ?? consoleLogger();
  const envLevel = readEnv("WEBDATA_LOG")?.toLowerCase();
  const logLevel = options.logLevel ?? LEVELS.find((l) => l === envLevel) ?? "warn";
  const hooks = hasHooks(options.hooks) ? options.hooks : undefined;
  if (envKeyUnsent && levelEnabled(logLevel, "info")) {
    logger.info("webdata: keyless (apiKey: null): the API key in the environment (WEBDATA_API_KEY or FIRECRAWL_API_KEY) is not sent.");
  }
  return {
    ...resolved,
    keyless,
    strictDeprecations: options.strictDeprecations ?? false,
    apiUrl,
    idempotencyKeys: options.idempotencyKeys ?? isPublicDeployment(apiUrl),
    headers: { ...options.headers },
    logger,
    logLevel,
    silenceDeprecationWarnings: options.silenceDeprecationWarnings ?? false,
    hooks,
    hookSets: clientHookSets(hooks, options.onRetry),
    // Copies of its own, checked; a shared budget as given (it checks its own options where it is made: `redisBudget`).
    budget: isSharedBudget(options.budget) ? options.budget : resolved.budget && { ...resolved.budget },
    creditFloor: resolved.creditFloor && { ...resolved.creditFloor },
    backoffBaseMs: (options as { [BACKOFF_BASE_OPTION]?: unknown })[BACKOFF_BASE_OPTION],
  };
}

/**
 * The client options as resolved (from the options or the environment), checked in one place: a
 * `ValidationError` at construction. The key must be printable ASCII: a CR, LF or NUL in it made the
 * `fetch` path fail every call with the whole key in the runtime's message (the message never shows it).
 */
const clientOptions = z.looseObject({
  apiKey: z.optional(z.string().check(z.regex(/^[\x20-\x7e]+$/, { message: "must be printable ASCII, no line break (the key is not shown)" }))),
  timeoutMs: int(1, MAX_TIMER_MS),
  maxRetries: int(0),
  maxRetryAfterMs: int(0),
  maxResponseBytes: z.unknown().check(z.refine((n) => n === Infinity || (Number.isInteger(n) && (n as number) >= 1), { message: "must be an integer >= 1, or Infinity" })),
  headers: headersSchema,
  maxConcurrency: z.optional(oneOf({ string: z.enum(["auto"], { message: 'must be "auto" or a whole number >= 1' }), number: int(1) }, '"auto" or a whole number >= 1')),
  hooks: hooksSchema,
  budget: z.optional(budgetSchema),
  creditFloor: z.optional(creditFloorSchema),
  limiter: z.optional(z.unknown().check(z.refine((l) => typeof (l as { acquire?: unknown } | null)?.acquire === "function", { message: "must be an object with an acquire(signal) method (a ConcurrencyLimiter), such as redisLimiter() of webdata/redis" }))),
}).check(z.refine((o) => o.maxConcurrency === undefined || o.limiter === undefined, { message: "give maxConcurrency or limiter, not both: a limiter sets its own bound", path: ["limiter"] }));

/** True for a {@link SharedBudget} (an object with a `reserve` method), in place of a client's own `{ credits }`. */
export function isSharedBudget(budget: unknown): budget is SharedBudget {
  return typeof (budget as { reserve?: unknown } | null | undefined)?.reserve === "function";
}

/** True when `hooks` holds at least one hook. */
export function hasHooks(hooks: Hooks | undefined): hooks is Hooks {
  return !!hooks && !!(hooks.onRequest || hooks.onResponse || hooks.onRetry || hooks.onError || hooks.onJob);
}

/** True for the hosted service, which always needs a key. */
export function isPublicDeployment(apiUrl: string): boolean {
  try {
    return new URL(apiUrl).hostname === new URL(DEFAULT_API_URL).hostname;
  } catch {
    return false;
  }
}

/** The default logger: the message alone when there is no data (an empty second argument printed a trailing space). */
function consoleLogger(): Logger {
  // `console[level]` is read when a line is written (a console patched later is used), as four written-out methods would.
  const line = (level: keyof Logger): Logger[keyof Logger] => (m, d) => (d === undefined ? console[level](m) : console[level](m, d));
  return { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error") };
}

