/** v1 batch scrape start, reference §15.3 (the body: `V1_BATCH`; the positional extras: {@link V1BatchExtras}). */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int, rules } from "../core/validate.js";
import { optionsArg, withIdempotencyKey } from "../core/options.js";
import type { Endpoint } from "../api/endpoint.js";
import { jobStartedAnswer, startJob } from "../api/job-starts.js";
import { v1WebhookSchema, type V1Webhook } from "./crawl.js";
import type { V1JobStartResponse } from "./jobs.js";
import { v1Record } from "./shapes.js";
import { v1ScrapeOptionsShape, v1ScrapeRules, v1ScrapeWire, type V1ScrapeParams } from "./scrape-options.js";

/** The positional extras of the v1 batch methods, gathered. Only the ones given are sent. */
export interface V1BatchExtras {
  /** Webhook for batch events. */
  webhook?: V1Webhook | undefined;
  /** Skip invalid URLs instead of failing with 400 (v1 server default false). */
  ignoreInvalidURLs?: boolean | undefined;
  /** Concurrent scrapes. */
  maxConcurrency?: number | undefined;
}

const body = z
  .looseObject({
    urls: z.array(httpUrl).check(z.minLength(1, "must list at least one URL")),
    ...v1ScrapeOptionsShape,
    webhook: z.optional(v1WebhookSchema),
    ignoreInvalidURLs: z.optional(z.boolean()),
    maxConcurrency: z.optional(int(1)),
    appendToId: z.optional(z.string()),
    zeroDataRetention: z.optional(z.boolean()),
  })
  .check(rules((o, ctx) => v1ScrapeRules(o as V1ScrapeParams, ctx as never)));

const bodyLenient = z.looseObject({ ...body.shape, urls: z.array(z.string()).check(z.minLength(1, "must list at least one URL")) })
  .check(rules((o, ctx) => v1ScrapeRules(o as V1ScrapeParams, ctx as never)));

/** `POST /v1/batch/scrape`: v1 scrape options at the top level plus the extras given; the server honours `x-idempotency-key`. */
const V1_BATCH: Endpoint<[string[], V1ScrapeParams, V1BatchExtras]> = { op: "batchScrape.start",
  path: "/v1/batch/scrape",
  occupies: true,
  body: (urls, params, extras) => {
    const given = Object.fromEntries(Object.entries(extras).filter(([, v]) => v !== undefined));
    const wire: Record<string, unknown> = { urls, ...given, ...v1ScrapeWire(optionsArg(params, "batch scrape params")) };
    return check(extras.ignoreInvalidURLs === true ? bodyLenient : body, wire, "batch scrape params");
  },
  response: jobStartedAnswer,
  idempotent: true,
};

/**
 * `POST /v1/batch/scrape`: `{ success: true, id, url, invalidURLs? }`, through the shared job start. With
 * `ignoreInvalidURLs` the URLs are not checked here either: the server sorts them.
 */
export function asyncBatchScrapeUrls(
  http: HttpClient,
  urls: string[],
  params: V1ScrapeParams = {},
  idempotencyKey?: string,
  extras: V1BatchExtras = {},
  req?: RequestOptions,
): APIPromise<V1JobStartResponse> {
  return startJob<V1JobStartResponse, [string[], V1ScrapeParams, V1BatchExtras]>(http, V1_BATCH, withIdempotencyKey(req, idempotencyKey), urls, params, extras).map(v1Record);
}
