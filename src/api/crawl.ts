/**
 * Start a crawl: `POST /v2/crawl` (reference §4.1, §4.2), and list running
 * crawls: `GET /v2/crawl/active` (§4.9). Status, pages, errors, cancel and
 * waiting live in `jobs/` (shared with batch scrape).
 */
import { optionsArg, type Checked } from "../core/options.js";
import { APIPromise, type AttemptInfo, type HttpClient, type RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int } from "../core/validate.js";
import { IdempotencyConflictError, type APIError } from "../core/errors.js";
import { type Endpoint, rejectOfficialKeys, send, sendChecked, withChecked } from "./endpoint.js";
import type { Document } from "./document.js";
import { scrapeOptionsSchema, wireScrapeOptions, type JsonOfFormats, type ScrapeOptions, type ScrapeParams } from "./scrape.js";
import { jobStartShape, noteStart, withoutSuccess } from "./job-starts.js";
import { webhookSchema, type WebhookConfig } from "./webhooks.js";

/** Options of a v2 crawl (every field of reference §4.1). Unknown fields are passed to the server. */
export interface CrawlOptions extends Pick<ScrapeParams, "origin" | "integration" | "zeroDataRetention"> {
  /** Natural-language instructions the server turns into crawler options (at most 10000 characters); explicit options win. */
  prompt?: string;
  /** Path regexes to include (matched on the pathname unless `regexOnFullURL`). */
  includePaths?: string[];
  /** Path regexes to exclude. */
  excludePaths?: string[];
  /** Link depth from the start URL (start and sitemap URLs are depth 0). */
  maxDiscoveryDepth?: number;
  /** Maximum pages (server default 10000; capped to the team's credits). */
  limit?: number;
  /** Follow sibling and parent paths too, not only children. */
  crawlEntireDomain?: boolean;
  /** Follow links to other sites (default false). */
  allowExternalLinks?: boolean;
  /** Follow links to subdomains (default false). */
  allowSubdomains?: boolean;
  /** Ignore robots.txt (default false). */
  ignoreRobotsTxt?: boolean;
  /** Sitemap use: `include` (default), `skip` or `only`. */
  sitemap?: "skip" | "include" | "only";
  /** Skip near-duplicate URLs (default true). */
  deduplicateSimilarURLs?: boolean;
  /** Treat URLs differing only in their query as one (default false). */
  ignoreQueryParameters?: boolean;
  /** Match include/exclude regexes on the full URL (default false). */
  regexOnFullURL?: boolean;
  /** Delay between page scrapes, in **seconds** (the wire's unit). */
  delay?: number;
  /** Pages scraped at once (capped to the team's concurrency). */
  maxConcurrency?: number;
  /** Scrape options applied to every page. */
  scrapeOptions?: ScrapeOptions;
  /** Where the service POSTs crawl events: a URL or `{url, headers, metadata, events}`. */
  webhook?: WebhookConfig;
}

/**
 * A document of a crawl started with options `O`: `json` is typed from the json
 * format's schema in `scrapeOptions.formats` (else `unknown`).
 */
export type CrawlDocument<O> = Document<O extends { scrapeOptions?: infer S } ? JsonOfFormats<NonNullable<S> extends { formats?: infer F } ? F : unknown> : unknown>;

/** `POST /v2/crawl` answer. */
export interface CrawlStartResult {
  /** The job id (`id`). */
  id: string;
  /** The job's status URL (`url`), built by the server from the request's host. */
  url: string;
  /** Options the server derived from `prompt` (`promptGeneratedOptions`). */
  promptGeneratedOptions?: Record<string, unknown>;
  /** Options in force after merging the prompt's (`finalCrawlerOptions`). */
  finalCrawlerOptions?: Record<string, unknown>;
}

/** One running crawl (`crawls[]` of `GET /v2/crawl/active`). */
export interface ActiveCrawl {
  /** Job id. */
  id: string;
  /** Owner team (`teamId`). */
  teamId: string;
  /** Start URL. */
  url: string;
  /** ISO start time (`created_at`, as the wire names it). */
  created_at: string;
  /** Crawler options in v2 naming, plus `scrapeOptions`. */
  options: Record<string, unknown>;
}

/** `GET /v2/crawl/active` answer. */
export interface ActiveCrawls {
  /** Running crawls (cancelled crawls and batch scrapes are left out). */
  crawls: ActiveCrawl[];
}

/** A JS regular expression source, as the server compiles it. */
export const regexString = z.string().check(
  z.refine(
    (s) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: "must be a valid regular expression" },
  ),
);

export const crawlBody = z.looseObject({
  url: httpUrl,
  prompt: z.optional(z.string().check(z.maxLength(10000))),
  includePaths: z.optional(z.array(regexString)),
  excludePaths: z.optional(z.array(regexString)),
  maxDiscoveryDepth: z.optional(int(0)),
  limit: z.optional(int(1)),
  crawlEntireDomain: z.optional(z.boolean()),
  allowExternalLinks: z.optional(z.boolean()),
  allowSubdomains: z.optional(z.boolean()),
  ignoreRobotsTxt: z.optional(z.boolean()),
  sitemap: z.optional(z.enum(["skip", "include", "only"])),
  deduplicateSimilarURLs: z.optional(z.boolean()),
  ignoreQueryParameters: z.optional(z.boolean()),
  regexOnFullURL: z.optional(z.boolean()),
  delay: z.optional(z.number().check(z.positive())),
  maxConcurrency: z.optional(int(1)),
  scrapeOptions: z.optional(scrapeOptionsSchema),
  webhook: z.optional(webhookSchema()),
  zeroDataRetention: z.optional(z.boolean()),
  origin: z.optional(z.string()),
  integration: z.optional(z.string()),
});

export { jobStartShape, withoutSuccess } from "./job-starts.js";
/** A job start's answer, checked loosely: {@link jobStartShape}, other fields passed through. */
export const jobStartAnswer = z.looseObject(jobStartShape);

/** What {@link getActiveCrawls} reads (the crawl recovery matches on `url` and `created_at`). */
const activeAnswer = z.looseObject({ crawls: z.array(z.looseObject({ id: z.string(), url: z.string(), created_at: z.string() })) });

/** `POST /v2/crawl` (the options are an object already: the request options were checked first, then that). */
const CRAWL: Endpoint<[url: string, given: CrawlOptions], CrawlStartResult & { success?: boolean }, CrawlStartResult> = { op: "crawl.start",
  path: "/v2/crawl",
  occupies: true,
  body: (url, given) => check(crawlBody, { ...given, ...(given.scrapeOptions ? { scrapeOptions: wireScrapeOptions(given.scrapeOptions, "scrapeOptions.formats") } : {}), url }, "crawl options"),
  idempotent: true,
  response: jobStartAnswer,
  map: withoutSuccess,
};

const ACTIVE: Endpoint<[], { crawls: ActiveCrawl[] }, ActiveCrawls> = { op: "crawl.active", path: "/v2/crawl/active", response: activeAnswer, map: (r) => ({ crawls: r.crawls }) };

/**
 * `POST /v2/crawl`. Sends `x-idempotency-key` when the caller gives one, or (client option
 * `idempotencyKeys`, on by default for the public deployment) a generated UUID reused across
 * retries, so a retried start never creates two crawls; a used key is `IdempotencyConflictError`.
 */
export function startCrawl(http: HttpClient, url: string, given?: CrawlOptions | null, req?: RequestOptions | null): APIPromise<CrawlStartResult> {
  return withChecked(req, (checked) => {
    const opts = optionsArg(given, "crawl options");
    rejectOfficialKeys("startCrawl", opts, "crawl options"); // `crawl()` rejects them by its own name (a superset)
    return startCrawlWith(http, url, opts, checked);
  });
}

/** {@link startCrawl} with its request options checked and its options an object (`crawl()` checked them): the crawl options' schema runs here, once. */
export function startCrawlWith(http: HttpClient, url: string, given: CrawlOptions, req: Checked<RequestOptions>): APIPromise<CrawlStartResult> {
  const startedAt = Date.now();
  // A lost answer, this call's own memory: the 409 that answered a retry of a key of our own making, with that key
  // (an earlier attempt of this call started the crawl, and its answer was lost).
  let lost: { err: APIError; key: string } | undefined;
  const mapError = (err: APIError, at: AttemptInfo): APIError => {
    if (err instanceof IdempotencyConflictError && at.attempt > 1 && at.keyGenerated && at.idempotencyKey) lost = { err, key: at.idempotencyKey };
    return err;
  };
  const started = sendChecked(http, { ...CRAWL, mapError }, req, url, given);
  return new APIPromise(
    started.withResponse().catch(async (err: unknown) => {
      const key = lost !== undefined && lost.err === err ? lost.key : undefined;
      if (key === undefined) throw err;
      return recoverStartedCrawl(http, url, startedAt, key, err as IdempotencyConflictError, req);
    }).then((r) => (noteStart(http, r.data), r)),
  );
}

/** Tolerated difference between this machine's clock and the server's, for matching `created_at`. */
const CLOCK_SKEW_MS = 5 * 60_000;

function sameTarget(a: string, b: string): boolean {
  const norm = (s: string) => {
    try {
      return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `http://${s}`).href.replace(/\/$/, "");
    } catch {
      return s;
    }
  };
  return norm(a) === norm(b);
}

/**
 * An earlier attempt of this call started the crawl but its answer was lost, so the retry got
 * "Idempotency key already used". The server does not say which job the key made: find it among
 * the running crawls (same URL, started since this call began). Exactly one match is returned;
 * otherwise the conflict is thrown with an explanation.
 */
async function recoverStartedCrawl(http: HttpClient, url: string, startedAt: number, key: string, conflict: IdempotencyConflictError, req: Checked<RequestOptions>) {
  // The call's own signal and attempt limit, checked with its request options.
  const { data, response } = await sendChecked(http, ACTIVE, { signal: req.signal, timeoutMs: req.timeoutMs } as Checked<RequestOptions>).withResponse();
  const matches = data.crawls.filter((c) => sameTarget(c.url, url) && Date.parse(c.created_at) >= startedAt - CLOCK_SKEW_MS);
  const only = matches.length === 1 ? matches[0] : undefined;
  if (!only) {
    throw new IdempotencyConflictError({
      status: conflict.status,
      message: `${conflict.serverMessage}: an earlier attempt of this call (x-idempotency-key ${key}) probably started the crawl, but its id could not be recovered (${matches.length} running crawls of ${url} match); see getActiveCrawls()`,
      code: conflict.code,
      body: conflict.body,
      headers: conflict.headers,
      requestId: conflict.requestId,
      endpoint: conflict.endpoint,
    });
  }
  http.log("info", `Recovered crawl ${only.id}: an earlier attempt had started it before its answer was lost`);
  const result: CrawlStartResult = { id: only.id, url: http.url(`/v2/crawl/${encodeURIComponent(only.id)}`) };
  return { data: result, response };
}

/** `GET /v2/crawl/active`: the team's running crawls. */
export function getActiveCrawls(http: HttpClient, req?: RequestOptions): APIPromise<ActiveCrawls> {
  return send(http, ACTIVE, req);
}
