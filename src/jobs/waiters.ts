/**
 * The one job recipe. Each kind of job (crawl, batch scrape, extract, agent, and v1's generation jobs) is a
 * {@link JobRecipe}: the operation that starts it, how its status is waited on, how it is cancelled, its documents
 * so far. One composition runs every waiter, v2's and v1's: start -> budget -> observe -> poll (ramp, deadline,
 * stall) -> finish. {@link runJob} starts and waits, {@link awaitJob} waits for a started job; the poll loop is
 * `polling.ts`'s `pollUntil`, the page walk `pages.ts`'s. The public waiters (`crawl`, `batchScrape`, `extract`,
 * `agent`) are the recipe with their own checks and finish.
 */
import { cancelAgent, getAgentStatus, startAgentWith, type AgentOptions, type AgentStatus } from "../api/agent.js";
import { startBatchScrapeWith, type BatchScrapeOptions } from "../api/batch.js";
import { startCrawlWith, type CrawlDocument, type CrawlOptions } from "../api/crawl.js";
import type { Document } from "../api/document.js";
import { rejectOfficialKeys, type OfficialCall } from "../api/endpoint.js";
import { getExtractStatus, startExtractWith, type ExtractOptions, type ExtractStatus } from "../api/extract.js";
import type { OperationName } from "../api/operations.js";
import { resultSchema, validateDocuments, validateResult } from "../api/schema.js";
import type { ScrapeResult } from "../api/scrape.js";
import { pluginMissing } from "../core/client-state.js";
import type { Budget } from "../core/config.js";
import { HookError, JobFailedError, JobTimeoutError } from "../core/errors.js";
import type { JobHookEvent, JobHookKind } from "../core/hooks.js";
import { checkRequestOptions, checkWaitOptions, NO_OPTIONS, withBudget, withSignal, type Checked } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { outcomeReader, withByUrl, type BatchOutcomes } from "./batch-outcomes.js";
import { pagesOf } from "./pages.js";
import { waitForJob, waitForTask, type ReadStatus, type TaskStatus, type WaitForJobOptions } from "./polling.js";
import { cancelJob, stalledJob, stallOf } from "./status.js";
import type { ApiVersion, JobDocumentsOptions, JobKind, JobStatus, JobWaitOptions, WaitOptions } from "./types.js";

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

/** One kind of job, as the waiters run it (see the module's note). */
export interface JobRecipe<S extends ReadStatus> {
  /** Its kind, as the `onJob` hooks name it. */
  readonly kind: JobHookKind;
  /** The catalogue's operation that starts it (`api/operations.ts`): the budget stage reads its credit rule. */
  readonly op: OperationName;
  /** Waits for it with the poll loop: `waitForJob` for a crawl or batch scrape, `waitForTask` for the others. */
  wait(http: HttpClient, id: string, wait: WaitForJobOptions, req: Checked<RequestOptions>): Promise<S>;
  /** Cancels it (absent: it has no cancel, an extract or a v1 generation job). */
  readonly cancel?: ((http: HttpClient, id: string, req: Checked<RequestOptions>) => Promise<unknown>) | undefined;
  /** A crawl's or batch scrape's pages: its documents so far (for a `BudgetExceededError`), and its counters (for the stall rule). */
  readonly paged?: { readonly kind: JobKind; readonly apiVersion: ApiVersion } | undefined;
}

/** A crawl or a batch scrape (v2, or v1's through `webdata/v1`): its status and documents through the page walk. */
export function pagedJob(kind: JobKind, apiVersion: ApiVersion = "v2"): JobRecipe<JobStatus<Document>> {
  return {
    kind,
    op: kind === "crawl" ? "crawl.start" : "batchScrape.start",
    wait: (http, id, w, req) => waitForJob<Document>(http, kind, id, { ...w, apiVersion }, req),
    cancel: (http, id, req) => cancelJob(http, kind, id, req, apiVersion),
    paged: { kind, apiVersion },
  };
}

/** A job whose status reads `processing` until it ends (extract, agent, v1's generation jobs), read with `status`. */
export function taskJob<S extends TaskStatus>(
  kind: JobHookKind,
  op: OperationName,
  status: (http: HttpClient, id: string, req: Checked<RequestOptions>) => Promise<S>,
  cancel?: (http: HttpClient, id: string, req: Checked<RequestOptions>) => Promise<unknown>,
): JobRecipe<S> {
  return { kind, op, cancel, wait: (http, id, w, req) => waitForTask(id, (s) => status(http, id, withSignal(req, s)), w) };
}

const CRAWL = pagedJob("crawl");
const BATCH = pagedJob("batch");
const EXTRACT = taskJob<ExtractStatus>("extract", "extract.start", getExtractStatus);
const AGENT = taskJob<AgentStatus>("agent", "agent.start", getAgentStatus, cancelAgent);

/** How a started job is waited on: the wait options, the call's own budget, the start's arguments (the budget's stated maximum), when it started, the checked request options. */
export interface JobWait {
  readonly wait: JobWaitOptions;
  readonly budget?: Budget | undefined;
  readonly args: readonly unknown[];
  readonly startedAt: number;
  readonly req: Checked<RequestOptions>;
}

/**
 * budget -> observe -> poll: waits for the started job `id` by its recipe, under the caller's deadline (counted
 * from the start: {@link withinDeadline}), with the `onJob` hooks told of it ({@link observeJob}) and the steps
 * after each status read ({@link afterEachRead}). Returns the finished status; the caller finishes.
 */
export function awaitJob<S extends ReadStatus>(http: HttpClient, recipe: JobRecipe<S>, id: string, job: JobWait): Promise<S> {
  const { wait, startedAt, req } = job;
  const signal = wait.signal ?? req.signal;
  const afterRead = afterEachRead(http, recipe, id, job);
  return observeJob(http, req, recipe.kind, id, () => withinDeadline(wait, startedAt, (w) => recipe.wait(http, id, { ...w, signal, startedAt, afterRead }, req)));
}

/**
 * The steps after each status read of a waited job, in order: the budget stage's check (`Governance.watchJob`: past the
 * budget, the job is cancelled and the wait ends with `BudgetExceededError`), the caller's `onStatus`, then the stall
 * rule (`stallTimeoutMs`: the `team` plugin's one rule, read at each poll as the documents iterators read it at each
 * page). Undefined when there are none.
 */
function afterEachRead<S extends ReadStatus>(http: HttpClient, recipe: JobRecipe<S>, id: string, job: JobWait): WaitForJobOptions["afterRead"] {
  const { wait, req } = job;
  const paged = recipe.paged;
  const cancel = recipe.cancel;
  const budget = http.state.governance?.watchJob({
    op: recipe.op,
    args: job.args,
    id,
    budget: job.budget,
    cancel: cancel && ((s) => cancel(http, id, withSignal(req, s))),
    documents: paged && ((s) => documentsNow(http, paged.kind, id, withSignal(req, s), paged.apiVersion)),
  });
  const stall = paged && stallOf(http, wait, "wait options")?.check(stalledJob(http, paged.kind, id, paged.apiVersion, req), wait);
  const onStatus = wait.onStatus;
  if (!budget && !stall && !onStatus) return undefined;
  return async (s, signal) => {
    await budget?.(s, signal);
    onStatus?.({ ...counts(s), id, status: s.status });
    await stall?.({ status: s.status, completed: s.completed ?? 0, total: s.total ?? 0, data: [] }); // a poll's page is not the documents
  };
}

/** A public waiter's options, checked once each: its wait options, its request options, the official keys it refuses; the waiter's own split from those sent. */
interface Prepared<O> {
  readonly wait: JobWaitOptions;
  readonly rest: Omit<O, keyof JobWaitOptions>;
  readonly budget: Budget | undefined;
  readonly checked: Checked<RequestOptions>;
}

/**
 * Checks a public waiter's options once each, and splits the waiter's own (its `budget` among them: none is sent). A
 * `budget` or `stallTimeoutMs` needs a plugin (`webdata/team`): without it, a `ValidationError` before anything is sent.
 */
function prepare<O extends JobWaitOptions>(http: HttpClient, call: OfficialCall, context: string, options: O | undefined, req: RequestOptions | undefined): Prepared<O> {
  const opts = checkWaitOptions<O>(options, context);
  const checked = checkRequestOptions(req);
  rejectOfficialKeys(call, opts, context);
  const { pollIntervalMs, timeoutMs, signal, stallTimeoutMs, cancelOnStall, budget, onStatus, ...rest } = opts;
  stallOf(http, opts, "wait options");
  if (budget && !http.state.governance) throw pluginMissing("team", "budget", "wait options");
  return { wait: { pollIntervalMs, timeoutMs, signal, stallTimeoutMs, cancelOnStall, onStatus }, rest, budget, checked };
}

/** start -> {@link awaitJob}: starts the job under the budget (the call's own reaches the stage on its request options), then waits for it. */
async function runJob<St extends { id: string }, S extends ReadStatus>(
  http: HttpClient,
  recipe: JobRecipe<S>,
  p: Prepared<object>,
  args: readonly unknown[],
  start: (req: Checked<RequestOptions>) => Promise<St>,
): Promise<{ started: St; done: S }> {
  const startedAt = Date.now();
  const started = await start(withBudget(withSignal(p.checked, p.wait.signal ?? p.checked.signal), p.budget));
  const done = await awaitJob(http, recipe, started.id, { wait: p.wait, budget: p.budget, args, startedAt, req: p.checked });
  return { started, done };
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

/**
 * Runs one job's wait and tells the `onJob` hooks (the client's, then the call's) of its start and its
 * end: one `start` and one `end` event per waited job, with the final status, pages and credits (or the
 * error the wait ends with). Without an `onJob` hook it is the wait alone: no event is built. A hook
 * that throws fails the waiter with `HookError` (an `end` hook's throw does not hide the wait's own error), and
 * nothing more is waited for.
 */
async function observeJob<S extends ReadStatus>(http: HttpClient, req: Checked<RequestOptions>, kind: JobHookKind, jobId: string, wait: () => Promise<S>): Promise<S> {
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
    const last = err instanceof JobTimeoutError ? (err.lastStatus as Partial<ReadStatus> | undefined) : undefined;
    const status = err instanceof JobFailedError ? err.status : last?.status;
    await emit({ phase: "end", kind, jobId, ...counts(last), status, durationMs: Date.now() - t0, error: err instanceof Error ? err : new Error(String(err)) }).catch(() => undefined);
    throw err;
  }
  await emit({ phase: "end", kind, jobId, ...counts(done), status: done.status, durationMs: Date.now() - t0 });
  return done;
}

/** The pages and credits of a status, those it has (a credit count of -1, "unknown", is left out). */
function counts(s: Partial<ReadStatus> | undefined): Pick<JobHookEvent, "completed" | "total" | "creditsUsed"> {
  if (!s) return {};
  const out: Pick<JobHookEvent, "completed" | "total" | "creditsUsed"> = {};
  if (typeof s.completed === "number") out.completed = s.completed;
  if (typeof s.total === "number") out.total = s.total;
  if (typeof s.creditsUsed === "number" && s.creditsUsed >= 0) out.creditsUsed = s.creditsUsed;
  return out;
}

/** The documents a crawl or batch scrape has now (the pages that exist, read once through the walk), for a `BudgetExceededError`. */
async function documentsNow(http: HttpClient, kind: JobKind, id: string, req: Checked<RequestOptions>, apiVersion: ApiVersion): Promise<unknown[]> {
  const docs: unknown[] = [];
  for await (const page of pagesOf(http, kind, id, NO_OPTIONS as Checked<JobDocumentsOptions>, req, apiVersion, true)) docs.push(...page.data);
  return docs;
}

/**
 * Starts a crawl and waits for it; returns the job with every document. A json
 * format in `scrapeOptions.formats` with `validate: true` parses every document's
 * `json` (`ResultValidationError` naming the document's URL and the path).
 */
export async function crawlAndWait<O extends CrawlOptions & JobWaitOptions>(http: HttpClient, url: string, options?: O, req?: RequestOptions): Promise<JobStatus<CrawlDocument<O>>> {
  const p = prepare<CrawlOptions & JobWaitOptions>(http, "crawl", "crawl options", options, req);
  const { done } = await runJob(http, CRAWL, p, [url, p.rest], (r) => startCrawlWith(http, url, p.rest, r));
  return { ...done, data: (await validateDocuments(p.rest.scrapeOptions?.formats, done.data)) as CrawlDocument<O>[] };
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
  const p = prepare<BatchScrapeOptions & JobWaitOptions>(http, "batchScrape", "batch scrape options", options, req);
  const { started, done } = await runJob(http, BATCH, p, [urls, p.rest], (r) => startBatchScrapeWith(http, urls, p.rest, r));
  const data = (await validateDocuments(p.rest.formats, done.data)) as ScrapeResult<O>[];
  // Every input has an outcome (`byUrl`, with the team plugin): `/errors` is read only when an input has no document.
  const byUrl = await outcomeReader(http)?.read(http, started.id, urls, data, started.invalidURLs, withSignal(p.checked, p.wait.signal ?? p.checked.signal));
  return withByUrl(started.invalidURLs ? { ...done, data, invalidURLs: started.invalidURLs } : { ...done, data }, byUrl);
}

/** Starts an extraction and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function extractAndWait<T = unknown>(http: HttpClient, options: ExtractOptions & WaitOptions & ValidateOption, req?: RequestOptions): Promise<ExtractStatus<T>> {
  const p = prepare<ExtractOptions & JobWaitOptions & ValidateOption>(http, "extract", "extract options", options, req);
  const { validate, ...rest } = p.rest;
  const schema = resultSchema(rest.schema, validate, "validate", "extract options");
  const { started, done } = await runJob(http, EXTRACT, p, [rest], (r) => startExtractWith(http, rest, r));
  return (schema ? { ...done, data: await validateResult(schema, done.data, `data of extract ${started.id}`) } : done) as ExtractStatus<T>;
}

/** Starts an agent and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function agentAndWait<T = unknown>(http: HttpClient, prompt: string, options: AgentOptions & WaitOptions & ValidateOption = {}, req?: RequestOptions): Promise<AgentStatus<T>> {
  const p = prepare<AgentOptions & JobWaitOptions & ValidateOption>(http, "agent", "agent options", options, req);
  const { validate, ...rest } = p.rest;
  const schema = resultSchema(rest.schema, validate, "validate", "agent options");
  const { started, done } = await runJob(http, AGENT, p, [prompt, rest], (r) => startAgentWith(http, prompt, rest, r));
  return (schema ? { ...done, data: await validateResult(schema, done.data, `data of agent ${started.id}`) } : done) as AgentStatus<T>;
}
