/**
 * v1 status, errors, cancel and waiting for crawls and batch scrapes: ONE
 * implementation, parameterised by job kind, over the shared job machinery
 * (`jobs/`) with `/v1/...` routes. Only the v1 result shapes are added here,
 * through `shapes.ts`.
 */
import { APIPromise, type HttpClient, type RequestOptions, type ResponseInfo, type WithResponse } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, int } from "../core/validate.js";
import { NO_OPTIONS, type Checked } from "../core/options.js";
import { pagesOf } from "../jobs/pages.js";
import { withChecked } from "../api/endpoint.js";
import { cancelJob, getJobErrors, getJobPage, isTerminal, jobPath, ownPage, readJobStatus } from "../jobs/status.js";
import type { JobKind, JobStatus } from "../jobs/types.js";
import { awaitJob, pagedJob } from "../jobs/waiters.js";
import type { V1TaskStartResponse } from "./research.js";
import { V1, v1JobStatus, v1Record, type V1ErrorResponse, type V1ErrorsResponse, type V1JobStatusResponse } from "./shapes.js";

/** The v1 answer of a job start: `{ success: true, id, url, invalidURLs? }`. */
export interface V1JobStartResponse extends V1TaskStartResponse {
  /** The job's v1 status URL. */
  url: string;
  /** Batch scrape with `ignoreInvalidURLs`: the URLs that were skipped. */
  invalidURLs?: string[];
}

/** The v1 cancel answer: the wire's `{ status: "cancelled" }` with `success: true` added for v1-typed code. */
export interface V1CancelResponse extends Pick<V1TaskStartResponse, "success"> {
  status: "cancelled";
}

const pageArgs = z.object({ skip: z.optional(int(0)), limit: z.optional(int(1)) });

/** `checkCrawlStatus` / `checkBatchScrapeStatus`, as `V1Client.checkCrawlStatus`'s JSDoc says (`getAllData`, `nextURL`, `skip`, `limit`). */
export function checkV1JobStatus(
  http: HttpClient,
  kind: JobKind,
  id: string,
  getAllData: boolean,
  page: { nextURL?: string | undefined; skip?: number | undefined; limit?: number | undefined },
  req?: RequestOptions,
): APIPromise<V1JobStatusResponse | V1ErrorResponse> {
  return withChecked(req, (checked) => {
    const pageChecked = ownPage(check(pageArgs, { skip: page.skip, limit: page.limit }, "status page options"));
    if (getAllData) return new APIPromise(allPages(http, kind, id, checked));
    if (page.nextURL !== undefined) {
      const u = new URL(page.nextURL);
      if (page.skip !== undefined) u.searchParams.set("skip", String(page.skip));
      if (page.limit !== undefined) u.searchParams.set("limit", String(page.limit));
      return getJobPage(http, kind, id, u.toString(), checked, V1).map((s) => v1JobStatus(s));
    }
    return readJobStatus(http, kind, id, pageChecked, checked, V1).map((s) => v1JobStatus(s));
  });
}

async function allPages(http: HttpClient, kind: JobKind, id: string, req: Checked<RequestOptions>): Promise<WithResponse<V1JobStatusResponse | V1ErrorResponse>> {
  // Several answers make up this result: the response info is the API's, not one page's.
  const response: ResponseInfo = { status: 200, headers: new Headers(), requestId: undefined, url: http.url(jobPath(kind, id, V1)) };
  let last: JobStatus | undefined;
  const data: JobStatus["data"] = [];
  for await (const p of pagesOf(http, kind, id, NO_OPTIONS, req, V1)) {
    // A running job is not paginated (v1 semantics): its first page is the answer.
    if (!last && !isTerminal(p.status)) return { data: v1JobStatus(p), response };
    last = p;
    data.push(...p.data);
  }
  // The page that ended the walk is terminal (a later page may disagree with the first for a moment).
  return { data: v1JobStatus({ ...(last as JobStatus), data, next: undefined }, { dropNext: true }), response };
}

/** `checkCrawlErrors` / `checkBatchScrapeErrors`: `{ errors, robotsBlocked }` (v1 identical to v2). */
export function v1JobErrors(http: HttpClient, kind: JobKind, id: string, req?: RequestOptions): APIPromise<V1ErrorsResponse> {
  return getJobErrors(http, kind, id, req, V1);
}

/** `cancelCrawl`: `DELETE /v1/crawl/<id>` -> `{ status: "cancelled" }`; 409 `ConflictError` when already finished. */
export function cancelV1Job(http: HttpClient, kind: JobKind, id: string, req?: RequestOptions): APIPromise<V1CancelResponse> {
  return cancelJob(http, kind, id, req, V1).map(() => v1Record({ status: "cancelled" as const }));
}

/**
 * Waits for a started v1 job with the shared waiter, returning every document
 * in the v1 status shape. Failure and cancellation throw `JobFailedError`.
 * `pollIntervalMs` comes from the caller's seconds through `pollSecondsToMs`; `args`, the start's arguments
 * (a crawl's URL and params, a batch's URLs and params), give the budget's check the job's stated maximum.
 */
export async function waitV1Job(http: HttpClient, kind: JobKind, id: string, pollIntervalMs: number, req: Checked<RequestOptions>, args: readonly unknown[] = []): Promise<V1JobStatusResponse> {
  const final = await awaitJob(http, pagedJob(kind, V1), id, { wait: { pollIntervalMs, signal: req.signal }, args, startedAt: Date.now(), req });
  return v1JobStatus(final, { dropNext: true }) as V1JobStatusResponse;
}
