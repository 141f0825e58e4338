/**
 * The v1 client library's type names, as aliases of this SDK's v1 types, so
 * v1-era TypeScript that imports them (`import App, { type ScrapeResponse } from ...`)
 * compiles against `webdata/v1` with only the module name changed. Exported
 * from `webdata/v1` only (the main entry has v2 types of the same names).
 */
import type { V1BatchExtras } from "./batch.js";
import type { V1CrawlParams } from "./crawl.js";
import type { V1ExtractParams, V1ExtractResponse } from "./extract.js";
import type { V1CancelResponse, V1JobStartResponse } from "./jobs.js";
import type { V1MapParams, V1MapResponse } from "./map.js";
import type { V1DeepResearchParams, V1DeepResearchStatusResponse, V1GenerateLLMsTextParams, V1GenerateLLMsTextStatusResponse } from "./research.js";
import type { V1ScrapeResponse } from "./scrape.js";
import type { V1CrawlScrapeOptions, V1ScrapeParams } from "./scrape-options.js";
import type { V1SearchParams, V1SearchResponse } from "./search.js";
import type { SchemaInput } from "../api/schema.js";
import type { V1Any, V1Document, V1ErrorResponse, V1ErrorsResponse, V1JobStatusResponse } from "./shapes.js";
import type { V1CrawlWatcher } from "./watcher.js";

/** v1 name of {@link V1Document}. */
export type FirecrawlDocument<T = V1Any> = V1Document<T>;
/** v1 name of {@link V1ScrapeParams} (`S`: the schema's type, as the v1 library's `LLMSchema`). */
export type ScrapeParams<S extends SchemaInput = SchemaInput> = V1ScrapeParams<S>;
/** v1 name of {@link V1CrawlScrapeOptions}. */
export type CrawlScrapeOptions<S extends SchemaInput = SchemaInput> = V1CrawlScrapeOptions<S>;
/** v1 name of {@link V1ScrapeResponse}. */
export type ScrapeResponse<T = V1Any> = V1ScrapeResponse<T>;
/** v1 name of {@link V1CrawlParams}. */
export type CrawlParams = V1CrawlParams;
/** v1 name of {@link V1JobStartResponse} (crawl). */
export type CrawlResponse = V1JobStartResponse;
/** v1 name of {@link V1JobStartResponse} (batch scrape). */
export type BatchScrapeResponse = V1JobStartResponse;
/** v1 name of {@link V1JobStatusResponse} (crawl). */
export type CrawlStatusResponse = V1JobStatusResponse;
/** v1 name of {@link V1JobStatusResponse} (batch scrape). */
export type BatchScrapeStatusResponse = V1JobStatusResponse;
/** v1 name of {@link V1ErrorsResponse}. */
export type CrawlErrorsResponse = V1ErrorsResponse;
/** v1 name of {@link V1CancelResponse}. */
export type CancelResponse = V1CancelResponse;
/** v1 name of {@link V1MapParams}. */
export type MapParams = V1MapParams;
/** v1 name of {@link V1MapResponse}. */
export type MapResponse = V1MapResponse;
/** v1 name of {@link V1SearchParams}. */
export type SearchParams = V1SearchParams;
/** v1 name of {@link V1SearchResponse}. */
export type SearchResponse = V1SearchResponse;
/** v1 name of {@link V1ExtractParams}. */
export type ExtractParams<S extends SchemaInput = SchemaInput> = V1ExtractParams<S>;
/** v1 name of {@link V1ExtractResponse}. */
export type ExtractResponse<T = V1Any> = V1ExtractResponse<T>;
/** v1 name of {@link V1GenerateLLMsTextParams}. */
export type GenerateLLMsTextParams = V1GenerateLLMsTextParams;
/** v1 name of {@link V1GenerateLLMsTextStatusResponse}. */
export type GenerateLLMsTextStatusResponse = V1GenerateLLMsTextStatusResponse;
/** v1 name of {@link V1DeepResearchParams}. */
export type DeepResearchParams<S extends SchemaInput = SchemaInput> = V1DeepResearchParams<S>;
/** v1 name of {@link V1DeepResearchStatusResponse}. */
export type DeepResearchStatusResponse<T = V1Any> = V1DeepResearchStatusResponse<T>;
/** v1 name of {@link V1ErrorResponse}. */
export type ErrorResponse = V1ErrorResponse;
/** v1 name of {@link V1CrawlWatcher}. */
export type CrawlWatcher = V1CrawlWatcher;
/** The batch methods' positional extras, gathered. */
export type BatchScrapeExtras = V1BatchExtras;
