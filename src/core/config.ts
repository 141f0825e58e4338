/**
 * Client options and their resolution from the environment. Environment access
 * is guarded so the client constructs where there is no `process` (browsers,
 * Workers, Deno without permissions).
 */
import { ValidationError, WebDataError } from "./errors.js";
import { redactUserInfo } from "./redact.js";
import { BACKOFF_BASE_OPTION, type RetryEvent } from "./retry.js";
import { headersSchema, hooksSchema, MAX_TIMER_MS } from "./options.js";
import type { Hooks } from "./hooks.js";
import { check, int } from "./validate.js";
import * as z from "zod/v4/mini";
import type { Transport } from "./transport.js";

/** The public deployment; a key is required only here. */
export const DEFAULT_API_URL = "https://api.firecrawl.dev";

/** Default `maxResponseBytes`: 50 MiB (a status page is at most 10 MiB; a scrape with every format rarely passes a few MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** Levels for the client's logger, least to most verbose after `off`. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

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
  /** API key. Default: env `WEBDATA_API_KEY`, else `FIRECRAWL_API_KEY`. Required only for the public deployment. `null` (as the official client allows) means the default. */
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
  /** Called before each retry's wait (the failed attempt, its error and the server-directed wait, if any). */
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
  /** Turn off the once-per-process warnings of the v1 legacy methods. */
  silenceDeprecationWarnings?: boolean | undefined;
  /** @internal Transport chosen by the runtime entry (Node uses undici). */
  transport?: Transport | undefined;
  /**
   * Lifecycle hooks of every request of this client (`onRequest`, `onResponse`, `onRetry`, `onError`;
   * see `Hooks`): logging, metrics, tracing, header injection. A call's own `hooks` run after these.
   * A hook that throws fails the call with `HookError`. Hooks never see the key.
   */
  hooks?: Hooks | undefined;
}

/** Options after defaults and the environment were applied. */
export interface ResolvedConfig {
  apiKey: string | undefined;
  apiUrl: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  idempotencyKeys: boolean;
  onRetry: ((event: RetryEvent) => void) | undefined;
  maxResponseBytes: number;
  headers: Record<string, string>;
  logger: Logger;
  logLevel: LogLevel;
  silenceDeprecationWarnings: boolean;
  /** The client's lifecycle hooks; `undefined` when none is set (the request path then builds no event). */
  hooks: Hooks | undefined;
  /** @internal The options' test-only backoff base (`core/retry.ts` `BACKOFF_BASE_OPTION`), as given: `core/retry.ts` checks it. */
  backoffBaseMs: unknown;
}

/** Reads an environment variable where the runtime has one; never throws. */
export function readEnv(name: string): string | undefined {
  try {
    const g = globalThis as { process?: { env?: Record<string, string | undefined> }; Deno?: { env?: { get(n: string): string | undefined } } };
    const fromProcess = g.process?.env?.[name];
    if (fromProcess !== undefined) return fromProcess.trim() || undefined;
    const fromDeno = g.Deno?.env?.get(name);
    return fromDeno?.trim() || undefined;
  } catch {
    return undefined;
  }
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

const LEVELS: readonly LogLevel[] = ["off", "error", "warn", "info", "debug"];

function parseLevel(v: string | undefined): LogLevel | undefined {
  const lower = v?.toLowerCase();
  return LEVELS.find((l) => l === lower);
}

/** Applies defaults and the environment. Throws when the public deployment has no key. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const apiUrl = normalizeApiUrl(options.apiUrl ?? readEnv("WEBDATA_API_URL") ?? readEnv("FIRECRAWL_API_URL") ?? DEFAULT_API_URL);
  const apiKey = options.apiKey?.trim() || readEnv("WEBDATA_API_KEY") || readEnv("FIRECRAWL_API_KEY");
  if (!apiKey && isPublicDeployment(apiUrl)) {
    throw new WebDataError(
      `An API key is required for ${DEFAULT_API_URL}: pass { apiKey } to new WebData(...) or set the WEBDATA_API_KEY environment variable (FIRECRAWL_API_KEY also works). A self-hosted server needs no key: pass { apiUrl }.`,
    );
  }
  const resolved = {
    apiKey,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    headers: options.headers ?? {},
    hooks: options.hooks,
  };
  check(clientOptions, resolved, "client options");
  const { timeoutMs, maxRetries, maxRetryAfterMs, maxResponseBytes } = resolved;
  return {
    apiKey,
    apiUrl,
    timeoutMs,
    maxRetries,
    maxRetryAfterMs,
    idempotencyKeys: options.idempotencyKeys ?? isPublicDeployment(apiUrl),
    onRetry: options.onRetry,
    maxResponseBytes,
    headers: { ...options.headers },
    logger: options.logger ?? consoleLogger(),
    logLevel: options.logLevel ?? parseLevel(readEnv("WEBDATA_LOG")) ?? "warn",
    silenceDeprecationWarnings: options.silenceDeprecationWarnings ?? false,
    hooks: hasHooks(options.hooks) ? options.hooks : undefined,
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
  hooks: hooksSchema,
});

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
  return {
    debug: (m, d) => (d === undefined ? console.debug(m) : console.debug(m, d)),
    info: (m, d) => (d === undefined ? console.info(m) : console.info(m, d)),
    warn: (m, d) => (d === undefined ? console.warn(m) : console.warn(m, d)),
    error: (m, d) => (d === undefined ? console.error(m) : console.error(m, d)),
  };
}

/** True when a line at `level` should be written under `configured`. */
export function levelEnabled(configured: LogLevel, level: Exclude<LogLevel, "off">): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(configured) && configured !== "off";
}
