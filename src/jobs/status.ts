/**
 * One implementation of the crawl and batch-scrape status, errors and cancel
 * calls, parameterised by job kind and API version (reference §4.4, §4.6, §4.7).
 */
import { pluginMissing, type StallDetection, type StalledJob } from "../core/client-state.js";
import type { Document } from "../api/document.js";
import { isRecord, PaginationError } from "../core/errors.js";
import { APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import { expiredOr, noteExpiry } from "../api/job-starts.js";
import { maybeString, objects } from "../core/response.js";
import type { OperationName } from "../api/operations.js";
import { type Endpoint, fill, rejectOfficialKeys, send, sendChecked, withChecked } from "../api/endpoint.js";
import { type Checked, checkJsonOptions, optionsArg, withSignal } from "../core/options.js";
import * as z from "zod/v4/mini";
import { check, int } from "../core/validate.js";
import type { ApiVersion, JobErrors, JobKind, JobPageOptions, JobState, JobStatus, StallOptions } from "./types.js";

/** The status route of a job: `/v2/crawl/<id>` or `/v2/batch/scrape/<id>` (v1 alike). */
export function jobPath(kind: JobKind, id: string, apiVersion: ApiVersion = "v2"): string {
  return fill(kind === "crawl" ? "/{version}/crawl/{id}" : "/{version}/batch/scrape/{id}", [apiVersion, id]);
}

/** True for a status that will not change any more. */
export function isTerminal(status: JobState | string): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

const pageOptions = z.looseObject({ skip: z.optional(int(0)), limit: z.optional(int(1)) });

/**
 * What a status page (first page or a `next` page, v1 and v2) must hold: a `status`
 * (unless it is a failed kickoff, `success:false`), `data` as a list of documents and
 * `next` as a URL when present. Anything else would end pagination early or lose documents.
 */
export const jobStatusAnswer = z.looseObject({ status: z.optional(z.string()), data: z.optional(objects), next: maybeString }).check(
  z.refine((b) => typeof b.status === "string" || (b as { success?: unknown }).success === false, { path: ["status"], error: "expected a string (or success: false)" }),
);

/**
 * The state a status body reports: its `status`, else `failed` when it says `success: false` or carries an
 * `error` (a kickoff failure), else `scraping`. The one rule for every status read (REST, stream catchup).
 */
export function stateOf(raw: unknown): JobState {
  const rec = isRecord(raw) ? raw : {};
  return (typeof rec.status === "string" ? rec.status : rec.success === false || rec.error ? "failed" : "scraping") as JobState;
}

/** Turns a wire status body into a {@link JobStatus} (unknown fields are kept; `success` is dropped). */
export function toJobStatus<TDoc = Document>(raw: unknown, id: string): JobStatus<TDoc> {
  const rec = isRecord(raw) ? { ...raw } : {};
  delete rec.success;
  return {
    ...rec,
    id,
    status: stateOf(raw),
    completed: typeof rec.completed === "number" ? rec.completed : 0,
    total: typeof rec.total === "number" ? rec.total : 0,
    creditsUsed: typeof rec.creditsUsed === "number" ? rec.creditsUsed : 0,
    expiresAt: typeof rec.expiresAt === "string" ? rec.expiresAt : "",
    next: typeof rec.next === "string" && rec.next ? rec.next : undefined,
    data: Array.isArray(rec.data) ? (rec.data as TDoc[]) : [],
  };
}

/** A status page's answer as a {@link JobStatus} of the job the call names (its second argument). */
const statusOf = (raw: unknown, args: [JobKind, string, ...unknown[]]): JobStatus => toJobStatus(raw, args[1]);

/**
 * Checks a caller's status page options (`skip`, `limit`) with the pagination schema, once: the
 * `kind` names the public method in the message of an official key.
 */
export function checkPageOptions(kind: JobKind, pageArg: JobPageOptions | null | undefined): Checked<JobPageOptions> {
  const page = optionsArg(pageArg, "status page options");
  checkJsonOptions(page, "status page options");
  rejectOfficialKeys(kind === "batch" ? "getBatchScrapeStatus" : "getCrawlStatus", page, "status page options");
  return check(pageOptions, page, "status page options") as Checked<JobPageOptions>;
}

/** What a status read and a `next` page read share: the operation, a kickoff failure (`success:false`) taken as a status, the answer's checks. */
const PAGE_READ = { op: (kind: JobKind): OperationName => (kind === "crawl" ? "crawl.status" : "batchScrape.status"), allowUnsuccessful: true, response: jobStatusAnswer, map: statusOf };

/** `GET .../<id>?skip=&limit=` (the page options checked by the caller: {@link checkPageOptions}, or the SDK's own). */
const STATUS: Endpoint<[kind: JobKind, id: string, apiVersion: ApiVersion, page: Checked<JobPageOptions>], unknown, JobStatus> = { ...PAGE_READ,
  path: jobPath,
  query: (_kind, _id, _v, page) => ({ skip: page.skip, limit: page.limit }),
};

/** The page a `next` link names, re-based onto `apiUrl` ({@link nextPagePath}). */
const PAGE: Endpoint<[kind: JobKind, id: string, next: string, apiVersion: ApiVersion], unknown, JobStatus> = { ...PAGE_READ, path: nextPagePath };

/** What {@link cancelJob} reads. */
const cancelAnswer = z.looseObject({ status: z.optional(z.string()) });

const ERRORS: Endpoint<[kind: JobKind, id: string, apiVersion: ApiVersion], unknown, JobErrors> = { op: (kind) => (kind === "crawl" ? "crawl.errors" : "batchScrape.errors"),
  path: (kind, id, apiVersion) => `${jobPath(kind, id, apiVersion)}/errors`,
  response: z.looseObject({ errors: objects, robotsBlocked: z.optional(z.array(z.string())) }),
  // The answer passed its schema: `errors` is there, `robotsBlocked` may not be.
  map: (raw) => ({ ...(raw as JobErrors), robotsBlocked: (raw as Partial<JobErrors>).robotsBlocked ?? [] }),
};

const CANCEL: Endpoint<[kind: JobKind, id: string, apiVersion: ApiVersion]> = { op: (kind) => (kind === "crawl" ? "crawl.cancel" : "batchScrape.cancel"), method: "DELETE", path: jobPath, response: cancelAnswer };

/**
 * ONE page of a job's status (`GET .../<id>?skip=&limit=`), for a public call: its page and request
 * options checked here, once. Never paginates. A kickoff failure (200 with `success:false`) comes back
 * as a `failed` status.
 */
export function getJobStatus<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  pageArg?: JobPageOptions | null,
  req?: RequestOptions | null,
  apiVersion: ApiVersion = "v2",
): APIPromise<JobStatus<TDoc>> {
  return withChecked(req, (checked) => readJobStatus<TDoc>(http, kind, id, checkPageOptions(kind, pageArg), checked, apiVersion));
}

/** {@link getJobStatus} with its options checked already (each poll of a waiter or the watcher, each `skip` read of the walk): not checked again. */
export function readJobStatus<TDoc = Document>(http: HttpClient, kind: JobKind, id: string, page: Checked<JobPageOptions>, req: Checked<RequestOptions>, apiVersion: ApiVersion = "v2"): APIPromise<JobStatus<TDoc>> {
  return ofJob(http, id, sendChecked(http, STATUS, req, kind, id, apiVersion, page) as APIPromise<JobStatus<TDoc>>, true);
}

/**
 * Expired jobs (results dropped 24 h after the start), for every call on a job's routes: a status page's `expiresAt` is noted
 * (`noteExpiry`), and a 404 of a job whose results have expired becomes `JobExpiredError` (`expiredOr`).
 */
function ofJob<R>(http: HttpClient, id: string, sent: APIPromise<R>, status = false): APIPromise<R> {
  return new APIPromise(
    sent.withResponse().then(
      (r) => {
        if (status) noteExpiry(http, id, (r.data as { expiresAt?: string }).expiresAt ?? "");
        return r;
      },
      (err: unknown) => {
        throw expiredOr(http, id, err);
      },
    ),
  );
}

/** Page options the SDK makes itself (a poll's `limit`, the walk's `skip`): whole numbers of its own, so nothing to check. */
export function ownPage(page: JobPageOptions): Checked<JobPageOptions> {
  return page as Checked<JobPageOptions>;
}

/** The page of a read for the counters, which come with every page (a waiter's polls: the documents are fetched once at the end; the watcher's quick read): one document. */
export const COUNTERS_PAGE = ownPage({ limit: 1 });

/** A results route at the end of a path (`/v1|v2/crawl/<id>`, `/v1|v2/batch/scrape/<id>`), the id captured. */
const RESULTS_ROUTE = /\/v[12]\/(?:crawl|batch\/scrape)\/([^/]+)$/;

/**
 * The path and query under `apiUrl` of a status page's `next` link: this job's results route and the
 * link's query; the server's scheme, host and any path before the route are dropped (a self-hosted
 * server behind a proxy or gateway builds `next` from the Host it saw, such as
 * `http://localhost:3002/v2/...`), and `apiUrl`'s own path prefix is kept. So no request of the walk
 * goes to an origin other than `apiUrl`, with or without the key or the caller's headers. A `next`
 * that is not this job's results route is a `PaginationError` naming what it points at.
 */
export function nextPagePath(kind: JobKind, id: string, next: string, apiVersion: ApiVersion = "v2"): string {
  let u: URL | undefined;
  try {
    u = new URL(next, "http://x");
  } catch {
    // not a URL: the error below
  }
  const own = jobPath(kind, id, apiVersion);
  if (u?.pathname.endsWith(own)) return own + u.search;
  const found = u && RESULTS_ROUTE.exec(u.pathname)?.[1];
  const other = found !== id ? found || undefined : undefined;
  throw new PaginationError(id, `its next link is for ${other ? `another job, ${other}` : "no results page of it"} (not read)`, u && u.pathname + u.search);
}

/** GETs the page a status page's `next` link names, re-based onto `apiUrl` ({@link nextPagePath}); `req` checked already. */
export function getJobPage<TDoc = Document>(http: HttpClient, kind: JobKind, id: string, next: string, req: Checked<RequestOptions>, apiVersion: ApiVersion = "v2"): APIPromise<JobStatus<TDoc>> {
  return ofJob(http, id, sendChecked(http, PAGE, req, kind, id, next, apiVersion) as APIPromise<JobStatus<TDoc>>, true);
}

/** `GET .../<id>/errors`: failed pages and robots.txt-blocked URLs. */
export function getJobErrors(http: HttpClient, kind: JobKind, id: string, req?: RequestOptions, apiVersion: ApiVersion = "v2"): APIPromise<JobErrors> {
  return ofJob(http, id, send(http, ERRORS, req, kind, id, apiVersion));
}

/** True when this client cancelled the job (its state, `http.state.cancelled`; the self-hosted server later reports such a job as `completed`). */
export function wasCancelled(http: HttpClient, id: string): boolean {
  return http.state.cancelled.has(id);
}

/**
 * `DELETE .../<id>`: resolves `true` on `{status:"cancelled"}`. A finished job is
 * 409 `ConflictError` ("Crawl is already completed"); an unknown one 404 `NotFoundError`.
 */
export function cancelJob(http: HttpClient, kind: JobKind, id: string, req?: RequestOptions, apiVersion: ApiVersion = "v2"): APIPromise<boolean> {
  return ofJob(http, id, send(http, CANCEL, req, kind, id, apiVersion)).map((raw) => {
    const ok = isRecord(raw) && raw.status === "cancelled";
    if (ok) http.state.cancelled.add(id);
    return ok;
  });
}

/*
 * The seam of stalled jobs in the root: the detection itself (`webdata/team`, `team/stall.ts`) is a plugin's, given to
 * the client as `http.state.stall`. `stallTimeoutMs` on a client without it is a `ValidationError` naming the import,
 * before anything is sent; the waiters, the documents iterators and the watcher ask {@link stallOf} for it.
 */
/** The client's stall detection when `opts` ask for it (`stallTimeoutMs`), else undefined; a `ValidationError` when they ask and the client has no `team` plugin. */
export function stallOf(http: HttpClient, opts: StallOptions, context: string): StallDetection | undefined {
  if (opts.stallTimeoutMs === undefined) return undefined;
  const stall = http.state.stall;
  if (!stall) throw pluginMissing("team", "stallTimeoutMs", context);
  return stall;
}

/** The job a stall is about: its cancel through `jobs/status.ts` with the caller's request options (not its signal: the wait was stopped by the stall). */
export function stalledJob(http: HttpClient, kind: JobKind, id: string, apiVersion: ApiVersion, request: Checked<RequestOptions>): StalledJob {
  return { id, cancel: () => cancelJob(http, kind, id, withSignal(request, undefined), apiVersion), log: (m) => http.log("warn", m) };
}
