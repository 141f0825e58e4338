/**
 * `webdata/types`: every public type of the SDK, for code that names the parts
 * of a result or an option (one format object, one watch event kind, a profile
 * part, a usage period, a search item kind, an agent trace event, an error's
 * `Init` or issue shape, the schema helper types, ...). Types only: its
 * JavaScript module is empty, and the values (the client, `scrape`, the error
 * classes, the schema helpers) are imported from `webdata`.
 *
 * ```ts
 * import { WebData, type Document } from "webdata";
 * import type { JsonFormat, WatchDocumentEvent, CreditUsagePeriod } from "webdata/types";
 * ```
 *
 * It has each type the root entry has, so either import works for those.
 */
export type * from "./root-types.js";
export type { ReleaseSlot } from "./core/client-state.js";

// The parts: each is a piece of one of the types above.
export type { DeprecationInfo } from "./core/response.js";
export type { APIErrorInit, ValidationIssue, InvalidResponseCode, InvalidResponseErrorInit, ResponseIssue, ResultIssue, SignupRefusal, PaginationStop } from "./core/errors.js";
// Long jobs: the parts of the stall options and of `byUrl`.
export type { StallOptions } from "./jobs/types.js";
export type { BatchFailureReason, BatchOutcomes } from "./jobs/batch-outcomes.js";
export type { LogLevel } from "./core/config.js";
export type { RetryEvent } from "./core/retry.js";
// Lifecycle hooks: the `hooks` option, its hook names and the event each hook gets.
export type { Hooks, HookName, HookEventBase, RequestHookEvent, ResponseHookEvent, RetryHookEvent, ErrorHookEvent, JobHookEvent, JobHookKind } from "./core/hooks.js";
export type { DocumentMetadata, ActionResults, ChangeTrackingResult } from "./api/document.js";
export type {
  StringFormat,
  JsonFormat,
  ScreenshotFormat,
  ChangeTrackingFormat,
  AttributesFormat,
  QueryFormat,
  QuestionFormat,
  HighlightsFormat,
  JsonOfFormats,
  Action,
  Location,
  Parser,
} from "./api/scrape.js";
export type { JsonSchema, SchemaInput, InferSchema, TypedJsonSchema } from "./api/schema.js";
export type { MapLink } from "./api/map.js";
export type {
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
export type { UsagePeriod, CreditUsagePeriod, TokenUsagePeriod } from "./api/usage.js";
export type { ActiveCrawl } from "./api/crawl.js";
export type { JobKind, JobState, JobError, ApiVersion } from "./jobs/types.js";
export type { WatchEventType, WatchDocumentEvent, WatchStatusEvent, WatchDoneEvent, WatchErrorEvent, WebSocketConstructor } from "./jobs/watch-types.js";
export type { WebhookConfig, AgentWebhookConfig } from "./api/webhooks.js";
export type { AgentSignupRecord } from "./api/agent-signup.js";
export type { MonitorTarget, MonitorCheckStatus, MonitorPageStatus, MonitorSummary } from "./api/monitor.js";
export type { AgentRun, AgentTraceEvent } from "./api/agent-runs.js";
export type { BrandingProfile, MenuProfile, ProductProfile } from "./api/profiles.js";
// Credits and budgets: `client.credits` (a `CreditMeter`) and the `budget` option.
export type { CreditMeter, CreditSnapshot, CreditOperation } from "./core/client-state.js";
export type { Budget } from "./core/config.js";
export type { BudgetExceededInit, BudgetRefusal } from "./core/errors.js";
