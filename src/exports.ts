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
 *   `ClientOptions`, `RequestOptions`, `Logger`, `APIPromise`).
 *
 * The parts of those types (each format object, each watch event, profile
 * parts, usage periods, search item kinds, agent trace events, error `Init`
 * and issue shapes, the schema helper types, ...) are in `webdata/types`
 * (`types.ts`), which has every type the root has, and more.
 */
import type { APIPromise as APIPromiseClass } from "./core/request.js";
import type { Watcher as WatcherClass } from "./jobs/watcher.js";
import type { Document } from "./api/document.js";

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
export type { ClientOptions, Logger } from "./core/config.js";
export type { ClientPlugin, ConcurrencyLimiter } from "./core/client-state.js";
export type { RequestOptions, ResponseInfo, WithResponse } from "./core/request.js";
export type { Hooks } from "./core/hooks.js";
/**
 * What every request method returns: a `Promise` of the parsed result, plus `.withResponse()` for the
 * raw status and headers. A type only: the SDK makes these, code awaits them.
 */
export type APIPromise<T> = APIPromiseClass<T>;
export type { Document } from "./api/document.js";
export type { ScrapeOptions, ScrapeParams, ScrapeResult, Format } from "./api/scrape.js";
export type { MapOptions, MapResult } from "./api/map.js";
export { ResultValidationError, typedJsonSchema, toWireSchema } from "./api/schema.js";
export type { SearchOptions, SearchResult } from "./api/search.js";
export type {
  BrowserOptions,
  BrowserSession,
  BrowserSessionInfo,
  BrowserExecuteOptions,
  BrowserExecuteResult,
} from "./api/browser.js";
export type { TokenUsage, CreditUsage, HistoricalUsageOptions, QueueStatus, Concurrency } from "./api/usage.js";
export type { CrawlOptions, CrawlDocument, CrawlStartResult, ActiveCrawls } from "./api/crawl.js";
export type { BatchScrapeOptions, BatchScrapeStartResult } from "./api/batch.js";
export type { ExtractOptions, ExtractStartResult, ExtractStatus } from "./api/extract.js";
export type { AgentOptions, AgentRequest, AgentStartResult, AgentStatus } from "./api/agent.js";
export type { JobStatus, JobPageOptions, JobErrors, WaitOptions, JobDocumentsOptions } from "./jobs/types.js";
export type { DocumentStream } from "./jobs/pages.js";
export type { ValidateOption } from "./jobs/waiters.js";
// Long jobs: every batch input's outcome, the waiters' stall options.
export type { BatchFailure, BatchDocuments, BatchDocumentsOptions } from "./jobs/batch-outcomes.js";
export type { JobWaitOptions, WaitStatus } from "./jobs/types.js";
/**
 * Live events of one job, from `client.watcher(jobId)` (iterate it, or `on(type, listener)`).
 * A type only: the client makes watchers.
 */
export type Watcher<TDoc = Document> = WatcherClass<TDoc>;
export { WatchTransportError, type WatcherOptions, type WatchEvent } from "./jobs/watch-types.js";
export type { CrawlParamsPreview } from "./api/crawl-preview.js";
export { SignupError, type AgentSignupParams } from "./api/agent-signup.js";
export { scrape, type StandaloneOptions } from "./standalone.js";
export type { InteractOptions, InteractResult, StopInteractionResult } from "./api/interact.js";
export type { SearchFeedbackOptions, FeedbackOptions, FeedbackResult } from "./api/feedback.js";
export type { ParseFile, ParseOptions } from "./api/parse.js";
export type {
  CreateMonitorRequest,
  UpdateMonitorRequest,
  Monitor,
  MonitorCheck,
  MonitorCheckDetail,
  ListMonitorsOptions,
  ListMonitorChecksOptions,
  MonitorCheckPageOptions,
} from "./api/monitor.js";
export type { AgentRunList, AgentListOptions, AgentTrace, AgentSnapshot } from "./api/agent-runs.js";
