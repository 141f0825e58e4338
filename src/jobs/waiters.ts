/**
 * The public waiters (`crawl`, `batchScrape`, `extract`, `agent`): start a
 * job, wait for it with the poll loop of `polling.ts`, return the finished
 * job. Crawl and batch scrape wait with `waitForJob`; extract and agent with
 * `waitForTask`.
 */
import { getAgentStatus, startAgentWith, type AgentOptions, type AgentStatus } from "../api/agent.js";
import { startBatchScrapeWith, type BatchScrapeOptions } from "../api/batch.js";
import { startCrawlWith, type CrawlDocument, type CrawlOptions } from "../api/crawl.js";
import type { Document } from "../api/document.js";
import { getExtractStatus, startExtractWith, type ExtractOptions, type ExtractStatus } from "../api/extract.js";
import { rejectOfficialKeys } from "../api/official-keys.js";
import { resultSchema, validateDocuments, validateResult } from "../api/schema.js";
import type { ScrapeResult } from "../api/scrape.js";
import { JobFailedError, JobTimeoutError } from "../core/errors.js";
import { checkRequestOptions, checkWaitOptions, withSignal } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import type { JobStatus, JobWaitOptions, WaitOptions } from "./types.js";
import { waitForJob, waitForTask } from "./polling.js";
import { readOutcomes, withByUrl, type BatchFailure } from "./batch-outcomes.js";

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
    if (err instanceof JobTimeoutError) throw new JobTimeoutError(err.jobId, wait.timeoutMs, err.lastStatus);
    throw err;
  }
}

/** Splits waiter options from the options sent to the server. */
function split<O extends JobWaitOptions>(opts: O): { wait: JobWaitOptions; rest: Omit<O, keyof JobWaitOptions> } {
  // The stall options (issue 35) are the waiter's, never sent (extract and agent have no counters: they ignore them).
  const { pollIntervalMs, timeoutMs, signal, stallTimeoutMs, cancelOnStall, ...rest } = opts;
  return { wait: { pollIntervalMs, timeoutMs, signal, stallTimeoutMs, cancelOnStall }, rest };
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
  const { wait, rest } = split<CrawlOptions & JobWaitOptions>(opts);
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const { id } = await startCrawlWith(http, url, rest, withSignal(checked, signal));
  const job = await withinDeadline(wait, startedAt, (w) => waitForJob<Document>(http, "crawl", id, { ...w, signal, startedAt }, checked));
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
): Promise<JobStatus<ScrapeResult<O>> & { invalidURLs?: string[]; readonly byUrl: Map<string, ScrapeResult<O> | BatchFailure> }> {
  const opts = checkWaitOptions<BatchScrapeOptions & JobWaitOptions>(options, "batch scrape options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("batchScrape", opts, "batch scrape options");
  const { wait, rest } = split<BatchScrapeOptions & JobWaitOptions>(opts);
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const started = await startBatchScrapeWith(http, urls, rest, withSignal(checked, signal));
  const job = await withinDeadline(wait, startedAt, (w) => waitForJob<Document>(http, "batch", started.id, { ...w, signal, startedAt }, checked));
  const data = (await validateDocuments(rest.formats, job.data)) as ScrapeResult<O>[];
  // Every input has an outcome (issue 35): `/errors` is read only when an input has no document.
  const byUrl = await readOutcomes(http, started.id, urls, data, started.invalidURLs, withSignal(checked, signal));
  return withByUrl(started.invalidURLs ? { ...job, data, invalidURLs: started.invalidURLs } : { ...job, data }, byUrl);
}

/** Starts an extraction and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function extractAndWait<T = unknown>(http: HttpClient, options: ExtractOptions & WaitOptions & ValidateOption, req?: RequestOptions): Promise<ExtractStatus<T>> {
  const opts = checkWaitOptions<ExtractOptions & WaitOptions & ValidateOption>(options, "extract options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("extract", opts, "extract options");
  const { wait, rest: { validate, ...rest } } = split(opts);
  const schema = resultSchema(rest.schema, validate, "validate", "extract options");
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const { id } = await startExtractWith(http, rest, withSignal(checked, signal));
  const done = await withinDeadline(wait, startedAt, (w) => waitForTask(id, (s) => getExtractStatus<T>(http, id, withSignal(checked, s)), { ...w, signal }, startedAt));
  return schema ? { ...done, data: (await validateResult(schema, done.data, `data of extract ${id}`)) as T } : done;
}

/** Starts an agent and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function agentAndWait<T = unknown>(http: HttpClient, prompt: string, options: AgentOptions & WaitOptions & ValidateOption = {}, req?: RequestOptions): Promise<AgentStatus<T>> {
  const opts = checkWaitOptions<AgentOptions & WaitOptions & ValidateOption>(options, "agent options");
  const checked = checkRequestOptions(req);
  rejectOfficialKeys("agent", opts, "agent options");
  const { wait, rest: { validate, ...rest } } = split(opts);
  const schema = resultSchema(rest.schema, validate, "validate", "agent options");
  const signal = wait.signal ?? checked.signal;
  const startedAt = Date.now();
  const { id } = await startAgentWith(http, prompt, rest, withSignal(checked, signal));
  const done = await withinDeadline(wait, startedAt, (w) => waitForTask(id, (s) => getAgentStatus<T>(http, id, withSignal(checked, s)), { ...w, signal }, startedAt));
  return schema ? { ...done, data: (await validateResult(schema, done.data, `data of agent ${id}`)) as T } : done;
}
