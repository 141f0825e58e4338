/**
 * Fake crawl and batch-scrape routes on v2 and v1 (start with idempotency
 * keys, status pages, cancel, errors, active crawls) over the job engine, and
 * {@link fakeJobs}: the handle a test uses to drive jobs.
 */
import { fail, HttpFailure, json, type FakeService, type HandlerContext } from "../service.js";
import { advance, cancelJob, createBatch, createCrawl, engine, expiresAtOf, failJob, finish, reportedStatus, statusPage, type FakeJob, type JobEngineOptions, type JobFailureSpec } from "./job-engine.js";
import { badRequest, badUrl, rejectUnknownKeys, SCRAPE_OPTION_KEYS, UUID, validUrl } from "./scrape.js";

const CRAWL_V2_KEYS = new Set([
  "url", "prompt", "includePaths", "excludePaths", "maxDiscoveryDepth", "limit", "crawlEntireDomain", "allowExternalLinks", "allowSubdomains",
  "ignoreRobotsTxt", "sitemap", "deduplicateSimilarURLs", "ignoreQueryParameters", "regexOnFullURL", "delay", "maxConcurrency", "scrapeOptions",
  "webhook", "zeroDataRetention", "origin", "integration", "robotsUserAgent",
]);
const BATCH_V2_KEYS = new Set([...SCRAPE_OPTION_KEYS, "urls", "ignoreInvalidURLs", "webhook", "appendToId", "maxConcurrency", "zeroDataRetention", "origin", "integration"]);

/** What a test can do with the fake's jobs. */
export interface FakeJobs {
  /** Every job, by id. */
  readonly all: ReadonlyMap<string, FakeJob>;
  /** A job by id (throws when unknown). */
  get(id: string): FakeJob;
  /** Changes the engine's settings (pages per poll, page size cut, settle lag, how a cancel is reported). */
  configure(options: Partial<JobEngineOptions>): void;
  /** Finishes `pages` more pages (default 1). */
  advance(id: string, pages?: number): void;
  /** Runs the job to the end. */
  finish(id: string): void;
  /** Fails the job with a stored error. */
  fail(id: string, error?: string): void;
  /**
   * Plans a failure of the next crawl or batch scrape started, for code that starts its own jobs.
   *
   * @example fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed: robots.txt blocked" })
   */
  failNext(spec?: JobFailureSpec): void;
  /** Cancels the job (as `DELETE` would). */
  cancel(id: string): void;
}

/**
 * The handle a test uses to drive the fake's crawls and batch scrapes.
 *
 * @example fakeJobs(fake).configure({ pagesPerPoll: 0 }); fakeJobs(fake).finish(id)
 */
export function fakeJobs(fake: FakeService): FakeJobs {
  const e = engine(fake);
  const get = (id: string): FakeJob => {
    const job = e.jobs.get(id);
    if (!job) throw new Error(`No fake job ${id}`);
    return job;
  };
  return {
    all: e.jobs,
    get,
    configure: (o) => Object.assign(e.options, o),
    advance: (id, pages = 1) => advance(fake, get(id), pages),
    finish: (id) => finish(fake, get(id)),
    fail: (id, error) => failJob(get(id), error),
    failNext: (spec = {}) => void e.failures.push({ ...spec }),
    cancel: (id) => cancelJob(fake, get(id)),
  };
}

/** Enforces `x-idempotency-key` (reference §1.1): a reused or non-UUID key is 409. */
function takeIdempotencyKey(fake: FakeService, ctx: HandlerContext): void {
  const key = ctx.request.headers.get("x-idempotency-key");
  if (key === null) return;
  const keys = engine(fake).keys;
  if (!UUID.test(key) || keys.has(key)) throw new HttpFailure(fail(409, "Idempotency key already used"));
  keys.add(key);
}

function checkRegexes(b: Record<string, unknown>): void {
  for (const field of ["includePaths", "excludePaths"]) {
    for (const r of (Array.isArray(b[field]) ? b[field] : []) as unknown[]) {
      try {
        new RegExp(String(r));
      } catch (err) {
        throw new HttpFailure(fail(400, (err as Error).message));
      }
    }
  }
}

/**
 * Finds a job for a status/cancel/errors route, answering 400/404 as the server does; a job past its
 * `expiresAt` is 404 too (the service dropped it: "Job not found", or "Job expired" on `/errors`).
 */
function lookup(fake: FakeService, version: string, id: string, cancel = false, route: "status" | "errors" = "status"): FakeJob {
  if (!UUID.test(id)) {
    if (version === "v2") throw new HttpFailure(fail(400, "Invalid job ID format. Job ID must be a valid UUID."));
    throw new HttpFailure(fake.internalError());
  }
  const job = engine(fake).jobs.get(id);
  const error = job && route === "errors" ? "Job expired" : "Job not found";
  if (!job || fake.now() >= expiresAtOf(fake, job)) throw new HttpFailure(cancel ? json(404, { error: "Job not found" }) : fail(404, error));
  return job;
}

function registerStart(fake: FakeService, version: "v1" | "v2"): void {
  fake.route("POST", `/${version}/crawl`, (ctx) => {
    const b = version === "v2" ? rejectUnknownKeys(ctx.body, CRAWL_V2_KEYS) : ((ctx.body ?? {}) as Record<string, unknown>);
    if (!validUrl(b.url)) badUrl(["url"], b.url);
    checkRegexes(b);
    fake.requireCredits(ctx.team, 1);
    takeIdempotencyKey(fake, ctx);
    const { url, ...options } = b;
    const job = createCrawl(fake, version, String(url), options, ctx.team, ctx.key);
    return json(200, { success: true, id: job.id, url: `${ctx.origin}/${version}/crawl/${job.id}` });
  });
  fake.route("POST", `/${version}/batch/scrape`, (ctx) => {
    const b = version === "v2" ? rejectUnknownKeys(ctx.body, BATCH_V2_KEYS) : ((ctx.body ?? {}) as Record<string, unknown>);
    if (!Array.isArray(b.urls) || b.urls.length === 0) badRequest(["urls"], "Invalid input: expected array", "invalid_type");
    const urls = b.urls as unknown[];
    const skip = b.ignoreInvalidURLs === true;
    const invalid = urls.filter((u) => !validUrl(u)).map(String);
    if (!skip && invalid.length) badUrl(["urls", urls.findIndex((u) => !validUrl(u))], urls.find((u) => !validUrl(u)));
    const valid = urls.filter((u) => validUrl(u)).map(String);
    if (valid.length === 0) throw new HttpFailure(fail(400, "No valid URLs provided"));
    fake.requireCredits(ctx.team, valid.length);
    if (version === "v1") takeIdempotencyKey(fake, ctx);
    const { urls: _urls, ...options } = b;
    let job: FakeJob;
    if (typeof b.appendToId === "string") {
      const target = engine(fake).jobs.get(b.appendToId);
      if (!target || target.kind !== "batch") throw new HttpFailure(fail(404, "Job not found"));
      job = target;
      for (const u of valid) job.queue.push({ url: u, depth: 0 });
      if (job.status === "completed") job.status = "scraping";
    } else {
      job = createBatch(fake, version, valid, options, ctx.team, ctx.key);
    }
    return json(200, { success: true, id: job.id, url: `${ctx.origin}/${version}/batch/scrape/${job.id}`, ...(skip ? { invalidURLs: invalid } : {}) });
  });
}

function registerActive(fake: FakeService, version: "v1" | "v2"): void {
  for (const name of ["active", "ongoing"]) {
    fake.route("GET", `/${version}/crawl/${name}`, ({ team }) => {
      const crawls = [...engine(fake).jobs.values()]
        .filter((j) => j.kind === "crawl" && j.status === "scraping" && j.team === team)
        .map((j) => ({ id: j.id, teamId: j.team?.id ?? "bypass", url: j.url, created_at: new Date(j.createdAt).toISOString(), options: { ...j.options } }));
      return json(200, { success: true, crawls });
    });
  }
}

function registerJobRoutes(fake: FakeService, version: "v1" | "v2", base: "crawl" | "batch/scrape"): void {
  fake.route("GET", `/${version}/${base}/:id`, ({ params, url, origin }) => {
    const job = lookup(fake, version, params.id as string);
    advance(fake, job, engine(fake).options.pagesPerPoll);
    const skip = Number(url.searchParams.get("skip") ?? 0) || 0;
    const rawLimit = url.searchParams.get("limit");
    const limit = rawLimit !== null && Number(rawLimit) > 0 ? Number(rawLimit) : undefined;
    const body = statusPage(fake, job, origin, skip, limit);
    if (version === "v1") delete body.warning;
    return json(200, body);
  });
  fake.route("DELETE", `/${version}/${base}/:id`, ({ params }) => {
    const job = lookup(fake, version, params.id as string, true);
    const status = reportedStatus(fake, job);
    if (status === "completed" || status === "failed") return json(409, { error: "Crawl is already completed" });
    cancelJob(fake, job);
    return json(200, { status: "cancelled" });
  });
  fake.route("GET", `/${version}/${base}/:id/errors`, ({ params }) => {
    const job = lookup(fake, version, params.id as string, false, "errors");
    return json(200, { errors: job.errors.map((e) => ({ ...e })), robotsBlocked: [] });
  });
}

/** Registers the crawl and batch-scrape routes (v2 and v1). */
export function registerJobs(fake: FakeService): void {
  for (const version of ["v2", "v1"] as const) {
    registerStart(fake, version);
    registerActive(fake, version);
    registerJobRoutes(fake, version, "crawl");
    registerJobRoutes(fake, version, "batch/scrape");
  }
}
