/**
 * The public waiters (`crawl`, `batchScrape`, `extract`, `agent`): start a
 * job, wait for it with the poll loop of `polling.ts`, return the finished
 * job. Crawl and batch scrape wait with `waitForJob`; extract and agent with
 * `waitForTask`.
 */
import { pluginMissing } from "../core/client-state.js";
import { cancelAgent, getAgentStatus, startAgentWith, type AgentOptions, type AgentStatus } from "../api/agent.js";
import type { Budget } from "../core/config.js";
import { pagesOf } from "./pages.js";
import { cancelJob, stallOf } from "./status.js";
import { startBatchScrapeWith, type BatchScrapeOptions } from "../api/batch.js";
import { startCrawlWith, type CrawlDocument, type CrawlOptions } from "../api/crawl.js";
import type { Document } from "../api/document.js";
import { getExtractStatus, startExtractWith, type ExtractOptions, type ExtractStatus } from "../api/extract.js";
import { rejectOfficialKeys } from "../api/endpoint.js";
import { resultSchema, validateDocuments, validateResult } from "../api/schema.js";
import type { ScrapeResult } from "../api/scrape.js";
import { HookError, JobFailedError, JobTimeoutError } from "../core/errors.js";
import type { JobHookEvent } from "../core/hooks.js";
import { checkRequestOptions, checkWaitOptions, NO_OPTIONS, withBudget, withSignal, type Checked } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import type { JobDocumentsOptions, JobKind, JobStatus, JobWaitOptions, WaitOptions } from "./types.js";
import { waitForJob, waitForTask } from "./polling.js";
import { outcomeReader, withByUrl, type BatchOutcomes } from "./batch-outcomes.js";

/** The `validate` option of the `extract` and `agent` waiters. */
export interface ValidateOption {
  /**
   * Not sent: parse the finished job's `data` with `schema` (a zod or Standard
   * Schema) and throw `ResultValidationError` naming the failing path when it does
   * not match. With a plain JSON Schema (or none) it is a `ValidationError` before
   * anything is sent.
   */
  validate?: boolean | undefined;
}

/**
 * Runs the waiting part under the caller's deadline: `timeoutMs` counts from the call, so the
 * time the start took comes off the polling budget; a `JobTimeoutError` still names the caller's `timeoutMs`.
 */
async function withinDeadline<T>(wait: JobWaitOptions, startedAt: number, run: (w: JobWaitOptions) => Promise<T>): Promise<T> {
  if (wait.timeoutMs === undefined) return run(wait);
  try {
    return await run({ ...wait, timeoutMs: Math.max(1, wait.timeoutMs - (Date.now() - startedAt)) });
  } catch (err) {
    if (err instanceof JobTimeoutError) throw new JobTimeoutError(err.jobId, wait.timeoutMs, err.lastStatus, err.requestId);
    throw err;
  }
}

/** What a finished wait reports to `onJob` (a crawl's and a batch's pages, every job's status and credits). */
interface JobEnd {
  status: string;
  completed?: number | undefined;
  total?: number | undefined;
  creditsUsed?: number | undefined;
}

/**
 * Runs one job's wait and tells the `onJob` hooks (the client's, then the call's) of its start and its
 * end: one `start` and one `end` event per waited job, with the final status, pages and credits (or the
 * error the wait ends with). Without an `onJob` hook it is the wait alone: no event is built. A hook
 * that throws fails the waiter with `HookError` (an `end` hook's throw does not hide the wait's own error), and
 * nothing more is waited for. The v2 waiters here and the v1 ones (`v1/jobs.ts`, `v1/extract.ts`) wait through it.
 */
export async function observeJob<S extends JobEnd>(http: HttpClient, req: Checked<RequestOptions>, kind: JobHookEvent["kind"], jobId: string, wait: () => Promise<S>): Promise<S> {
  const own = http.config.hooks?.onJob;
  const call = req.hooks?.onJob;
  if (!own && !call) return wait();
  const emit = async (e: JobHookEvent) => {
    try {
      await own?.(e);
      await call?.(e);
    } catch (err) {
      throw new HookError("onJob", err);
    }
  };
  const t0 = Date.now();
  let done: S;
  try {
    await emit({ phase: "start", kind, jobId });
    done = await wait();
  } catch (err) {
    // Every start gets its end, a start hook's throw included (a tracer then closes its span).
    const last = err instanceof JobTimeoutError ? (err.lastStatus as Partial<JobEnd> | undefined) : undefined;
    const status = err instanceof JobFailedError ? err.status : last?.status;
    await emit({ phase: "end", kind, jobId, ...counts(last), status, durationMs: Date.now() - t0, error: err instanceof Error ? err : new Error(String(err)) }).catch(() => undefined);
    throw err;
  }
  await emit({ phase: "end", kind, jobId, ...counts(done), status: done.status, durationMs: Date.now() - t0 });
  return done;
}

/** The pages and credits of a status, those it has (a credit count of -1, "unknown", is left out). */
function counts(s: Partial<JobEnd> | undefined): Pick<JobHookEvent, "completed" | "total" | "creditsUsed"> {
  if (!s) return {};
  const out: Pick<JobHookEvent, "completed" | "total" | "creditsUsed"> = {};
  if (typeof s.completed === "number") out.completed = s.completed;
  if (typeof s.total === "number") out.total = s.total;
  if (typeof s.creditsUsed === "number" && s.creditsUsed >= 0) out.creditsUsed = s.creditsUsed;
  return out;
}

/**
 * Splits waiter options (the call's `budget` among them) from the options sent to the server: none of them is sent. A
 * `budget` needs the governance stages of a plugin (`webdata/team`): without them it is a `ValidationError`, before anything is sent.
 */
function split<O extends JobWaitOptions>(http: HttpClient, opts: O): { wait: JobWaitOptions; rest: Omit<O, keyof JobWaitOptions>; budget: Budget | undefined } {
  // The stall options are the waiter's, never sent (extract and agent have no counters: they ignore them).
  const { pollIntervalMs, timeoutMs, signal, stallTimeoutMs, cancelOnStall, budget, ...rest } = opts;
  stallOf(http, opts, "wait options"); // `stallTimeoutMs` needs the plugin's detection: refused here, before the start
  if (budget && !http.state.governance) {
    throw pluginMissing("team", "budget", "wait options");
  }
  return { wait: { pollIntervalMs, timeoutMs, signal, stallTimeoutMs, cancelOnStall }, rest, budget };
}

/** The documents a crawl or batch scrape has now (the pages that exist, read once through the walk), for a `BudgetExceededError`. */
async function documentsNow(http: HttpClient, kind: JobKind, id: string, req: Checked<RequestOptions>): Promise<unknown[]> {
  const docs: unknown[] = [];
  for await (const page of pagesOf(http, kind, id, NO_OPTIONS as Checked<JobDocumentsOptions>, req, "v2", true)) docs.push(...page.data);
  return docs;
}

/** The budget stage's check of a crawl or batch scrape a waiter waits on (`Governance.watchJob`): cancel through `jobs/status.ts`, the documents through the walk. */
function jobBudget(http: HttpClient, kind: JobKind, id: string, args: readonly unknown[], budget: Budget | undefined, req: Checked<RequestOptions>) {
  return http.state.governance?.watchJob({
    op: kind === "crawl" ? "crawl.start" : "batchScrape.start",
    args,
    id,
    budget,
    cancel: (signal) => cancelJob(http, kind, id, withSignal(req, signal)),
    documents: (signal) => documentsNow(http, kind, id, withSignal(req, signal)),
  });
}

/**
 * Starts a crawl and waits for it; returns the job with every document. A json
 * format in `scrapeOptions.formats` with `validate: true` parses every document's
 * `json` (`ResultValidationError` naming the document's URL and the path).
 */
export async function crawlAndWait<O extends CrawlOptions & JobWaitOptions>(http: HttpClient, url: string, options?: O, req?: RequestOptions): Promise<JobStatus<CrawlDocument<O>>> {
  // Each family checked once, here: the wait options, the request options; the crawl options by the start's schema.
  const opts = checkWaitOptions<CrawlOptions & JobWaitOptions>(options, "crawl options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("crawl", opts, "crawl options");
  const { wait, rest, budget } = split<CrawlOptions & JobWaitOptions>(http, opts);
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const { id } = await startCrawlWith(http, url, rest, withBudget(withSignal(checked, signal), budget));
  const onStatus = jobBudget(http, "crawl", id, [url, rest], budget, checked);
  const job = await observeJob(http, checked, "crawl", id, () => withinDeadline(wait, startedAt, (w) => waitForJob<Document>(http, "crawl", id, { ...w, signal, startedAt, onStatus }, checked)));
  return { ...job, data: (await validateDocuments(rest.scrapeOptions?.formats, job.data)) as CrawlDocument<O>[] };
}

/**
 * Starts a batch scrape and waits for it; returns the job with every document. A
 * json format with `validate: true` parses every document's `json`, as in {@link crawlAndWait}.
 * `byUrl` (not enumerable) gives each input URL its document or its `BatchFailure` (`batch-outcomes.ts`).
 */
export async function batchScrapeAndWait<O extends BatchScrapeOptions & JobWaitOptions>(
  http: HttpClient,
  urls: string[],
  options?: O,
  req?: RequestOptions,
): Promise<JobStatus<ScrapeResult<O>> & { invalidURLs?: string[]; readonly byUrl: BatchOutcomes<ScrapeResult<O>> }> {
  const opts = checkWaitOptions<BatchScrapeOptions & JobWaitOptions>(options, "batch scrape options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("batchScrape", opts, "batch scrape options");
  const { wait, rest, budget } = split<BatchScrapeOptions & JobWaitOptions>(http, opts);
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const started = await startBatchScrapeWith(http, urls, rest, withBudget(withSignal(checked, signal), budget));
  const onStatus = jobBudget(http, "batch", started.id, [urls, rest], budget, checked);
  const job = await observeJob(http, checked, "batch", started.id, () => withinDeadline(wait, startedAt, (w) => waitForJob<Document>(http, "batch", started.id, { ...w, signal, startedAt, onStatus }, checked)));
  const data = (await validateDocuments(rest.formats, job.data)) as ScrapeResult<O>[];
  // Every input has an outcome (`byUrl`): `/errors` is read only when an input has no document.
  const byUrl = await outcomeReader(http)?.read(http, started.id, urls, data, started.invalidURLs, withSignal(checked, signal)); // with the team plugin

  return withByUrl(started.invalidURLs ? { ...job, data, invalidURLs: started.invalidURLs } : { ...job, data }, byUrl);
}

/** Starts an extraction and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function extractAndWait<T = unknown>(http: HttpClient, options: ExtractOptions & WaitOptions & ValidateOption, req?: RequestOptions): Promise<ExtractStatus<T>> {
  const opts = checkWaitOptions<ExtractOptions & WaitOptions & ValidateOption>(options, "extract options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("extract", opts, "extract options");
  const { wait, rest: { validate, ...rest }, budget } = split(http, opts);
  const schema = resultSchema(rest.schema, validate, "validate", "extract options");
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const { id } = await startExtractWith(http, rest, withBudget(withSignal(checked, signal), budget));
  const onStatus = http.state.governance?.watchJob({ op: "extract.start", args: [rest], id, budget }); // an extract has no cancel
  const read = (s: AbortSignal) => getExtractStatus<T>(http, id, withSignal(checked, s)).then(async (st) => (await onStatus?.(st, s), st));
  const done = await observeJob(http, checked, "extract", id, () => withinDeadline(wait, startedAt, (w) => waitForTask(id, read, { ...w, signal }, startedAt)));
  return schema ? { ...done, data: (await validateResult(schema, done.data, `data of extract ${id}`)) as T } : done;
}

/** Starts an agent and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function agentAndWait<T = unknown>(http: HttpClient, prompt: string, options: AgentOptions & WaitOptions & ValidateOption = {}, req?: RequestOptions): Promise<AgentStatus<T>> {
  const opts = checkWaitOptions<AgentOptions & WaitOptions & ValidateOption>(options, "agent options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("agent", opts, "agent options");
  const { wait, rest: { validate, ...rest }, budget } = split(http, opts);
  const schema = resultSchema(rest.schema, validate, "validate", "agent options");
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const { id } = await startAgentWith(http, prompt, rest, withBudget(withSignal(checked, signal), budget));
  const onStatus = http.state.governance?.watchJob({ op: "agent.start", args: [prompt, rest], id, budget, cancel: (s) => cancelAgent(http, id, withSignal(checked, s)) });
  const read = (s: AbortSignal) => getAgentStatus<T>(http, id, withSignal(checked, s)).then(async (st) => (await onStatus?.(st, s), st));
  const done = await observeJob(http, checked, "agent", id, () => withinDeadline(wait, startedAt, (w) => waitForTask(id, read, { ...w, signal }, startedAt)));
  return schema ? { ...done, data: (await validateResult(schema, done.data, `data of agent ${id}`)) as T } : done;
}
