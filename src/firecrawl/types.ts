/**
 * The type names code written for the service's official client
 * (`@mendable/firecrawl-js` 4.x) imports, as aliases of webdata's own types, so
 * `import { type CrawlJob, type MapData } from "webdata/firecrawl"` keeps compiling.
 * Each alias is the webdata shape: where the official one differs, MIGRATION.md
 * says how ("From @mendable/firecrawl-js 4.x (v2)").
 */
import type { JobErrors, JobStatus } from "../jobs/types.js";
import type { AgentStartResult, AgentStatus } from "../api/agent.js";
import type { AgentRun, AgentRunList, AgentSnapshot, AgentTrace } from "../api/agent-runs.js";
import type { BatchScrapeStartResult } from "../api/batch.js";
import type { BrowserExecuteResult, BrowserSession, BrowserSessionInfo } from "../api/browser.js";
import type { ActiveCrawls, CrawlOptions as WebDataCrawlOptions, CrawlStartResult } from "../api/crawl.js";
import type { BatchScrapeOptions as WebDataBatchScrapeOptions } from "../api/batch.js";
import type { ScrapeOptions } from "../api/scrape.js";
import type { Document } from "../api/document.js";
import type { ExtractStartResult, ExtractStatus } from "../api/extract.js";
import type { FeedbackResult, SearchFeedbackOptions } from "../api/feedback.js";
import type { InteractOptions, InteractResult } from "../api/interact.js";
import type { MapResult } from "../api/map.js";
import type { ListWithAlias, SuccessFlag } from "./official-shapes.js";
import type { Action, Format, Location, Parser, StringFormat } from "../api/scrape.js";
import type { StopInteractionResult } from "../api/interact.js";
import type { MenuProfile, ProfileAvailability, ProfileImage, ProfilePrice } from "../api/profiles.js";
import type { ImageResult, NewsResult, SearchOptions, SearchResult, WebResult } from "../api/search.js";
import type { Concurrency, CreditUsagePeriod, QueueStatus, TokenUsagePeriod } from "../api/usage.js";

/**
 * Official name of a finished or running crawl (`crawl`, `getCrawlStatus`, a watcher's `snapshot`): webdata's
 * {@link JobStatus}, with `expiresAt` optional as the official type has it (a watcher's snapshot has none).
 */
export type CrawlJob = Omit<JobStatus<Document>, "expiresAt"> & { expiresAt?: string | undefined };
/** Official name of a batch scrape job: as {@link CrawlJob}. */
export type BatchScrapeJob = CrawlJob;
/** The crawl options the official type lets be `null` (a `null` is not sent, as the official client sends none). */
type NullableCrawlKey = "prompt" | "excludePaths" | "includePaths" | "maxDiscoveryDepth" | "limit" | "delay" | "maxConcurrency" | "webhook" | "scrapeOptions";
/**
 * Official name and shape of the crawl options (`startCrawl`, `crawl`): webdata's {@link WebDataCrawlOptions}, plus
 * `robotsUserAgent`, with `null` where the official type allows it (not sent); what is sent: `Firecrawl.startCrawl`.
 */
export type CrawlOptions = Omit<WebDataCrawlOptions, NullableCrawlKey> & {
  [K in NullableCrawlKey]?: WebDataCrawlOptions[K] | null;
} & {
  /** The user agent whose robots.txt rules the crawler follows. */
  robotsUserAgent?: string | null;
};
/**
 * Official name and shape of the batch scrape options: webdata's, or the scrape options nested in `options` (sent at
 * the top level), and `idempotencyKey` (sent as the `x-idempotency-key` header), as the official type has them.
 */
export type BatchScrapeOptions = WebDataBatchScrapeOptions & {
  /** The official nesting of the scrape options (`{ options: { formats } }`): sent at the top level. A key given both ways keeps the top-level value. */
  options?: ScrapeOptions | undefined;
  /** Sent as the `x-idempotency-key` header, as the official client sends it. */
  idempotencyKey?: string | undefined;
};
/** Official name of `startCrawl`'s answer. */
export type CrawlResponse = CrawlStartResult;
/** Official name of `startBatchScrape`'s answer. */
export type BatchScrapeResponse = BatchScrapeStartResult;
/** Official name of `getCrawlErrors` / `getBatchScrapeErrors`' answer. */
export type CrawlErrorsResponse = JobErrors;
/** Official name of `getActiveCrawls`' answer. */
export type ActiveCrawlsResponse = ActiveCrawls & SuccessFlag;
/** Official name of `map`'s answer. */
export type MapData = MapResult;
/** Official name of `search`'s answer. */
export type SearchData = SearchResult;
/** Official name of `search`'s options (without `query`). */
export type SearchRequest = SearchOptions & { query?: string };
/** Official name of a web search result. */
export type SearchResultWeb = WebResult;
/** Official name of a news search result. */
export type SearchResultNews = NewsResult;
/** Official name of an image search result. */
export type SearchResultImages = ImageResult;
/** Official name of one entry of `formats`. */
export type FormatOption = Format;
/** Official name of a format given by name. */
export type FormatString = StringFormat;
/** Official name of a browser action. */
export type ActionOption = Action;
/** Official name of `location`. */
export type LocationConfig = Location;
/** Official name of the screenshot viewport. */
export type Viewport = { width: number; height: number };
/** Official name of `extract` / `startExtract` / `getExtractStatus`' answer (one type for all three there). */
export type ExtractResponse<T = unknown> = ExtractStartResult & Partial<ExtractStatus<T>> & SuccessFlag<boolean>;
/** Official name of `startAgent`'s answer. */
export type AgentResponse = AgentStartResult & SuccessFlag;
/** Official name of `agent` / `getAgentStatus`' answer. */
export type AgentStatusResponse<T = unknown> = AgentStatus<T> & SuccessFlag<boolean>;
/** Official name of `getQueueStatus`' answer. */
export type QueueStatusResponse = QueueStatus & SuccessFlag;
/** Official name of `getConcurrency`'s answer. */
export type ConcurrencyCheck = Concurrency;
/** Official name of `browser()`'s answer. */
export type BrowserCreateResponse = BrowserSession & SuccessFlag;
/** Official name of `browserExecute`'s answer. */
export type BrowserExecuteResponse = BrowserExecuteResult & SuccessFlag;
/** Official name of `deleteBrowser`'s answer. */
export type BrowserDeleteResponse = { sessionDurationMs?: number; creditsBilled?: number } & SuccessFlag;
/** Official name of `listBrowsers`' answer: the list itself, also readable as `.sessions`. */
export type BrowserListResponse = ListWithAlias<BrowserSessionInfo, "sessions">;
/** Official name of `getCreditUsageHistorical`'s answer: the list itself, also readable as `.periods`. */
export type CreditUsageHistoricalResponse = ListWithAlias<CreditUsagePeriod, "periods">;
/** Official name of `getTokenUsageHistorical`'s answer: the list itself, also readable as `.periods`. */
export type TokenUsageHistoricalResponse = ListWithAlias<TokenUsagePeriod, "periods">;
/** Official name of one credit-usage period. */
export type CreditUsageHistoricalPeriod = CreditUsagePeriod;
/** Official name of `interact`'s options. */
export type ScrapeExecuteRequest = InteractOptions;
/** Official name of `interact`'s answer. */
export type ScrapeExecuteResponse = InteractResult & SuccessFlag;
/** Official name of `searchFeedback`'s options. */
export type SearchFeedbackRequest = SearchFeedbackOptions;
/** Official name of `searchFeedback`'s answer. */
export type FeedbackResponse = FeedbackResult & SuccessFlag;
/** Official name of `listAgents`' answer. */
export type AgentListResponse = AgentRunList & SuccessFlag;
/** Official name of one run of `listAgents`. */
export type AgentListItem = AgentRun;
/** Official name of `getAgentTrace`'s answer. */
export type AgentTraceResponse = AgentTrace & SuccessFlag;
/** Official name of `getAgentSnapshot`'s answer. */
export type AgentSnapshotResponse = AgentSnapshot & SuccessFlag;
/** Official name of one token-usage period. */
export type TokenUsageHistoricalPeriod = TokenUsagePeriod;
/** Official name of the `click` browser action. */
export type ClickAction = Extract<Action, { type: "click" }>;
/** Official name of the `wait` browser action (a time or a selector). */
export type WaitAction = Extract<Action, { type: "wait" }>;
/** Official name of the `screenshot` browser action. */
export type ScreenshotAction = Extract<Action, { type: "screenshot" }>;
/** Official name of the `write` browser action. */
export type WriteAction = Extract<Action, { type: "write" }>;
/** Official name of the `press` browser action. */
export type PressAction = Extract<Action, { type: "press" }>;
/** Official name of the `scroll` browser action. */
export type ScrollAction = Extract<Action, { type: "scroll" }>;
/** Official name of the `scrape` browser action. */
export type ScrapeAction = Extract<Action, { type: "scrape" }>;
/** Official name of the `executeJavascript` browser action. */
export type ExecuteJavascriptAction = Extract<Action, { type: "executeJavascript" }>;
/** Official name of the `pdf` browser action. */
export type PDFAction = Extract<Action, { type: "pdf" }>;
/** Official name of the PDF parser setting of `parsers`. */
export type PDFParser = Extract<Parser, object>;
/** Official name of an error's details as the official `SdkError` carries them (webdata: `APIError`'s fields). */
export interface ErrorDetails {
  /** The server's error code. */
  code?: string;
  message: string;
  /** The server's details. */
  details?: Record<string, unknown>;
  /** The HTTP status. */
  status?: number;
}
/** Official name of `deleteScrapeBrowser` / `stopInteraction`'s answer. */
export type ScrapeBrowserDeleteResponse = StopInteractionResult & SuccessFlag;
/** Official name of an agent run's effort. */
export type AgentEffort = "low" | "medium" | "high";
/** Official name of an agent run's mode. */
export type AgentMode = "extract" | "chat";
/** Official name of a product price. */
export type ProductPrice = ProfilePrice;
/** Official name of a product's availability. */
export type ProductAvailability = ProfileAvailability;
/** Official name of a product image. */
export type ProductImage = ProfileImage;
/** Official name of a product's sale. */
export type ProductSale = { originalPrice: ProfilePrice };
/** Official name of a menu price. */
export type MenuPrice = ProfilePrice;
/** Official name of a menu item's availability. */
export type MenuAvailability = ProfileAvailability;
/** Official name of a menu image. */
export type MenuImage = ProfileImage;
/** Official name of a menu item's ids. */
export type MenuItemIdentifiers = { merchantItemId?: string };
/** Official name of a menu's merchant. */
export type MenuMerchant = MenuProfile["merchant"];
/** Official name of a menu section. */
export type MenuSection = MenuProfile["sections"][number];

// Parts of results kept off the root entry (to keep it small) that official code names: webdata's own types, type-only.
export type { MenuItem, ProductVariant } from "../api/profiles.js";
export type { MonitorCheckPage, MonitorCrawlTarget, MonitorEmailNotification, MonitorNotification, MonitorSchedule, MonitorScrapeTarget, MonitorSearchTarget, MonitorSummary, MonitorWebhookConfig } from "../api/monitor.js";
export type { ParseFileData } from "../api/parse.js";

export type * from "./later-types.js";
