/**
 * The fake service's job engine for crawls and batch scrapes: deterministic
 * progress (each status read finishes `pagesPerPoll` more pages, or a test
 * drives it with {@link fakeJobs}), crawling of the fixture web (links within
 * the site, limit, include/exclude regexes, maxDiscoveryDepth, sitemap),
 * status pages, cancel and errors, and the job's webhook deliveries.
 */
import { normalizeTarget, withScheme } from "../fixtures.js";
import type { FakeService, FakeTeam } from "../service.js";
import { scrapeTarget, fakeId, parseFormats, stateOf } from "./scrape.js";
import { v1Document } from "./v1.js";
import { emitJobWebhook } from "../webhooks.js";

/** State of a fake crawl or batch scrape. */
export interface FakeJob {
  /** Job id (UUIDv7-shaped). */
  id: string;
  /** `crawl` or `batch`. */
  kind: "crawl" | "batch";
  /** API version it was started on (decides `next` URLs). */
  version: "v1" | "v2";
  /** Owner team. */
  team: FakeTeam | undefined;
  /** Key that started it (for the credit ledger). */
  key: string | undefined;
  /** Server-side status. */
  status: "scraping" | "completed" | "failed" | "cancelled";
  /** Start URL (crawl) or first URL (batch). */
  url: string;
  /** The start request's options (as sent). */
  options: Record<string, unknown>;
  /** URLs waiting to be scraped, with their link depth. */
  queue: { url: string; depth: number }[];
  /** Finished documents, in order. */
  docs: Record<string, unknown>[];
  /** Failed pages (`/errors`). */
  errors: { id: string; timestamp: string; url: string; code: string; error: string }[];
  /** Every URL queued so far (dedupe). */
  seen: Set<string>;
  /** Credits charged for this job's pages. */
  credits: number;
  /** Creation time (fake clock). */
  createdAt: number;
  /** Stored error of a failed job. */
  error?: string | undefined;
  /** Status reads left before a job whose pages are all done reports `completed` (the real server lags up to a minute). */
  settleLeft: number;
  /** A planned failure ({@link FakeJobs.failNext}): the job fails once this many pages are done. */
  failAfterPages?: number | undefined;
  /** The stored error of that planned failure. */
  failWith?: string | undefined;
}

/** A planned failure of the next job started (see `fakeJobs(fake).failNext`). */
export interface JobFailureSpec {
  /** Which kind of job (default: the next crawl or batch scrape, whichever starts first). */
  kind?: "crawl" | "batch" | undefined;
  /** The job's stored error (the `error` of its status), default "Crawl failed: the start URL could not be scraped.". */
  error?: string | undefined;
  /** Pages scraped before it fails (default 0: it fails at its first status read, with no document). */
  afterPages?: number | undefined;
}

/** Engine settings; change them with `fakeJobs(fake).configure(...)`. */
export interface JobEngineOptions {
  /** Pages finished on every status read of a running job (default 2; 0 = only when a test advances it). */
  pagesPerPoll: number;
  /** Serialized-size cut of a status page, bytes (the real server: 10 MiB). */
  maxPageBytes: number;
  /** Documents per status page without `limit` (the real server: 100). */
  defaultPageSize: number;
  /** Status reads that still say `scraping` after the last page is done (default 0; the real server: up to a minute). */
  settlePolls: number;
  /** What a cancelled job reports later: `cancelled` (source) or `completed` (what the self-hosted server does). */
  cancelledReportsAs: "cancelled" | "completed";
  /** How long after its start a job's results are kept, ms (default 24 h, reference §4.4 `expiresAt`): after it, its routes answer 404 (`/errors`: "Job expired"). */
  ttlMs: number;
}

const ROBOTS_DISALLOW = /^\/private\//;

/** How long the service keeps a job's results by default, ms (24 h). */
const JOB_TTL_MS = 24 * 3600 * 1000;

/** When a job's results expire (ms since the epoch, whole seconds as the service's `expiresAt`). */
export function expiresAtOf(fake: FakeService, job: FakeJob): number {
  return Math.floor((job.createdAt + engine(fake).options.ttlMs) / 1000) * 1000;
}

/** The engine's state for one fake service. */
export interface JobEngine {
  /** Jobs by id. */
  jobs: Map<string, FakeJob>;
  /** Idempotency keys seen. */
  keys: Set<string>;
  /** Settings. */
  options: JobEngineOptions;
  /** Failures planned for the next jobs started. */
  failures: JobFailureSpec[];
}

/** The engine of `fake` (created on first use). */
export function engine(fake: FakeService): JobEngine {
  return stateOf(fake, "jobEngine", () => ({ jobs: new Map(), keys: new Set(), failures: [], options: { pagesPerPoll: 2, maxPageBytes: 10 * 1024 * 1024, defaultPageSize: 100, settlePolls: 0, cancelledReportsAs: "cancelled", ttlMs: JOB_TTL_MS } }));
}

function normalize(url: string, ignoreQuery: boolean): string {
  return URL.canParse(withScheme(url)) ? normalizeTarget(url, ignoreQuery) : url;
}

function regexes(v: unknown): RegExp[] {
  return Array.isArray(v) ? v.map((s) => new RegExp(String(s))) : [];
}

/** Whether a discovered link is crawled, per the crawl's options (reference §4.1). */
function admits(job: FakeJob, link: string, depth: number): boolean {
  const o = job.options;
  const from = normalize(job.url, false);
  if (!URL.canParse(link) || !URL.canParse(from)) return false;
  const u = new URL(link);
  const start = new URL(from);
  const sameHost = u.host === start.host;
  const sub = u.hostname.endsWith(`.${start.hostname}`);
  if (!sameHost && !(o.allowSubdomains === true && sub) && o.allowExternalLinks !== true) return false;
  if (sameHost) {
    const entire = o.crawlEntireDomain === true || o.allowBackwardLinks === true;
    const base = start.pathname.replace(/\/$/, "");
    if (!entire && base && !(u.pathname === base || u.pathname.startsWith(`${base}/`))) return false;
  }
  if (o.ignoreRobotsTxt !== true && ROBOTS_DISALLOW.test(u.pathname)) return false;
  const subject = o.regexOnFullURL === true ? u.toString() : u.pathname;
  const inc = regexes(o.includePaths);
  if (inc.length && !inc.some((r) => r.test(subject))) return false;
  if (regexes(o.excludePaths).some((r) => r.test(subject))) return false;
  const maxDepth = typeof o.maxDiscoveryDepth === "number" ? o.maxDiscoveryDepth : undefined;
  if (maxDepth !== undefined && depth > maxDepth) return false;
  return true;
}

function limitOf(job: FakeJob): number {
  return typeof job.options.limit === "number" ? job.options.limit : 10000;
}

function enqueue(job: FakeJob, url: string, depth: number): void {
  const key = normalize(url, job.options.ignoreQueryParameters === true);
  if (job.seen.has(key) || job.seen.size >= limitOf(job)) return;
  job.seen.add(key);
  job.queue.push({ url, depth });
}

/** Creates a crawl job and queues its start URL (plus sitemap URLs unless `sitemap: "skip"`). */
export function createCrawl(fake: FakeService, version: "v1" | "v2", url: string, options: Record<string, unknown>, team: FakeTeam | undefined, key: string | undefined): FakeJob {
  const job = newJob(fake, "crawl", version, url, options, team, key);
  const sitemap = options.ignoreSitemap === true ? "skip" : (options.sitemap ?? "include");
  if (sitemap !== "only") enqueue(job, normalize(url, false), 0);
  if (sitemap !== "skip") {
    fake.findPage(url); // with `anyUrl`, an unknown site is generated before its sitemap is read
    const from = normalize(url, false);
    const host = URL.canParse(from) ? new URL(from).host : undefined;
    for (const p of fake.pages) if (p.inSitemap && new URL(p.url).host === host && admits(job, p.url, 0)) enqueue(job, p.url, 0);
  }
  return job;
}

/** Creates a batch scrape job over `urls`. */
export function createBatch(fake: FakeService, version: "v1" | "v2", urls: string[], options: Record<string, unknown>, team: FakeTeam | undefined, key: string | undefined): FakeJob {
  const job = newJob(fake, "batch", version, urls[0] ?? "", options, team, key);
  for (const u of urls) job.queue.push({ url: u, depth: 0 });
  return job;
}

function newJob(fake: FakeService, kind: FakeJob["kind"], version: FakeJob["version"], url: string, options: Record<string, unknown>, team: FakeTeam | undefined, key: string | undefined): FakeJob {
  const e = engine(fake);
  const job: FakeJob = {
    id: fakeId(fake), kind, version, team, key, status: "scraping", url, options, queue: [], docs: [], errors: [], seen: new Set(), credits: 0,
    createdAt: fake.now(), settleLeft: e.options.settlePolls,
  };
  const planned = e.failures.findIndex((f) => f.kind === undefined || f.kind === kind);
  if (planned >= 0) {
    const [f] = e.failures.splice(planned, 1);
    job.failAfterPages = f?.afterPages ?? 0;
    job.failWith = f?.error;
  }
  e.jobs.set(job.id, job);
  emitJobWebhook(fake, job, "started");
  return job;
}

/** Scrapes up to `n` queued pages of a running job; finishes it when the queue is empty and settled. */
export function advance(fake: FakeService, job: FakeJob, n: number): void {
  if (job.status !== "scraping") return;
  const scrapeOptions = (job.kind === "crawl" ? (job.options.scrapeOptions as Record<string, unknown> | undefined) : job.options) ?? {};
  // v1 jobs take v1 scrape options (`screenshot@fullPage`, `extract` + `extract` options, ...).
  const scrapeOne = (url: string) => (job.version === "v1" ? v1Document(fake, url, scrapeOptions) : scrapeTarget(fake, url, parseFormats(scrapeOptions.formats)));
  for (let i = 0; i < n && job.queue.length; i++) {
    if (job.failAfterPages !== undefined && job.docs.length >= job.failAfterPages) return failJob(job, job.failWith);
    const item = job.queue.shift() as { url: string; depth: number };
    try {
      const { doc, credits } = scrapeOne(item.url);
      fake.charge(job.team, credits, job.key);
      job.credits += credits;
      job.docs.push(doc);
      emitJobWebhook(fake, job, "page", { data: [doc] });
      const page = fake.findPage(item.url);
      if (job.kind === "crawl" && page && job.options.sitemap !== "only") for (const l of page.links) if (admits(job, l, item.depth + 1)) enqueue(job, l, item.depth + 1);
    } catch {
      pageFailed(fake, job, item.url, "SCRAPE_ALL_ENGINES_FAILED", "All scraping engines failed! -- Double check the URL to make sure it's not broken.");
    }
  }
  if (job.failAfterPages !== undefined && job.docs.length >= job.failAfterPages && n > 0) return failJob(job, job.failWith);
  if (job.queue.length === 0 && n > 0) {
    if (job.settleLeft > 0) job.settleLeft -= 1;
    else {
      job.status = "completed";
      emitJobWebhook(fake, job, "completed");
    }
  }
}

/** A page the job could not scrape: an `/errors` entry, and a `page` event with `success: false` and only the URL (as the service reports it). */
function pageFailed(fake: FakeService, job: FakeJob, url: string, code: string, error: string): void {
  job.errors.push({ id: fakeId(fake), timestamp: new Date(fake.now()).toISOString(), url, code, error });
  emitJobWebhook(fake, job, "page", { success: false, error, data: [{ metadata: { sourceURL: url } }] });
}

/** Runs a job to the end (every queued page, no settle lag). */
export function finish(fake: FakeService, job: FakeJob): void {
  while (job.status === "scraping") {
    job.settleLeft = 0;
    advance(fake, job, Math.max(1, job.queue.length));
  }
}

/**
 * Marks a job failed with a stored error (a kickoff failure when no page was
 * done). No webhook event: the service has no `crawl.failed` or
 * `batch_scrape.failed` (its `failed` filter only matters for extract and
 * agent); the error is on the job's status.
 */
export function failJob(job: FakeJob, error = "Crawl failed: the start URL could not be scraped."): void {
  job.status = "failed";
  job.error = error;
  job.queue = [];
}

/**
 * Cancels a running job: unscraped pages become `/errors` entries, and each is
 * delivered as a failed `page` (the service's workers fail every queued page of
 * a cancelled job, one webhook each: a cancel's flood).
 */
export function cancelJob(fake: FakeService, job: FakeJob): void {
  for (const item of job.queue) pageFailed(fake, job, item.url, "UNKNOWN_ERROR", "Job cancelled");
  job.queue = [];
  job.status = "cancelled";
}

/** The status the job reports now. */
export function reportedStatus(fake: FakeService, job: FakeJob): FakeJob["status"] {
  return job.status === "cancelled" ? engine(fake).options.cancelledReportsAs : job.status;
}

/** One status page (reference §4.4): `skip`/`limit`, the size cut, and `next`. */
export function statusPage(fake: FakeService, job: FakeJob, origin: string, skip: number, limit: number | undefined): Record<string, unknown> {
  const e = engine(fake).options;
  const status = reportedStatus(fake, job);
  const data: Record<string, unknown>[] = [];
  let bytes = 0;
  const max = limit ?? e.defaultPageSize;
  for (let i = skip; i < job.docs.length && data.length < max; i++) {
    const doc = job.docs[i] as Record<string, unknown>;
    bytes += JSON.stringify(doc).length;
    if (bytes > e.maxPageBytes && data.length > 0) break;
    data.push(doc);
    if (bytes > e.maxPageBytes) break;
  }
  const total = job.docs.length + job.queue.length;
  const base = job.kind === "crawl" ? "crawl" : "batch/scrape";
  const more = total > skip + data.length || status !== "completed";
  const next = more ? `${origin}/${job.version}/${base}/${job.id}?skip=${skip + data.length}${limit !== undefined ? `&limit=${limit}` : ""}` : undefined;
  const expiresAt = new Date(expiresAtOf(fake, job)).toISOString();
  if (status === "failed" && job.docs.length === 0) {
    return { success: false, error: job.error, status: "failed", completed: 0, total: 0, creditsUsed: job.credits, expiresAt, data: [] };
  }
  return {
    success: true,
    status,
    completed: job.docs.length,
    total,
    creditsUsed: job.credits,
    expiresAt,
    ...(next ? { next } : {}),
    data,
    ...(status === "failed" && job.error ? { error: job.error } : {}),
  };
}
