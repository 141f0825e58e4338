/**
 * Start a batch scrape: `POST /v2/batch/scrape` (reference §5). Status, pages,
 * errors, cancel and waiting live in `jobs/` (shared with crawl).
 */
import { optionsArg, type Checked } from "../core/options.js";
import { type APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int, rules } from "../core/validate.js";
import { type Endpoint, rejectOfficialKeys, withChecked } from "./endpoint.js";
import { scrapeOptionsRules, scrapeOptionsShape, wireScrapeOptions, type ScrapeOptions } from "./scrape.js";
import { jobStartedAnswer, startJob } from "./job-starts.js";
import { webhookSchema, type WebhookConfig } from "./webhooks.js";
import type { CrawlOptions, CrawlStartResult } from "./crawl.js";

/** Options of a v2 batch scrape: scrape options at the top level plus the batch fields. */
export interface BatchScrapeOptions extends ScrapeOptions, Pick<CrawlOptions, "maxConcurrency" | "zeroDataRetention" | "origin" | "integration"> {
  /** Put invalid or blocked URLs in `invalidURLs` instead of failing (server default true, but see below). Send `true` explicitly to skip URL validation: the server validates every URL unless the body says so. */
  ignoreInvalidURLs?: boolean;
  /** Where the service POSTs batch events: a URL or `{url, headers, metadata, events}`. */
  webhook?: WebhookConfig;
  /** Add these URLs to an existing batch (its id). */
  appendToId?: string;
}

/** `POST /v2/batch/scrape` answer. */
export interface BatchScrapeStartResult extends Pick<CrawlStartResult, "id" | "url"> {
  /** URLs skipped as invalid (`invalidURLs`; present, maybe empty, only with `ignoreInvalidURLs: true`). */
  invalidURLs?: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const batchBody = z
  .looseObject({
    urls: z.array(z.string()).check(z.minLength(1)),
    ...scrapeOptionsShape,
    ignoreInvalidURLs: z.optional(z.boolean()),
    webhook: z.optional(webhookSchema()),
    appendToId: z.optional(z.string().check(z.regex(UUID, "must be a job id (a UUID)"))),
    maxConcurrency: z.optional(int(1)),
    zeroDataRetention: z.optional(z.boolean()),
    origin: z.optional(z.string()),
    integration: z.optional(z.string()),
  })
  .check(
    rules((o, ctx) => {
      scrapeOptionsRules(o as ScrapeOptions, ctx as never);
      // Without an explicit `ignoreInvalidURLs: true` the server rejects the whole batch for one bad URL.
      if (o.ignoreInvalidURLs !== true) {
        (o.urls as string[]).forEach((u, i) => {
          if (!httpUrl.safeParse(u).success) ctx.issues.push({ code: "custom", path: ["urls", i], message: "must be an http(s) URL such as https://example.com (or pass ignoreInvalidURLs: true)", input: u });
        });
      }
    }),
  );

/** `POST /v2/batch/scrape`: the v2 batch options (scrape options at the top level, as the wire has them) checked. */
const BATCH: Endpoint<[string[], BatchScrapeOptions]> = { op: "batchScrape.start",
  path: "/v2/batch/scrape",
  occupies: true,
  body: (urls, given) => check(batchBody, { ...wireScrapeOptions(given), urls }, "batch scrape options"),
  response: jobStartedAnswer,
  retry: "not-idempotent",
};

/**
 * `POST /v2/batch/scrape`. The server does not de-duplicate batch starts, so this is
 * retried only after failures that prove nothing was created (429, refused connection).
 */
export function startBatchScrape(http: HttpClient, urls: string[], given?: BatchScrapeOptions | null, req?: RequestOptions | null): APIPromise<BatchScrapeStartResult> {
  return withChecked(req, (checked) => {
    const opts = optionsArg(given, "batch scrape options");
    rejectOfficialKeys("startBatchScrape", opts, "batch scrape options"); // `batchScrape()` rejects them by its own name (a superset)
    return startBatchScrapeWith(http, urls, opts, checked);
  });
}

/** {@link startBatchScrape} with its request options checked and its options an object (`batchScrape()` checked them): the batch options' schema runs here, once. */
export function startBatchScrapeWith(http: HttpClient, urls: string[], given: BatchScrapeOptions, req: Checked<RequestOptions>): APIPromise<BatchScrapeStartResult> {
  return startJob<BatchScrapeStartResult, [string[], BatchScrapeOptions]>(http, BATCH, req, urls, given);
}
