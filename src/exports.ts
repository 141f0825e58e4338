/**
 * The root entry's public names besides the client class, shared by the
 * portable and the Node entry. The rule (`test/surface-names.test.ts` lists
 * the names, so any growth fails):
 *
 * - values: what users construct, call or catch: `scrape`, the schema helpers
 *   (`typedJsonSchema`, `toWireSchema`) and every error class a plain client
 *   throws (the `team` plugin's, `BudgetExceededError` and `JobStalledError`,
 *   come with it from `webdata/team`; the webhook receiver's from `webdata/webhooks`);
 * - types: each public method's options and result type, and the few types
 *   users name all the time (`Document`, `Format`, `WatchEvent`, `Watcher`,
 *   `ClientOptions`, `RequestOptions`, `Logger`, `APIPromise`), listed in
 *   `root-types.ts`, which `types.ts` (`webdata/types`, with the parts of
 *   those types) shares.
 */
export {
  WebDataError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PaymentRequiredError,
  PermissionDeniedError,
  NotFoundError,
  RequestTimeoutError,
  ConflictError,
  GoneError,
  RateLimitError,
  InternalServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  ValidationError,
  JobFailedError,
  JobTimeoutError,
  InvalidResponseError,
  PaginationError,
  RedirectError,
  ResponseTooLargeError,
  IdempotencyConflictError,
  DeprecatedEndpointError,
  // Lifecycle hooks: a hook that throws fails the call.
  HookError,
  // Long jobs: a job whose results expired (a stalled job's `JobStalledError` comes with `stallTimeoutMs`, from `webdata/team`).
  JobExpiredError,
} from "./core/errors.js";
export { ResultValidationError, typedJsonSchema, toWireSchema } from "./api/schema.js";
export { WatchTransportError } from "./jobs/watch-types.js";
export { SignupError } from "./api/agent-signup.js";
export { scrape } from "./standalone.js";
export type * from "./root-types.js";
