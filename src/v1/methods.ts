/**
 * The methods of `V1Client`, split by what they return: the drop-in's
 * `FirecrawlAppV1` forwards each of them (`firecrawl/v1.ts`). A test keeps
 * these lists equal to `V1Client`'s methods and their kinds.
 */

/** Methods of `V1Client` that return an `APIPromise`. */
export const V1_API_METHODS = [
  "scrapeUrl", "search", "mapUrl", "asyncCrawlUrl", "checkCrawlStatus", "checkCrawlErrors", "cancelCrawl",
  "asyncBatchScrapeUrls", "checkBatchScrapeStatus", "checkBatchScrapeErrors", "asyncExtract", "getExtractStatus",
  "asyncGenerateLLMsText", "checkGenerateLLMsTextStatus", "asyncDeepResearch", "checkDeepResearchStatus",
  "getTokenUsage", "getCreditUsage", "getQueueStatus", "getCreditUsageHistorical", "getTokenUsageHistorical",
] as const;
/** Methods of `V1Client` that return a plain `Promise` (they wait, or return a watcher). */
export const V1_PROMISE_METHODS = [
  "crawlUrl", "crawlUrlAndWatch", "batchScrapeUrls", "batchScrapeUrlsAndWatch", "extract", "generateLLMsText", "deepResearch",
] as const;
