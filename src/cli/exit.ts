/**
 * The CLI's exit codes, one per error class, so scripts can tell a bad key
 * from a rate limit from a failed crawl. Stated once here; `--help` prints them.
 */
import {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  JobFailedError,
  JobTimeoutError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "../core/errors.js";

/** Exit codes of `webdata` (besides 0, success). */
export const EXIT = {
  /** An error no other code covers. */
  failure: 1,
  /**
   * Bad arguments or options: refused before anything was sent (a `ValidationError`, an unknown flag), or
   * refused by the server with a 400 (every request the CLI sends is built from its arguments: a URL the
   * server cannot parse, `--format markdwn`). Nothing was done and no credit spent.
   */
  usage: 2,
  /** 401 or 403: the key is missing, wrong or not allowed to do this. */
  auth: 3,
  /** 402: not enough credits. */
  credits: 4,
  /** 429: rate limited, retries spent. */
  rateLimited: 5,
  /** 404: no such job or resource. */
  notFound: 6,
  /** A request or the whole job took longer than allowed. */
  timeout: 7,
  /** The server could not be reached. */
  connection: 8,
  /** The job failed or was cancelled on the server, or completed without a single page (its start page failed). */
  jobFailed: 9,
  /** Any other error answer of the server (a 4xx but 400, a 5xx). */
  server: 10,
  /** Interrupted (Ctrl-C): 128 + SIGINT. */
  interrupted: 130,
  /** Standard output was closed by its reader (`webdata crawl ... | head -1`): 128 + SIGPIPE, as git's. */
  pipeClosed: 141,
} as const;

/** The abort reason when standard output was closed by its reader: the command stops quietly (a job it started is cancelled). */
export const STDOUT_CLOSED = "webdata: standard output was closed";

/** The exit code for an error thrown by the client. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof ValidationError || err instanceof BadRequestError) return EXIT.usage;
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) return EXIT.auth;
  if (err instanceof PaymentRequiredError) return EXIT.credits;
  if (err instanceof RateLimitError) return EXIT.rateLimited;
  if (err instanceof NotFoundError) return EXIT.notFound;
  if (err instanceof TimeoutError || err instanceof JobTimeoutError) return EXIT.timeout;
  if (err instanceof ConnectionError) return EXIT.connection;
  if (err instanceof JobFailedError) return EXIT.jobFailed;
  if (err instanceof AbortError) return EXIT.interrupted;
  if (err instanceof APIError) return EXIT.server;
  return EXIT.failure;
}

/** The exit codes as `--help` lists them. */
export const EXIT_HELP = `Exit codes:
  0 success            2 bad arguments (refused before sending, or by the server with a 400)
  3 key missing/refused (401/403)    4 no credits (402)    5 rate limited (429)    6 not found (404)
  7 timed out          8 server unreachable             9 job failed, cancelled or without a page
  10 other server error (4xx, 5xx)   1 anything else    130 interrupted (Ctrl-C or SIGTERM)
  141 output closed by its reader (| head): the command stops quietly, cancelling a job it started`;
