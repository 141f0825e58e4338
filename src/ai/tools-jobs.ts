/**
 * The job tools: crawl (start, status, a bounded wait, cancel), batch scrape
 * (start and a bounded wait, status), extract and agent (start and a bounded
 * wait, status; agent cancel). A wait that ends first answers with the job as
 * it stands and its id, never an error: the model reads on with the status tool.
 */
import * as z from "zod/v4/mini";
import { crawlBody } from "../api/crawl.js";
import { extractBody } from "../api/extract.js";
import { OPERATIONS } from "../api/operations.js";
import type { WebData } from "../client.js";
import { JobFailedError, JobTimeoutError } from "../core/errors.js";
import { httpUrl, int } from "../core/validate.js";
import { waitForJob, waitForTask } from "../jobs/polling.js";
import { jobPages } from "../jobs/pages.js";
import type { JobStatus } from "../jobs/types.js";
import type { Document } from "../api/document.js";
import type { ToolName } from "./names.js";
import { jobReply, taskReply } from "./render.js";
import { DEFAULT_MAX_CRAWL_LIMIT, pick, requireAllowed, waitMs, withFixedScrape, type RunContext, type ToolSpec } from "./spec.js";
import { toolFormats } from "./tools-read.js";

const jobId = z.string().check(z.minLength(1));
const { prompt: PROMPT } = OPERATIONS.agent.limits;
const waitSeconds = z.optional(z.number().check(z.positive()));
const WAIT_TEXT = "Longest wait, seconds (capped by the application).";
const jsonSchemaArg = z.optional(z.record(z.string(), z.unknown()));

/** Status reads a job's pages take at most (each up to 100 documents). */
const MAX_STATUS_PAGES = 20;

/**
 * A crawl or batch scrape as it stands: its counters and the documents so far, through the one page walk
 * (`jobs/pages.ts`, as the drop-in entry's auto-paginated status read: to the last page that exists now,
 * without waiting, with its loop rules and each document once), at most {@link MAX_STATUS_PAGES} pages.
 */
async function currentJob(client: WebData, kind: "crawl" | "batch", id: string, signal: AbortSignal | undefined): Promise<JobStatus> {
  let first: JobStatus | undefined;
  const data: Document[] = [];
  let pages = 0;
  for await (const page of jobPages<Document>(client.http, kind, id, { signal }, { signal }, "v2", true)) {
    first ??= page;
    data.push(...page.data);
    if (++pages >= MAX_STATUS_PAGES) break;
  }
  // The walk yields at least its first page or throws.
  return { ...(first as JobStatus), data };
}

/** Waits for a crawl or batch scrape up to `timeoutMs`; one still running (or failed) then is returned as it stands. */
async function waitOrCurrent(client: WebData, kind: "crawl" | "batch", id: string, timeoutMs: number, ctx: RunContext): Promise<JobStatus> {
  if (timeoutMs <= 0) return currentJob(client, kind, id, ctx.signal);
  try {
    return await waitForJob(client.http, kind, id, { timeoutMs, pollIntervalMs: ctx.pollIntervalMs, signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof JobTimeoutError || err instanceof JobFailedError)) throw err;
    return currentJob(client, kind, id, ctx.signal);
  }
}

/** An extract or agent job as {@link taskReply} shows it. */
type TaskState = Parameters<typeof taskReply>[1];

/** Waits for an extract or agent job up to `timeoutMs`; one still running (or failed) is returned as it stands. */
async function waitTask(read: (signal?: AbortSignal) => Promise<TaskState>, id: string, timeoutMs: number, ctx: RunContext): Promise<TaskState> {
  if (timeoutMs <= 0) return read(ctx.signal);
  try {
    return await waitForTask(id, (s) => read(s), { timeoutMs, pollIntervalMs: ctx.pollIntervalMs, signal: ctx.signal });
  } catch (err) {
    if (err instanceof JobTimeoutError || err instanceof JobFailedError) return read(ctx.signal);
    throw err;
  }
}

/** The status tool of an extract or agent job: the job as it stands, or after a wait of `waitSeconds`. */
function taskStatusTool(kind: "extract" | "agent", read: (client: WebData, id: string, signal?: AbortSignal) => Promise<TaskState>): ToolSpec {
  return {
    schema: z.strictObject({ id: jobId, waitSeconds }),
    params: { id: `The ${kind} id.`, waitSeconds: `${WAIT_TEXT} Default: no wait.` },
    readable: true,
    async run(client, a, ctx) {
      const id = a.id as string;
      const ms = typeof a.waitSeconds === "number" ? waitMs(a, ctx) : 0;
      return taskReply(kind, await waitTask((signal) => read(client, id, signal), id, ms, ctx), `${kind}_status`);
    },
  };
}

const cancelled = (kind: string, id: string, ok: boolean) => (ok ? `${kind} ${id} cancelled` : `${kind} ${id}: the service did not confirm the cancel`);

/** The job tools, by name. */
export const JOB_TOOLS = {
  crawl_start: {
    schema: z.strictObject({ url: httpUrl, ...pick(crawlBody.shape, ["limit", "includePaths", "excludePaths", "maxDiscoveryDepth", "crawlEntireDomain", "allowSubdomains", "sitemap", "prompt"] as const) }),
    params: { url: "Where the crawl starts.", limit: "Most pages to crawl.", includePaths: "Only paths matching these regexes.", excludePaths: "Skip paths matching these regexes.", maxDiscoveryDepth: "How many links deep.", crawlEntireDomain: "Also follow sibling and parent paths.", allowSubdomains: "Also follow subdomains.", sitemap: 'Default "include".', prompt: "Crawl instructions in words." },
    adjust(props, fixed) {
      const max = fixed.maxCrawlLimit ?? DEFAULT_MAX_CRAWL_LIMIT;
      props.limit = { ...props.limit, maximum: max, description: `Most pages to crawl, at most ${max} (default ${max}).` };
    },
    async run(client, a, ctx) {
      requireAllowed([a.url as string], ctx.fixed);
      const { url, ...opts } = a;
      const max = ctx.fixed.maxCrawlLimit ?? DEFAULT_MAX_CRAWL_LIMIT;
      const limit = Math.min(typeof opts.limit === "number" ? opts.limit : max, max);
      const scrapeOptions = ctx.fixed.onlyMainContent === undefined ? undefined : { onlyMainContent: ctx.fixed.onlyMainContent };
      const job = await client.startCrawl(url as string, { ...opts, limit, ...(scrapeOptions ? { scrapeOptions } : {}) }, { signal: ctx.signal });
      const lowered = typeof opts.limit === "number" && opts.limit > max ? `, lowered from ${opts.limit}` : "";
      return `crawl started: id ${job.id} (at most ${limit} pages${lowered}). Call crawl_wait with this id to get the pages.`;
    },
  },
  crawl_status: {
    schema: z.strictObject({ id: jobId }),
    params: { id: "The crawl id (from crawl_start)." },
    readable: true,
    async run(client, a, ctx) {
      return jobReply("crawl", await currentJob(client, "crawl", a.id as string, ctx.signal), "crawl_status");
    },
  },
  crawl_wait: {
    schema: z.strictObject({ id: jobId, waitSeconds }),
    params: { id: "The crawl id (from crawl_start).", waitSeconds: WAIT_TEXT },
    readable: true,
    async run(client, a, ctx) {
      return jobReply("crawl", await waitOrCurrent(client, "crawl", a.id as string, waitMs(a, ctx), ctx), "crawl_status");
    },
  },
  crawl_cancel: {
    schema: z.strictObject({ id: jobId }),
    params: { id: "The crawl id." },
    async run(client, a, ctx) {
      return cancelled("crawl", a.id as string, await client.cancelCrawl(a.id as string, { signal: ctx.signal }));
    },
  },
  batch_scrape: {
    schema: z.strictObject({ urls: z.array(httpUrl).check(z.minLength(1)), formats: toolFormats, onlyMainContent: z.optional(z.boolean()) }),
    params: { urls: "The pages to read.", formats: 'Default ["markdown"].', onlyMainContent: "Drop headers, navigation and footers (default true)." },
    async run(client, a, ctx) {
      const { urls, ...opts } = a;
      requireAllowed(urls as string[], ctx.fixed);
      const job = await client.startBatchScrape(urls as string[], { ...withFixedScrape(opts, ctx.fixed), ignoreInvalidURLs: true }, { signal: ctx.signal });
      const reply = jobReply("batch", await waitOrCurrent(client, "batch", job.id, ctx.maxWaitMs, ctx), "batch_status");
      return job.invalidURLs?.length ? { ...reply, head: `${reply.head}; skipped invalid URLs: ${job.invalidURLs.join(", ")}` } : reply;
    },
  },
  batch_status: {
    schema: z.strictObject({ id: jobId, waitSeconds }),
    params: { id: "The batch id (from batch_scrape).", waitSeconds: `${WAIT_TEXT} Default: no wait.` },
    readable: true,
    async run(client, a, ctx) {
      const ms = typeof a.waitSeconds === "number" ? waitMs(a, ctx) : 0;
      return jobReply("batch", await waitOrCurrent(client, "batch", a.id as string, ms, ctx), "batch_status");
    },
  },
  extract: {
    schema: z.strictObject({ ...pick(extractBody.shape, ["urls", "prompt", "enableWebSearch"] as const), schema: jsonSchemaArg }),
    params: { urls: "Pages to read.", prompt: "What to extract.", schema: "JSON Schema of the result.", enableWebSearch: "Also search the web for sources." },
    async run(client, a, ctx) {
      if (Array.isArray(a.urls)) requireAllowed(a.urls as string[], ctx.fixed);
      const job = await client.startExtract(a, { signal: ctx.signal });
      const read = (signal?: AbortSignal) => client.getExtractStatus(job.id, { signal });
      return taskReply("extract", await waitTask(read, job.id, ctx.maxWaitMs, ctx), "extract_status");
    },
  },
  extract_status: taskStatusTool("extract", (client, id, signal) => client.getExtractStatus(id, { signal })),
  agent: {
    schema: z.strictObject({
      prompt: z.string().check(z.minLength(PROMPT.min), z.maxLength(PROMPT.max)),
      urls: z.optional(z.array(httpUrl)),
      schema: jsonSchemaArg,
      maxCredits: z.optional(int(1)),
      model: z.optional(z.enum(["spark-1-mini", "spark-1-pro"])),
    }),
    params: { prompt: "The task.", urls: "Pages to start from.", schema: "JSON Schema of the result.", maxCredits: "Credit budget.", model: 'Default "spark-1-pro"; "spark-1-mini" is cheaper.' },
    async run(client, a, ctx) {
      if (Array.isArray(a.urls)) requireAllowed(a.urls as string[], ctx.fixed);
      const { prompt, ...opts } = a;
      const job = await client.startAgent(prompt as string, opts, { signal: ctx.signal });
      const read = (signal?: AbortSignal) => client.getAgentStatus(job.id, { signal });
      return taskReply("agent", await waitTask(read, job.id, ctx.maxWaitMs, ctx), "agent_status");
    },
  },
  agent_status: taskStatusTool("agent", (client, id, signal) => client.getAgentStatus(id, { signal })),
  agent_cancel: {
    schema: z.strictObject({ id: jobId }),
    params: { id: "The agent id." },
    async run(client, a, ctx) {
      return cancelled("agent", a.id as string, await client.cancelAgent(a.id as string, { signal: ctx.signal }));
    },
  },
} satisfies Partial<Record<ToolName, ToolSpec>>;
