/** v1 crawl start, reference §15.4 (the body: `V1_CRAWL`; the v1-only options: {@link V1CrawlParams}). */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int, oneOf } from "../core/validate.js";
import { optionsArg, withIdempotencyKey } from "../core/options.js";
import type { Endpoint } from "../api/endpoint.js";
import type { CrawlOptions } from "../api/crawl.js";
import type { WebhookConfig } from "../api/webhooks.js";
import { jobStartedAnswer, startJob } from "../api/job-starts.js";
import type { V1JobStartResponse } from "./jobs.js";
import { v1Record } from "./shapes.js";
import { v1ScrapeOptionsSchema, v1ScrapeWire, type V1CrawlScrapeOptions } from "./scrape-options.js";

/** A webhook: a URL, or the object form (reference §4.10), as v2's crawl and batch scrape take it. */
export type V1Webhook = WebhookConfig;

/** The v2 crawl options v1 takes with the same meaning and defaults. */
type V2CrawlFields = "includePaths" | "excludePaths" | "maxDiscoveryDepth" | "limit" | "crawlEntireDomain" | "allowExternalLinks" | "ignoreRobotsTxt"
  | "deduplicateSimilarURLs" | "ignoreQueryParameters" | "regexOnFullURL" | "delay" | "allowSubdomains" | "maxConcurrency" | "zeroDataRetention";

/** v1 crawl options (v1 library `CrawlParams`; server defaults in brackets). */
export interface V1CrawlParams extends Pick<CrawlOptions, V2CrawlFields> {
  /** Maximum URL path depth [10]. v2: `maxDiscoveryDepth`. */
  maxDepth?: number;
  /** Follow links to parent and sibling paths [false]. Deprecated; v2: `crawlEntireDomain`. */
  allowBackwardLinks?: boolean;
  /** Ignore the sitemap [false]. v2: `sitemap: "skip"`. */
  ignoreSitemap?: boolean;
  /** Scrape options of every page (v1 shapes). */
  scrapeOptions?: V1CrawlScrapeOptions;
  /** Webhook for crawl events. */
  webhook?: V1Webhook;
}

/** zod/mini check of a v1 webhook. */
export const v1WebhookSchema = oneOf(
  {
    string: httpUrl,
    object: z.looseObject({ url: httpUrl, headers: z.optional(z.record(z.string(), z.string())), metadata: z.optional(z.record(z.string(), z.string())), events: z.optional(z.array(z.enum(["completed", "failed", "page", "started"]))) }),
  },
  "a URL or { url, headers, metadata, events }",
);

const body = z.looseObject({
  url: httpUrl,
  includePaths: z.optional(z.array(z.string())),
  excludePaths: z.optional(z.array(z.string())),
  maxDepth: z.optional(int(0)),
  maxDiscoveryDepth: z.optional(int(0)),
  limit: z.optional(int(1)),
  allowBackwardLinks: z.optional(z.boolean()),
  crawlEntireDomain: z.optional(z.boolean()),
  allowExternalLinks: z.optional(z.boolean()),
  ignoreSitemap: z.optional(z.boolean()),
  ignoreRobotsTxt: z.optional(z.boolean()),
  scrapeOptions: z.optional(v1ScrapeOptionsSchema),
  webhook: z.optional(v1WebhookSchema),
  deduplicateSimilarURLs: z.optional(z.boolean()),
  ignoreQueryParameters: z.optional(z.boolean()),
  regexOnFullURL: z.optional(z.boolean()),
  delay: z.optional(z.number().check(z.positive())),
  allowSubdomains: z.optional(z.boolean()),
  maxConcurrency: z.optional(int(1)),
  zeroDataRetention: z.optional(z.boolean()),
});

/** `POST /v1/crawl`: the v1 crawler options at the top level; the server honours `x-idempotency-key`. */
const V1_CRAWL: Endpoint<[string, V1CrawlParams]> = { op: "crawl.start",
  path: "/v1/crawl",
  occupies: true,
  body: (url, params) => {
    const p = optionsArg(params, "crawl params");
    return check(body, { url, ...p, ...(p.scrapeOptions ? { scrapeOptions: v1ScrapeWire(p.scrapeOptions) } : {}) }, "crawl params");
  },
  response: jobStartedAnswer,
  idempotent: true,
};

/** `POST /v1/crawl`: `{ success: true, id, url }`, through the shared job start (`api/job-starts.ts`). */
export function asyncCrawlUrl(http: HttpClient, url: string, params: V1CrawlParams = {}, idempotencyKey?: string, req?: RequestOptions): APIPromise<V1JobStartResponse> {
  return startJob<V1JobStartResponse, [string, V1CrawlParams]>(http, V1_CRAWL, withIdempotencyKey(req, idempotencyKey), url, params).map(v1Record);
}
