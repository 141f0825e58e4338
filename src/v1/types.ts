/**
 * Every public type of the v1 layer, exported by both `webdata/v1` entries
 * (portable and Node) only: the main entry keeps to the v2 names.
 */
import type { V1Client as V1ClientClass } from "./client.js";
import type { V1CrawlWatcher as V1CrawlWatcherClass } from "./watcher.js";

/** The v1 methods (`client.v1`, and what `WebDataV1` extends). A type only: `new WebDataV1(options)` or `client.v1` make one. */
export type V1Client = V1ClientClass;
/** The v1 crawl watcher (an `EventTarget`), from `crawlUrlAndWatch` / `batchScrapeUrlsAndWatch`. A type only: those methods make it. */
export type V1CrawlWatcher = V1CrawlWatcherClass;
export type { V1MapParams, V1MapResponse } from "./map.js";
export type { V1TokenUsage, V1CreditUsage, V1QueueStatus, V1UsagePeriod, V1UsageHistoricalResponse } from "./usage.js";
export type { V1Format, V1JsonOptions, V1ChangeTrackingOptions, V1CrawlScrapeOptions, V1ScrapeParams } from "./scrape-options.js";
export type { V1ScrapeResponse } from "./scrape.js";
export type { V1SearchParams, V1SearchResponse } from "./search.js";
export type { V1CrawlParams, V1Webhook } from "./crawl.js";
export type { V1BatchExtras } from "./batch.js";
export type { V1JobStartResponse, V1CancelResponse } from "./jobs.js";
export type { V1ExtractParams, V1ExtractResponse, V1ExtractStartResponse, V1ExtractStatusResponse } from "./extract.js";
export type {
  V1GenerateLLMsTextParams,
  V1GenerateLLMsTextStatusResponse,
  V1DeepResearchParams,
  V1DeepResearchStatusResponse,
  V1ResearchActivity,
  V1ResearchSource,
  V1TaskStartResponse,
} from "./research.js";
export type { V1Any, V1SchemaResult, V1Document, V1ErrorResponse, V1Success, V1JobStatusResponse, V1ErrorsResponse } from "./shapes.js";
export type { V1CrawlWatcherEvents, V1DocumentDetail, V1DoneDetail, V1ErrorDetail } from "./watcher.js";
export type { V1MethodName } from "./deprecation.js";
