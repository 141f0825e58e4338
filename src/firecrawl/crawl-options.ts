/**
 * The body of a crawl start as the official client (`@mendable/firecrawl-js` 4.42.0) builds it: from the
 * fields it knows, each kept by its own rule, and nothing else (what the drop-in's `startCrawl`, `crawl` and
 * their v1-style aliases send and drop: `Firecrawl.startCrawl`'s JSDoc; `ignoreRobotsTxt` is one its
 * `CrawlOptions` type has but its request leaves out). Without this, the server's strict `/v2/crawl` answered
 * 400 ("Unrecognized key in body") where the official client's crawl started. `WebData` keeps its own rule:
 * it sends unknown options.
 *
 * The official `FirecrawlAppV1` sends every key (`{ url, ...params }` to `/v1/crawl`), and so does the
 * drop-in's `v1`: nothing is filtered there.
 */
import { isRecord } from "../core/errors.js";
import type { HttpClient } from "../core/request.js";
import type { JobWaitOptions } from "../jobs/types.js";
import type { CrawlOptions } from "../api/crawl.js";

/** A value the official client sends when it is set (`!= null`). */
const set = (v: unknown): boolean => v !== undefined && v !== null;
/** A value the official client sends when it is truthy (`if (request.prompt)`). */
const truthy = (v: unknown): boolean => Boolean(v);

/** The crawl fields the official client sends, in its order, each with the test it keeps a value by. */
const SENT: readonly (readonly [string, (v: unknown) => boolean])[] = [
  ["prompt", truthy], ["excludePaths", truthy], ["includePaths", truthy], ["maxDiscoveryDepth", set], ["sitemap", set],
  ["robotsUserAgent", set], ["ignoreQueryParameters", set], ["deduplicateSimilarURLs", set], ["limit", set],
  ["crawlEntireDomain", set], ["allowExternalLinks", set], ["allowSubdomains", set], ["delay", set], ["maxConcurrency", set],
  ["regexOnFullURL", set], ["webhook", set], ["integration", (v) => set(v) && String(v).trim() !== ""], ["origin", truthy],
  ["scrapeOptions", truthy], ["zeroDataRetention", set],
];
const SENT_KEYS: ReadonlySet<string> = new Set(SENT.map(([key]) => key));

/** What each dropped key of v1-era code is in v2, for the warning. */
const V2_FIELD: Readonly<Record<string, string>> = {
  maxDepth: "maxDiscoveryDepth",
  allowBackwardLinks: "crawlEntireDomain",
  ignoreSitemap: 'sitemap: "skip"',
  ignoreRobotsTxt: "none the official client sends; WebData's startCrawl sends ignoreRobotsTxt",
  pollInterval: "none: a waiter control of crawl(), in seconds",
  timeout: "none: a waiter control of crawl(), in seconds",
};

/**
 * webdata's waiter options, which the drop-in's `crawl` takes beside the official ones and gives to
 * `WebData.crawl` (never sent). Every key of `JobWaitOptions`: the check below fails to compile when one is missing.
 */
const WAITER_KEYS = ["pollIntervalMs", "timeoutMs", "signal", "budget", "stallTimeoutMs", "cancelOnStall", "onStatus"] as const satisfies readonly (keyof JobWaitOptions)[];
const everyWaiterKey: [Exclude<keyof JobWaitOptions, (typeof WAITER_KEYS)[number]>] extends [never] ? true : never = true;
void everyWaiterKey;
const WAITER: ReadonlySet<string> = new Set(WAITER_KEYS);

/**
 * The crawl options as the official client sends them: its fields, each kept by its rule (`integration`
 * trimmed), and, for `crawl`, webdata's waiter options (not sent). Every other key is dropped and said once per
 * key per client. Options that are not a plain object are given back for `WebData`'s check to report.
 */
export function officialCrawlOptions(http: HttpClient, method: "startCrawl" | "crawl", options: unknown): CrawlOptions | undefined {
  if (!isRecord(options) || Array.isArray(options)) return options as CrawlOptions | undefined;
  const out: Record<string, unknown> = {};
  for (const [key, keep] of SENT) {
    const value = options[key];
    if (keep(value)) out[key] = key === "integration" ? String(value).trim() : value;
  }
  for (const key of Object.keys(options)) {
    if (SENT_KEYS.has(key)) continue;
    if (method === "crawl" && WAITER.has(key)) {
      out[key] = options[key];
      continue;
    }
    if (options[key] === undefined) continue;
    const notice = `dropped-crawl-key:${key}`;
    if (http.state.said.has(notice)) continue;
    http.state.said.add(notice);
    const v2 = V2_FIELD[key];
    http.log(
      "warn",
      `webdata: ${method}() did not send the crawl option "${key}", as the official client does not send it${v2 ? ` (in v2: ${v2})` : " (not a v2 crawl field)"}; said once per client.`,
    );
  }
  return out as CrawlOptions;
}
