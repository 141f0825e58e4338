/**
 * Everything public besides the client class, shared by the portable and the
 * Node entry.
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
  type APIErrorInit,
  type ValidationIssue,
} from "./core/errors.js";
export { InvalidResponseError, type InvalidResponseCode, type InvalidResponseErrorInit, type ResponseIssue } from "./core/errors.js";
export { PaginationError, PaginationLoopError, RedirectError, ResponseTooLargeError } from "./core/errors.js";
export type { ClientOptions, Logger, LogLevel } from "./core/config.js";
export type { RetryEvent } from "./core/retry.js";
export { APIPromise, type RequestOptions, type ResponseInfo, type WithResponse } from "./core/request.js";
export { VERSION } from "./core/version.js";
export type * from "./api/document.js";
export type {
  ScrapeOptions,
  ScrapeParams,
  Format,
  StringFormat,
  JsonFormat,
  JsonSchema,
  ScreenshotFormat,
  ChangeTrackingFormat,
  AttributesFormat,
  QueryFormat,
  Action,
  Location,
  Parser,
} from "./api/scrape.js";
export type { MapOptions, MapLink, MapResult } from "./api/map.js";
export {
  ResultValidationError,
  typedJsonSchema,
  toWireSchema,
  type ResultIssue,
  type SchemaInput,
  type InferSchema,
  type TypedJsonSchema,
} from "./api/schema.js";
export type { ScrapeResult, JsonOfFormats } from "./api/scrape.js";
export type {
  SearchOptions,
  SearchResult,
  SearchItem,
  SearchSource,
  SearchSourceName,
  SearchCategory,
  SearchCategoryName,
  SearchFormat,
  SearchFormatName,
  SearchScrapeOptions,
  ScrapedFields,
  WebResult,
  NewsResult,
  ImageResult,
} from "./api/search.js";
export {
  BrowserSessionGoneError,
  type BrowserOptions,
  type BrowserSession,
  type BrowserSessionInfo,
  type BrowserExecuteOptions,
  type BrowserExecuteResult,
} from "./api/browser.js";
export type {
  TokenUsage,
  CreditUsage,
  UsagePeriod,
  CreditUsagePeriod,
  TokenUsagePeriod,
  HistoricalUsageOptions,
  QueueStatus,
  Concurrency,
} from "./api/usage.js";
export type { CrawlOptions, CrawlDocument, CrawlStartResult, ActiveCrawl, ActiveCrawls } from "./api/crawl.js";
export type { BatchScrapeOptions, BatchScrapeStartResult } from "./api/batch.js";
export type { ExtractOptions, ExtractStartResult, ExtractStatus } from "./api/extract.js";
export type { AgentOptions, AgentStartResult, AgentStatus } from "./api/agent.js";
export { IdempotencyConflictError } from "./core/errors.js";
export type { JobKind, JobState, JobStatus, JobPageOptions, JobError, JobErrors, WaitOptions, JobDocumentsOptions, ApiVersion } from "./jobs/types.js";
export type { ValidateOption } from "./jobs/waiters.js";
export type { Watcher } from "./jobs/watcher.js";
export {
  WatchTransportError,
  type WatcherOptions,
  type WatchEvent,
  type WatchEventType,
  type WatchDocumentEvent,
  type WatchStatusEvent,
  type WatchDoneEvent,
  type WatchErrorEvent,
  type WebSocketConstructor,
} from "./jobs/watch-types.js";
export type { WebhookConfig, AgentWebhookConfig } from "./api/webhooks.js";
export type { CrawlParamsPreview } from "./api/crawl-preview.js";
export {
  SignupInvalidError,
  SignupBlockedError,
  SignupExpiredError,
  SignupPendingError,
  type AgentSignupParams,
  type AgentSignupRecord,
} from "./api/agent-signup.js";
export { scrape, type StandaloneOptions } from "./standalone.js";
export type { AgentRequest } from "./api/agent.js";
export type { InteractOptions, InteractResult, StopInteractionResult } from "./api/interact.js";
export type { SearchFeedbackOptions, FeedbackOptions, FeedbackResult } from "./api/feedback.js";
export type { ParseFile, ParseOptions } from "./api/parse.js";
export type {
  CreateMonitorRequest,
  UpdateMonitorRequest,
  Monitor,
  MonitorTarget,
  MonitorCheck,
  MonitorCheckDetail,
  ListMonitorsOptions,
  ListMonitorChecksOptions,
  MonitorCheckPageOptions,
} from "./api/monitor.js";
export type { AgentRun, AgentRunList, AgentListOptions, AgentTrace, AgentTraceEvent, AgentSnapshot } from "./api/agent-runs.js";
export type { QuestionFormat, HighlightsFormat } from "./api/scrape.js";
export type { BrandingProfile, MenuProfile, ProductProfile } from "./api/profiles.js";
