/**
 * Once-per-process deprecation warnings of the legacy v1 methods, written
 * through the client's logger at level `warn`, each naming the v2 method that
 * replaces it. `silenceDeprecationWarnings: true` turns them off.
 */
import type { HttpClient } from "../core/request.js";

/** Every v1 method and what replaces it in v2 (the table MIGRATION.md documents). */
export const V2_REPLACEMENTS = {
  scrapeUrl: "scrape",
  mapUrl: "map",
  search: "search",
  crawlUrl: "crawl",
  asyncCrawlUrl: "startCrawl",
  checkCrawlStatus: "getCrawlStatus (and crawlDocuments for every page)",
  checkCrawlErrors: "getCrawlErrors",
  cancelCrawl: "cancelCrawl",
  crawlUrlAndWatch: "startCrawl + watcher(jobId)",
  batchScrapeUrls: "batchScrape",
  asyncBatchScrapeUrls: "startBatchScrape",
  checkBatchScrapeStatus: "getBatchScrapeStatus (and batchScrapeDocuments for every page)",
  checkBatchScrapeErrors: "getBatchScrapeErrors",
  batchScrapeUrlsAndWatch: "startBatchScrape + watcher(jobId)",
  extract: "extract",
  asyncExtract: "startExtract",
  getExtractStatus: "getExtractStatus",
  generateLLMsText: "no v2 equivalent (scrape with the json format, or agent)",
  asyncGenerateLLMsText: "no v2 equivalent (scrape with the json format, or agent)",
  checkGenerateLLMsTextStatus: "no v2 equivalent",
  deepResearch: "agent",
  asyncDeepResearch: "startAgent",
  checkDeepResearchStatus: "getAgentStatus",
  getTokenUsage: "getTokenUsage",
  getCreditUsage: "getCreditUsage",
  getQueueStatus: "getQueueStatus",
  getCreditUsageHistorical: "getCreditUsageHistorical",
  getTokenUsageHistorical: "getTokenUsageHistorical",
} as const;

/** A legacy v1 method name. */
export type V1MethodName = keyof typeof V2_REPLACEMENTS;

const warned = new Set<V1MethodName>();

/** Writes the method's deprecation warning once per process (unless silenced). */
export function deprecate(http: HttpClient, name: V1MethodName): void {
  if (http.config.silenceDeprecationWarnings || warned.has(name)) return;
  warned.add(name);
  http.log("warn", `webdata: ${name}() is a legacy v1 method; v2 replacement: ${V2_REPLACEMENTS[name]} (see MIGRATION.md).`);
}
