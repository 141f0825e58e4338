/**
 * Once-per-process deprecation warnings of the legacy v1 methods, written
 * through the client's logger at level `warn`, each naming the v2 method that
 * replaces it. `silenceDeprecationWarnings: true` turns them off.
 */
import type { HttpClient } from "../core/request.js";

/** Every v1 method and what replaces it in v2 (the table MIGRATION.md documents); `""`: the v2 method of the same name. */
export const V2_REPLACEMENTS = {
  scrapeUrl: "scrape",
  mapUrl: "map",
  search: "",
  crawlUrl: "crawl",
  asyncCrawlUrl: "startCrawl",
  checkCrawlStatus: "getCrawlStatus, crawlDocuments",
  checkCrawlErrors: "getCrawlErrors",
  cancelCrawl: "",
  crawlUrlAndWatch: "startCrawl, watcher",
  batchScrapeUrls: "batchScrape",
  asyncBatchScrapeUrls: "startBatchScrape",
  checkBatchScrapeStatus: "getBatchScrapeStatus, batchScrapeDocuments",
  checkBatchScrapeErrors: "getBatchScrapeErrors",
  batchScrapeUrlsAndWatch: "startBatchScrape, watcher",
  extract: "",
  asyncExtract: "startExtract",
  getExtractStatus: "",
  generateLLMsText: "none (the json format, or agent)",
  asyncGenerateLLMsText: "none (the json format, or agent)",
  checkGenerateLLMsTextStatus: "none",
  deepResearch: "agent",
  asyncDeepResearch: "startAgent",
  checkDeepResearchStatus: "getAgentStatus",
  getTokenUsage: "",
  getCreditUsage: "",
  getQueueStatus: "",
  getCreditUsageHistorical: "",
  getTokenUsageHistorical: "",
} as const;

/** A legacy v1 method name. */
export type V1MethodName = keyof typeof V2_REPLACEMENTS;

const warned = new Set<V1MethodName>();

/** Writes the method's deprecation warning once per process (unless silenced). */
export function deprecate(http: HttpClient, name: V1MethodName): void {
  if (http.config.silenceDeprecationWarnings || warned.has(name)) return;
  warned.add(name);
  http.log("warn", `webdata: ${name}() is a legacy v1 method; in v2: ${V2_REPLACEMENTS[name] || name} (MIGRATION.md).`);
}
