/**
 * The waiters: start a job, wait for it with the one poll loop, return the
 * finished job. Crawl and batch scrape share `waitForJob`; extract and agent
 * share `pollUntil` with {@link waitForExtractLike}.
 */
import { getAgentStatus, startAgent, type AgentOptions, type AgentStatus } from "../api/agent.js";
import { startBatchScrape, type BatchScrapeOptions } from "../api/batch.js";
import { startCrawl, type CrawlDocument, type CrawlOptions } from "../api/crawl.js";
import type { Document } from "../api/document.js";
import { getExtractStatus, startExtract, type ExtractOptions, type ExtractStatus } from "../api/extract.js";
import { rejectOfficialKeys } from "../api/official-keys.js";
import { flattenBatchOptions, withSuccess } from "../api/official-shapes.js";
import { resultSchema, validateDocuments, validateResult } from "../api/schema.js";
import type { ScrapeResult } from "../api/scrape.js";
import { JobFailedError, JobTimeoutError } from "../core/errors.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import type { JobStatus, WaitOptions } from "./types.js";
import { pollUntil, waitForJob } from "./wait.js";

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
async function withinDeadline<T>(wait: WaitOptions, startedAt: number, run: (w: WaitOptions) => Promise<T>): Promise<T> {
  if (wait.timeoutMs === undefined) return run(wait);
  try {
    return await run({ ...wait, timeoutMs: Math.max(0, wait.timeoutMs - (Date.now() - startedAt)) });
  } catch (err) {
    if (err instanceof JobTimeoutError) throw new JobTimeoutError(err.jobId, wait.timeoutMs, err.lastStatus);
    throw err;
  }
}

/** Splits waiter options from the options sent to the server. */
function split<O extends WaitOptions>(opts: O): { wait: WaitOptions; rest: Omit<O, keyof WaitOptions> } {
  const { pollIntervalMs, timeoutMs, signal, ...rest } = opts;
  return { wait: { pollIntervalMs, timeoutMs, signal }, rest };
}

/**
 * Starts a crawl and waits for it; returns the job with every document. A json
 * format in `scrapeOptions.formats` with `validate: true` parses every document's
 * `json` (`ResultValidationError` naming the document's URL and the path).
 */
export async function crawlAndWait<O extends CrawlOptions & WaitOptions>(http: HttpClient, url: string, options?: O, req?: RequestOptions): Promise<JobStatus<CrawlDocument<O>>> {
  rejectOfficialKeys("crawl", options, "crawl options");
  const { wait, rest } = split<CrawlOptions & WaitOptions>(options ?? {});
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const { id } = await startCrawl(http, url, rest, { ...req, signal });
  const job = await withinDeadline(wait, startedAt, (w) => waitForJob<Document>(http, "crawl", id, { ...w, signal, startedAt }, req));
  return { ...job, data: (await validateDocuments(rest.scrapeOptions?.formats, job.data)) as CrawlDocument<O>[] };
}

/**
 * Starts a batch scrape and waits for it; returns the job with every document. A
 * json format with `validate: true` parses every document's `json`, as in {@link crawlAndWait}.
 */
export async function batchScrapeAndWait<O extends BatchScrapeOptions & WaitOptions>(
  http: HttpClient,
  urls: string[],
  options?: O,
  req?: RequestOptions,
): Promise<JobStatus<ScrapeResult<O>> & { invalidURLs?: string[] }> {
  rejectOfficialKeys("batchScrape", options, "batch scrape options");
  const { wait, rest } = split<BatchScrapeOptions & WaitOptions>(flattenBatchOptions(options ?? {}));
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const started = await startBatchScrape(http, urls, rest, { ...req, signal });
  const job = await withinDeadline(wait, startedAt, (w) => waitForJob<Document>(http, "batch", started.id, { ...w, signal, startedAt }, req));
  const data = (await validateDocuments(rest.formats, job.data)) as ScrapeResult<O>[];
  return started.invalidURLs ? { ...job, data, invalidURLs: started.invalidURLs } : { ...job, data };
}

type ExtractLike = { id: string; status: string; error?: string | undefined };

/** Waits for an extract or agent job: `processing` until `completed`; `failed`/`cancelled` throw `JobFailedError`. */
export function waitForExtractLike<S extends ExtractLike>(id: string, read: (signal: AbortSignal) => Promise<S>, wait: WaitOptions, startedAt?: number): Promise<S> {
  return pollUntil<S>(
    {
      jobId: id,
      startedAt,
      poll: read,
      isDone: (s) => s.status === "completed" || s.status === "failed" || s.status === "cancelled",
      failure: (s) => (s.status === "completed" ? undefined : new JobFailedError(id, s.status, s.error)),
    },
    wait,
  );
}

/** Starts an extraction and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function extractAndWait<T = unknown>(http: HttpClient, options: ExtractOptions & WaitOptions & ValidateOption, req?: RequestOptions): Promise<ExtractStatus<T>> {
  rejectOfficialKeys("extract", options, "extract options");
  const { wait, rest: { validate, ...rest } } = split(options);
  const schema = resultSchema(rest.schema, validate, "validate", "extract options");
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const { id } = await startExtract(http, rest, { ...req, signal });
  const done = await withinDeadline(wait, startedAt, (w) => waitForExtractLike(id, (s) => getExtractStatus<T>(http, id, { ...req, signal: s }), { ...w, signal }, startedAt));
  return schema ? withSuccess({ ...done, data: (await validateResult(schema, done.data, `data of extract ${id}`)) as T }) : done;
}

/** Starts an agent and waits for its result; with `validate: true`, `data` is parsed with `schema`. */
export async function agentAndWait<T = unknown>(http: HttpClient, prompt: string, options: AgentOptions & WaitOptions & ValidateOption = {}, req?: RequestOptions): Promise<AgentStatus<T>> {
  rejectOfficialKeys("agent", options, "agent options");
  const { wait, rest: { validate, ...rest } } = split(options);
  const schema = resultSchema(rest.schema, validate, "validate", "agent options");
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const { id } = await startAgent(http, prompt, rest, { ...req, signal });
  const done = await withinDeadline(wait, startedAt, (w) => waitForExtractLike(id, (s) => getAgentStatus<T>(http, id, { ...req, signal: s }), { ...w, signal }, startedAt));
  return schema ? withSuccess({ ...done, data: (await validateResult(schema, done.data, `data of agent ${id}`)) as T }) : done;
}
