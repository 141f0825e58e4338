/**
 * The v1-only generation jobs (reference §15.7): LLMs.txt (`/v1/llmstxt`) and
 * deep research (`/v1/deep-research`). Starts, status reads as sent, and the
 * waiters: the shared task waiting of `jobs/polling.ts`.
 */
import { TASK_START, taskStatus } from "../api/extract.js";
import { send, type Endpoint } from "../api/endpoint.js";
import type { SchemaInput } from "../api/schema.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int } from "../core/validate.js";
import { V1_TASK_POLL_MS } from "../jobs/pages.js";
import type { TaskStatus } from "../jobs/polling.js";
import { awaitJob, taskJob, type JobRecipe } from "../jobs/waiters.js";
import { checkRequestOptions, withSignal, type Checked } from "../core/options.js";
import { type V1JsonOptions, v1ScrapeWire } from "./scrape-options.js";
import { v1Record, type V1Any, type V1SchemaResult } from "./shapes.js";

/** Options of `generateLLMsText` (server defaults in brackets). */
export interface V1GenerateLLMsTextParams {
  /** Pages to read, 1..5000 [10]. */
  maxUrls?: number;
  /** Also build llms-full.txt [false]. */
  showFullText?: boolean;
  /** Use cached results [true]. */
  cache?: boolean;
  __experimental_stream?: boolean;
}

/** Status of an LLMs.txt job, as sent. */
export interface V1GenerateLLMsTextStatusResponse {
  /** False for a failed job. */
  success: boolean;
  /** `llmstxt` and (with `showFullText`) `llmsfulltxt`. */
  data: { llmstxt: string; llmsfulltxt?: string };
  status: "processing" | "completed" | "failed";
  error?: string;
  /** When the result is dropped (ISO 8601). */
  expiresAt: string;
}

/** One activity of a deep-research job. */
export interface V1ResearchActivity {
  /** Kind of step. */
  type: string;
  /** Step status. */
  status: string;
  /** What happened. */
  message: string;
  /** ISO 8601 time. */
  timestamp: string;
  /** Research depth of the step. */
  depth: number;
}

/** One source of a deep-research job. */
export interface V1ResearchSource {
  url: string;
  title?: string;
  description?: string;
  /** Favicon. */
  icon?: string;
}

/** Options of `deepResearch` (server defaults in brackets). `S`, the `jsonOptions` schema's type, types `data.json`. */
export interface V1DeepResearchParams<S extends SchemaInput = SchemaInput> {
  /** Research depth, 1..12 [7]. */
  maxDepth?: number;
  /** Time limit, SECONDS (the server's unit), 30..600 [300]. */
  timeLimit?: number;
  /** Pages to read, 1..1000 [20]. */
  maxUrls?: number;
  /** Prompt of the final analysis. */
  analysisPrompt?: string;
  /** System prompt of the research agent. */
  systemPrompt?: string;
  /** Outputs [["markdown"]]; `json` needs `jsonOptions`. */
  formats?: ("markdown" | "json")[];
  /** Options of the `json` output (`schema`: zod, Standard Schema or plain JSON Schema, converted on the wire). */
  jsonOptions?: V1JsonOptions<S>;
}

/** Status of a deep-research job, as sent. `T` types `data.json` ({@link V1Any} unless a schema names it). */
export interface V1DeepResearchStatusResponse<T = V1Any> extends Omit<V1GenerateLLMsTextStatusResponse, "data"> {
  /** `finalAnalysis`, `sources`, `activities` and (json format) `json`. */
  data: { finalAnalysis?: string; activities?: V1ResearchActivity[]; sources?: V1ResearchSource[]; json?: T };
  /** Depth reached. */
  currentDepth: number;
  maxDepth: number;
  /** Activities so far. */
  activities: V1ResearchActivity[];
  /** Sources so far. */
  sources: V1ResearchSource[];
  /** Summaries (older servers). */
  summaries?: string[];
}

/** A v1 job start answer: `{ success: true, id }`. */
export interface V1TaskStartResponse {
  /** Always true (HTTP failures throw). */
  success: true;
  /** The job id. */
  id: string;
}

const llmsBody = z.looseObject({ url: httpUrl, maxUrls: z.optional(int(1, 5000)), showFullText: z.optional(z.boolean()), cache: z.optional(z.boolean()) });
const researchBody = z
  .looseObject({
    query: z.string().check(z.minLength(1, "must be a non-empty research query")),
    maxDepth: z.optional(int(1, 12)),
    maxUrls: z.optional(int(1, 1000)),
    timeLimit: z.optional(int(30, 600)),
    analysisPrompt: z.optional(z.string()),
    systemPrompt: z.optional(z.string()),
    formats: z.optional(z.array(z.enum(["markdown", "json"]))),
    jsonOptions: z.optional(z.looseObject({ schema: z.optional(z.record(z.string(), z.unknown())) })),
  })
  .check(z.refine((o) => (o.formats ?? []).includes("json") === (o.jsonOptions !== undefined), { message: "the json format and jsonOptions must be given together", path: ["jsonOptions"] }));

/** `POST /v1/llmstxt`. */
const V1_LLMSTXT: Endpoint<[string, V1GenerateLLMsTextParams], V1TaskStartResponse> = { op: "llmsText.start",
  path: "/v1/llmstxt",
  body: (url, params) => check(llmsBody, { url, ...params }, "generateLLMsText params"),
  ...TASK_START,
  map: v1Record,
};

/** `POST /v1/deep-research`: the `jsonOptions` schema converted. */
const V1_RESEARCH: Endpoint<[string, V1DeepResearchParams], V1TaskStartResponse> = { op: "deepResearch.start",
  path: "/v1/deep-research",
  body: (query, params) => check(researchBody, v1ScrapeWire({ query, ...params } as Record<string, unknown>), "deepResearch params"),
  ...TASK_START,
  map: v1Record,
};

/** `GET /v1/llmstxt/<id>` and `GET /v1/deep-research/<id>`: the status as sent. */
const V1_LLMSTXT_STATUS = taskStatus("llmsText.status", "/v1/llmstxt");
const V1_RESEARCH_STATUS = taskStatus("deepResearch.status", "/v1/deep-research");

/** `POST /v1/llmstxt`. */
export function asyncGenerateLLMsText(http: HttpClient, url: string, params: V1GenerateLLMsTextParams = {}, req?: RequestOptions): APIPromise<V1TaskStartResponse> {
  return send(http, V1_LLMSTXT, req, url, params);
}

/** `GET /v1/llmstxt/<id>`, as sent (404 -> `NotFoundError`). */
export function checkGenerateLLMsTextStatus(http: HttpClient, id: string, req?: RequestOptions): APIPromise<V1GenerateLLMsTextStatusResponse> {
  return send(http, V1_LLMSTXT_STATUS, req, id) as APIPromise<V1GenerateLLMsTextStatusResponse>;
}

/** `POST /v1/deep-research`. */
export function asyncDeepResearch(http: HttpClient, query: string, params: V1DeepResearchParams = {}, req?: RequestOptions): APIPromise<V1TaskStartResponse> {
  return send(http, V1_RESEARCH, req, query, params);
}

/** `GET /v1/deep-research/<id>`, as sent (404 -> `NotFoundError`). */
export function checkDeepResearchStatus<T = V1Any>(http: HttpClient, id: string, req?: RequestOptions): APIPromise<V1DeepResearchStatusResponse<T>> {
  return send(http, V1_RESEARCH_STATUS, req, id) as APIPromise<V1DeepResearchStatusResponse<T>>;
}

/** Waits for a started generation job by the one job recipe (`jobs/waiters.ts`), at the v1 interval. */
function waitV1Task<S extends TaskStatus>(http: HttpClient, recipe: JobRecipe<S>, id: string, args: unknown[], req: Checked<RequestOptions>): Promise<S> {
  return awaitJob(http, recipe, id, { wait: { pollIntervalMs: V1_TASK_POLL_MS, signal: req.signal }, args, startedAt: Date.now(), req });
}

/** An LLMs.txt generation job, as the waiters run it. */
const LLMS_TEXT_JOB = taskJob("llmsText", "llmsText.start", (http, id, req) => checkGenerateLLMsTextStatus(http, id, req));

/** Generates LLMs.txt and waits: `generateLLMsText`. */
export async function generateLLMsText(http: HttpClient, url: string, params?: V1GenerateLLMsTextParams, req?: RequestOptions): Promise<V1GenerateLLMsTextStatusResponse> {
  const checked = checkRequestOptions(req); // once: the start and every poll take them checked
  const { id } = await asyncGenerateLLMsText(http, url, params, checked);
  return waitV1Task(http, LLMS_TEXT_JOB, id, [url, params], checked);
}

/** Runs deep research and waits, reporting each new activity and source once: `deepResearch`. */
export async function deepResearch<S extends SchemaInput = SchemaInput>(
  http: HttpClient,
  query: string,
  params: V1DeepResearchParams<S> = {},
  onActivity?: (activity: V1ResearchActivity) => void,
  onSource?: (source: V1ResearchSource) => void,
  req?: RequestOptions,
): Promise<V1DeepResearchStatusResponse<V1SchemaResult<S>>> {
  const checked = checkRequestOptions(req); // once: the start and every poll take them checked
  const { id } = await asyncDeepResearch(http, query, params, checked);
  let activities = 0;
  let sources = 0;
  const report = (s: V1DeepResearchStatusResponse<V1SchemaResult<S>>): void => {
    for (const a of (s.activities ?? []).slice(activities)) onActivity?.(a);
    for (const src of (s.sources ?? []).slice(sources)) onSource?.(src);
    activities = Math.max(activities, s.activities?.length ?? 0);
    sources = Math.max(sources, s.sources?.length ?? 0);
  };
  const job = taskJob("deepResearch", "deepResearch.start", (h, i, r) => checkDeepResearchStatus<V1SchemaResult<S>>(h, i, r).then((st) => (report(st), st)));
  return waitV1Task(http, job, id, [query, params], checked);
}
