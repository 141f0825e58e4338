/**
 * Pagination of crawl and batch-scrape results: follows the absolute `next`
 * URL as given, ends when the job is terminal and no `next` remains, sleeps
 * between empty pages while the job runs, and holds one page at a time.
 */
import type { Document } from "../api/document.js";
import { validateDocumentsWith } from "../api/schema.js";
import { checkJsonOptions, checkRequestOptions, checkWaitOptions, optionsArg } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { delay } from "../core/abort.js";
import { pollPauses } from "./poll-timing.js";
import { firstSeen } from "./identity.js";
import { PageGuard } from "./page-guard.js";
import { getJobPage, getJobStatus, isTerminal } from "./status.js";
import type { ApiVersion, JobDocumentsOptions, JobKind, JobStatus } from "./types.js";

/**
 * Every status page of a job, from `skip=0`, following `next` (re-based onto
 * `apiUrl`, see `status.ts`). Yields each page (one at a time), without the
 * documents an earlier page already held. A page request that fails throws; the iteration never ends
 * early as if complete. `apiVersion` (internal: the v1 layer reads `/v1/...`)
 * is a parameter, not an option, so no caller's options object can change the routes.
 * `snapshot` (internal: the drop-in entry's auto-paginated status read) ends the walk at the
 * last page that exists now, running job or not, where the default waits for a terminal job.
 */
export async function* jobPages<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  optsArg?: JobDocumentsOptions | null,
  requestOptions?: RequestOptions,
  apiVersion: ApiVersion = "v2",
  snapshot = false,
): AsyncGenerator<JobStatus<TDoc>, void, undefined> {
  const opts = optionsArg(optsArg, "documents options");
  checkWaitOptions(opts, "documents options");
  checkJsonOptions(opts, "documents options");
  checkRequestOptions(requestOptions);
  const pause = pollPauses(opts.pollIntervalMs); // ramped unless the caller set the interval (poll-timing.ts)
  const req: RequestOptions = { ...requestOptions, signal: opts.signal ?? requestOptions?.signal };
  let page = await getJobStatus<TDoc>(http, kind, id, { limit: opts.pageLimit }, req, apiVersion);
  let seen = 0;
  const guard = new PageGuard(id);
  const docs = new Set<string>();
  for (;;) {
    guard.page(page);
    seen += page.data.length;
    const { next, status, data } = page;
    // A document the server lists on two pages is yielded once (the watcher's rule, `identity.ts`).
    yield { ...page, data: data.filter((d) => firstSeen(docs, d)) };
    const terminal = isTerminal(status);
    // A terminal job's results no longer grow: an empty page (or no `next`) is the end; so it is of a snapshot.
    if ((terminal || snapshot) && (!next || data.length === 0)) return;
    if (!terminal && data.length === 0) await delay(pause(), req.signal);
    if (next) guard.follow(next, page);
    page = next
      ? await getJobPage<TDoc>(http, kind, id, next, req, apiVersion)
      : await getJobStatus<TDoc>(http, kind, id, { skip: seen, limit: opts.pageLimit }, req, apiVersion);
  }
}

/** Every document of a job, in order (an async iterator over {@link jobPages}); with `opts.schema`, each `json` is parsed before it is yielded. */
export async function* jobDocuments<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  opts?: JobDocumentsOptions | null,
  requestOptions?: RequestOptions,
  apiVersion: ApiVersion = "v2",
): AsyncGenerator<TDoc, void, undefined> {
  for await (const page of jobPages<TDoc>(http, kind, id, opts, requestOptions, apiVersion)) {
    for (const doc of page.data) yield opts?.schema ? ((await validateDocumentsWith(opts.schema, [doc as Document]))[0] as TDoc) : doc;
  }
}
