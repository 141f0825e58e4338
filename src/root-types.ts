/**
 * The root entry's types (the rule is in `exports.ts`), listed once: `exports.ts` gives them to the root
 * entries and `types.ts` to `webdata/types`, so each type of the root is in both.
 */
import type { APIPromise as APIPromiseClass } from "./core/request.js";
import type { Watcher as WatcherClass } from "./jobs/watcher.js";
import type { Document } from "./api/document.js";

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
export type { WatcherOptions, WatchEvent } from "./jobs/watch-types.js";
export type { CrawlParamsPreview } from "./api/crawl-preview.js";
export type { AgentSignupParams } from "./api/agent-signup.js";
export type { AgentSignupResult } from "./client.js";
export type { StandaloneOptions } from "./standalone.js";
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
