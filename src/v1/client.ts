/**
 * The legacy v1 surface (`client.v1`): v1 method names, positional signatures
 * and wire shapes over the same shared request layer. Each method warns once
 * per process (naming its v2 replacement) and delegates to a small module.
 */
import type { SchemaInput } from "../api/schema.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import { checkRequestOptions } from "../core/options.js";
import { asyncBatchScrapeUrls } from "./batch.js";
import { asyncCrawlUrl, type V1CrawlParams, type V1Webhook } from "./crawl.js";
import { deprecate, type V1MethodName } from "./deprecation.js";
import { asyncExtract, extractV1, getExtractStatusV1, type V1ExtractParams, type V1ExtractResponse, type V1ExtractStartResponse, type V1ExtractStatusResponse } from "./extract.js";
import { cancelV1Job, checkV1JobStatus, v1JobErrors, waitV1Job, type V1CancelResponse, type V1JobStartResponse } from "./jobs.js";
import { mapUrl, type V1MapParams, type V1MapResponse } from "./map.js";
import * as research from "./research.js";
import { scrapeUrl, type V1ScrapeResponse } from "./scrape.js";
import type { V1ScrapeParams } from "./scrape-options.js";
import { searchV1, type V1SearchParams, type V1SearchResponse } from "./search.js";
import { pollSecondsToMs, type V1Any, type V1ErrorResponse, type V1ErrorsResponse, type V1JobStatusResponse, type V1SchemaResult } from "./shapes.js";
import { getCreditUsageV1, getQueueStatusV1, getTokenUsageV1, getUsageHistoricalV1, type V1CreditUsage, type V1QueueStatus, type V1TokenUsage, type V1UsageHistoricalResponse } from "./usage.js";
import { watchV1Job, type V1CrawlWatcher } from "./watcher.js";

/**
 * v1 methods, reached as `client.v1` or through `WebDataV1` from `webdata/v1`.
 * HTTP failures throw the SDK's typed errors (the v1 library threw too); the
 * `V1ErrorResponse` member of a result type is a failed job kickoff reported
 * in a 200 (and keeps v1-era `if (!res.success)` code compiling).
 */
export class V1Client {
  readonly #http: HttpClient;

  /** @internal Built by `WebData`; use `client.v1`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The connection, once the method's deprecation warning is written (once per process, unless silenced). */
  #legacy(name: V1MethodName): HttpClient {
    deprecate(this.#http, name);
    return this.#http;
  }

  /**
   * `POST /v1/scrape`: `{ success: true, ...document }`. v2: `scrape`. As in the v1 library, `json` / `extract` are
   * typed from a zod (or Standard) `jsonOptions.schema` / `extract.schema`, else {@link V1Any}; with `actions`, the
   * result's `actions` is always there, with `screenshots`, `scrapes` and `javascriptReturns` (as the v1 library typed it).
   */
  scrapeUrl<S extends SchemaInput = SchemaInput, A extends V1ScrapeParams["actions"] = undefined>(url: string, params?: V1ScrapeParams<S> & { actions?: A }, options?: RequestOptions): APIPromise<V1ScrapeResponse<V1SchemaResult<S>, A> | V1ErrorResponse> {
    return scrapeUrl<S, A>(this.#legacy("scrapeUrl"), url, params, options);
  }

  /** `POST /v1/search`: flat `data: Document[]`. v2: `search`. */
  search(query: string, params?: V1SearchParams, options?: RequestOptions): APIPromise<V1SearchResponse> {
    return searchV1(this.#legacy("search"), query, params, options);
  }

  /** `POST /v1/map`: links as plain strings. v2: `map`. */
  mapUrl(url: string, params?: V1MapParams, options?: RequestOptions): APIPromise<V1MapResponse | V1ErrorResponse> {
    return mapUrl(this.#legacy("mapUrl"), url, params, options);
  }

  /**
   * Starts a crawl (`POST /v1/crawl`) and waits for it, polling every `pollInterval`
   * SECONDS (default 2), then returns every document. v2: `crawl`.
   */
  async crawlUrl(url: string, params?: V1CrawlParams, pollInterval?: number, idempotencyKey?: string, options?: RequestOptions): Promise<V1JobStatusResponse | V1ErrorResponse> {
    const http = this.#legacy("crawlUrl");
    const pollMs = pollSecondsToMs(pollInterval);
    const checked = checkRequestOptions(options); // once: the start and the wait take them checked
    const { id } = await asyncCrawlUrl(http, url, params, idempotencyKey, checked);
    return waitV1Job(http, "crawl", id, pollMs, checked, [url, params]);
  }

  /** Starts a crawl: `POST /v1/crawl` -> `{ success, id, url }`. v2: `startCrawl`. */
  asyncCrawlUrl(url: string, params?: V1CrawlParams, idempotencyKey?: string, options?: RequestOptions): APIPromise<V1JobStartResponse | V1ErrorResponse> {
    return asyncCrawlUrl(this.#legacy("asyncCrawlUrl"), url, params, idempotencyKey, options);
  }

  /**
   * `GET /v1/crawl/<id>`. With `getAllData` and a finished crawl, follows every
   * `next` page; otherwise one page (from `nextURL` when given, `skip` / `limit` applied to it). v2: `getCrawlStatus` / `crawlDocuments`.
   */
  checkCrawlStatus(id: string, getAllData = false, nextURL?: string, skip?: number, limit?: number, options?: RequestOptions): APIPromise<V1JobStatusResponse | V1ErrorResponse> {
    return checkV1JobStatus(this.#legacy("checkCrawlStatus"), "crawl", id, getAllData, { nextURL, skip, limit }, options);
  }

  /** `GET /v1/crawl/<id>/errors`. v2: `getCrawlErrors`. */
  checkCrawlErrors(id: string, options?: RequestOptions): APIPromise<V1ErrorsResponse | V1ErrorResponse> {
    return v1JobErrors(this.#legacy("checkCrawlErrors"), "crawl", id, options);
  }

  /** `DELETE /v1/crawl/<id>` -> `{ success: true, status: "cancelled" }`; 409 `ConflictError` once finished. v2: `cancelCrawl`. */
  cancelCrawl(id: string, options?: RequestOptions): APIPromise<V1CancelResponse | V1ErrorResponse> {
    return cancelV1Job(this.#legacy("cancelCrawl"), "crawl", id, options);
  }

  /** Starts a crawl and returns a v1-style watcher (`addEventListener("document" | "done" | "error", ...)`). v2: `startCrawl` + `watcher`. */
  async crawlUrlAndWatch(url: string, params?: V1CrawlParams, idempotencyKey?: string, options?: RequestOptions): Promise<V1CrawlWatcher> {
    const http = this.#legacy("crawlUrlAndWatch");
    const { id } = await asyncCrawlUrl(http, url, params, idempotencyKey, options);
    return watchV1Job(http, "crawl", id);
  }

  /**
   * Starts a batch scrape (`POST /v1/batch/scrape`) and waits for it, polling every
   * `pollInterval` SECONDS (default 2). v2: `batchScrape`.
   */
  async batchScrapeUrls(
    urls: string[],
    params?: V1ScrapeParams,
    pollInterval?: number,
    idempotencyKey?: string,
    webhook?: V1Webhook,
    ignoreInvalidURLs?: boolean,
    maxConcurrency?: number,
    options?: RequestOptions,
  ): Promise<V1JobStatusResponse | V1ErrorResponse> {
    const http = this.#legacy("batchScrapeUrls");
    const pollMs = pollSecondsToMs(pollInterval);
    const checked = checkRequestOptions(options); // once: the start and the wait take them checked
    const { id } = await asyncBatchScrapeUrls(http, urls, params, idempotencyKey, { webhook, ignoreInvalidURLs, maxConcurrency }, checked);
    return waitV1Job(http, "batch", id, pollMs, checked, [urls, params]);
  }

  /** Starts a batch scrape: `POST /v1/batch/scrape` -> `{ success, id, url, invalidURLs? }`. v2: `startBatchScrape`. */
  asyncBatchScrapeUrls(
    urls: string[],
    params?: V1ScrapeParams,
    idempotencyKey?: string,
    webhook?: V1Webhook,
    ignoreInvalidURLs?: boolean,
    options?: RequestOptions,
  ): APIPromise<V1JobStartResponse | V1ErrorResponse> {
    return asyncBatchScrapeUrls(this.#legacy("asyncBatchScrapeUrls"), urls, params, idempotencyKey, { webhook, ignoreInvalidURLs }, options);
  }

  /** `GET /v1/batch/scrape/<id>`, with the `checkCrawlStatus` semantics. v2: `getBatchScrapeStatus` / `batchScrapeDocuments`. */
  checkBatchScrapeStatus(id: string, getAllData = false, nextURL?: string, skip?: number, limit?: number, options?: RequestOptions): APIPromise<V1JobStatusResponse | V1ErrorResponse> {
    return checkV1JobStatus(this.#legacy("checkBatchScrapeStatus"), "batch", id, getAllData, { nextURL, skip, limit }, options);
  }

  /** `GET /v1/batch/scrape/<id>/errors`. v2: `getBatchScrapeErrors`. */
  checkBatchScrapeErrors(id: string, options?: RequestOptions): APIPromise<V1ErrorsResponse | V1ErrorResponse> {
    return v1JobErrors(this.#legacy("checkBatchScrapeErrors"), "batch", id, options);
  }

  /** Starts a batch scrape and returns a v1-style watcher. v2: `startBatchScrape` + `watcher`. */
  async batchScrapeUrlsAndWatch(
    urls: string[],
    params?: V1ScrapeParams,
    idempotencyKey?: string,
    webhook?: V1Webhook,
    ignoreInvalidURLs?: boolean,
    options?: RequestOptions,
  ): Promise<V1CrawlWatcher> {
    const http = this.#legacy("batchScrapeUrlsAndWatch");
    const { id } = await asyncBatchScrapeUrls(http, urls, params, idempotencyKey, { webhook, ignoreInvalidURLs }, options);
    return watchV1Job(http, "batch", id);
  }

  /**
   * Starts an extract job (`POST /v1/extract`) and waits for it. v2: `extract`. As in the v1 library, `data` is
   * typed from a zod (or Standard) `schema`, else {@link V1Any}.
   */
  extract<S extends SchemaInput = SchemaInput>(urls?: string[], params?: V1ExtractParams<S>, options?: RequestOptions): Promise<V1ExtractResponse<V1SchemaResult<S>> | V1ErrorResponse> {
    return extractV1<S>(this.#legacy("extract"), urls, params, options);
  }

  /** Starts an extract job: `POST /v1/extract` -> `{ success, id }`. v2: `startExtract`. */
  asyncExtract(urls: string[], params?: V1ExtractParams, idempotencyKey?: string, options?: RequestOptions): APIPromise<V1ExtractStartResponse | V1ErrorResponse> {
    return asyncExtract(this.#legacy("asyncExtract"), urls, params, idempotencyKey, options);
  }

  /** `GET /v1/extract/<id>`, as sent. v2: `getExtractStatus`. `data` is {@link V1Any} (the v1 library returned `any`) unless a type is named. */
  getExtractStatus<T = V1Any>(jobId: string, options?: RequestOptions): APIPromise<V1ExtractStatusResponse<T>> {
    return getExtractStatusV1<T>(this.#legacy("getExtractStatus"), jobId, options);
  }

  /** Generates LLMs.txt (`POST /v1/llmstxt`) and waits. No v2 equivalent. */
  generateLLMsText(url: string, params?: research.V1GenerateLLMsTextParams, options?: RequestOptions): Promise<research.V1GenerateLLMsTextStatusResponse | V1ErrorResponse> {
    return research.generateLLMsText(this.#legacy("generateLLMsText"), url, params, options);
  }

  /** Starts LLMs.txt generation: `POST /v1/llmstxt` -> `{ success, id }`. */
  asyncGenerateLLMsText(url: string, params?: research.V1GenerateLLMsTextParams, options?: RequestOptions): APIPromise<research.V1TaskStartResponse | V1ErrorResponse> {
    return research.asyncGenerateLLMsText(this.#legacy("asyncGenerateLLMsText"), url, params, options);
  }

  /** `GET /v1/llmstxt/<id>`, as sent. */
  checkGenerateLLMsTextStatus(id: string, options?: RequestOptions): APIPromise<research.V1GenerateLLMsTextStatusResponse | V1ErrorResponse> {
    return research.checkGenerateLLMsTextStatus(this.#legacy("checkGenerateLLMsTextStatus"), id, options);
  }

  /** Runs deep research (`POST /v1/deep-research`) and waits, reporting new activities and sources. `data.json` is typed from a zod (or Standard) `jsonOptions.schema`. v2: `agent`. */
  deepResearch<S extends SchemaInput = SchemaInput>(
    query: string,
    params?: research.V1DeepResearchParams<S>,
    onActivity?: (activity: research.V1ResearchActivity) => void,
    onSource?: (source: research.V1ResearchSource) => void,
    options?: RequestOptions,
  ): Promise<research.V1DeepResearchStatusResponse<V1SchemaResult<S>> | V1ErrorResponse> {
    return research.deepResearch(this.#legacy("deepResearch"), query, params, onActivity, onSource, options);
  }

  /** Starts deep research: `POST /v1/deep-research` -> `{ success, id }`. v2: `startAgent`. */
  asyncDeepResearch(query: string, params?: research.V1DeepResearchParams, options?: RequestOptions): APIPromise<research.V1TaskStartResponse | V1ErrorResponse> {
    return research.asyncDeepResearch(this.#legacy("asyncDeepResearch"), query, params, options);
  }

  /** `GET /v1/deep-research/<id>`, as sent. `data.json` is {@link V1Any} unless a type is named. v2: `getAgentStatus`. */
  checkDeepResearchStatus<T = V1Any>(id: string, options?: RequestOptions): APIPromise<research.V1DeepResearchStatusResponse<T> | V1ErrorResponse> {
    return research.checkDeepResearchStatus<T>(this.#legacy("checkDeepResearchStatus"), id, options);
  }

  /** `GET /v1/team/token-usage`: snake_case record. v2: `getTokenUsage`. */
  getTokenUsage(options?: RequestOptions): APIPromise<V1TokenUsage> {
    return getTokenUsageV1(this.#legacy("getTokenUsage"), options);
  }

  /** `GET /v1/team/credit-usage`: snake_case record. v2: `getCreditUsage`. */
  getCreditUsage(options?: RequestOptions): APIPromise<V1CreditUsage> {
    return getCreditUsageV1(this.#legacy("getCreditUsage"), options);
  }

  /** `GET /v1/team/credit-usage/historical`: `{ success, periods }` (per key with `byApiKey`). v2: `getCreditUsageHistorical`. */
  getCreditUsageHistorical(byApiKey?: boolean, options?: RequestOptions): APIPromise<V1UsageHistoricalResponse> {
    return getUsageHistoricalV1(this.#legacy("getCreditUsageHistorical"), "credit", byApiKey, options);
  }

  /** `GET /v1/team/token-usage/historical`: `{ success, periods }` (per key with `byApiKey`). v2: `getTokenUsageHistorical`. */
  getTokenUsageHistorical(byApiKey?: boolean, options?: RequestOptions): APIPromise<V1UsageHistoricalResponse> {
    return getUsageHistoricalV1(this.#legacy("getTokenUsageHistorical"), "token", byApiKey, options);
  }

  /** `GET /v1/team/queue-status`. v2: `getQueueStatus`. */
  getQueueStatus(options?: RequestOptions): APIPromise<V1QueueStatus> {
    return getQueueStatusV1(this.#legacy("getQueueStatus"), options);
  }
}
