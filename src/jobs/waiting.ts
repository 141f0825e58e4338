/**
 * What `WebData`'s waiting methods run (`crawl`, `batchScrape`, `extract`,
 * `agent`) and its document iterators (`crawlDocuments`,
 * `batchScrapeDocuments`): one module, so a browser bundle loads the waiters,
 * the polling and the page walk on first use, as a chunk of its own. The Node
 * and server entries hand it over up front (`hand-over.ts`).
 */
export { agentAndWait, batchScrapeAndWait, crawlAndWait, extractAndWait } from "./waiters.js";
export { jobDocuments } from "./pages.js";
