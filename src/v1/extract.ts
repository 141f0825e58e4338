/**
 * v1 extract: `POST /v1/extract`, `GET /v1/extract/<id>` (reference §8, v1
 * defaults), and the v1 `extract` waiter: the shared task waiting of
 * `jobs/polling.ts`, mapped to the v1 result shape.
 */
import { TASK_START, taskStatus, type ExtractOptions, type ExtractStartResult, type ExtractStatus } from "../api/extract.js";
import { send, type Endpoint } from "../api/endpoint.js";
import { wireSchema, type SchemaInput } from "../api/schema.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int } from "../core/validate.js";
import { checkRequestOptions, optionsArg, withIdempotencyKey, withSignal } from "../core/options.js";
import { V1_EXTRACT_POLL_MS } from "../jobs/pages.js";
import { awaitJob, taskJob, type JobRecipe } from "../jobs/waiters.js";
import { v1ScrapeOptionsSchema, v1ScrapeWire, type V1CrawlScrapeOptions, type V1JsonOptions } from "./scrape-options.js";
import type { V1TaskStartResponse } from "./research.js";
import { v1Record, type V1Any, type V1SchemaResult } from "./shapes.js";

/** Options of v1 `extract` / `asyncExtract` (v1 library `ExtractParams`): `urls` or `prompt` is required. `S`, the schema's type, types the `extract` result. */
export interface V1ExtractParams<S extends SchemaInput = SchemaInput>
  extends Pick<ExtractOptions, "systemPrompt" | "allowExternalLinks" | "enableWebSearch" | "includeSubdomains" | "origin" | "showSources">, Pick<V1JsonOptions<S>, "prompt" | "schema"> {
  /** Scrape options (v1 shapes). */
  scrapeOptions?: V1CrawlScrapeOptions;
  /** FIRE-1 agent. */
  agent?: { model?: string; sessionId?: string };
  /** Skip invalid URLs [false in v1]. */
  ignoreInvalidURLs?: boolean;
  /** Server-side timeout, ms [60000 in v1]. */
  timeout?: number;
}

/** Status of a v1 extract job, as the server sends it. `T` types `data` ({@link V1Any}, as in the v1 library, unless named). */
export interface V1ExtractStatusResponse<T = V1Any> extends Pick<ExtractStatus<T>, "data" | "status" | "error" | "expiresAt" | "sources"> {
  /** False once the job failed. */
  success: boolean;
  warning?: string;
  /** Other fields the server adds (`steps`, `llmUsage`, `tokensUsed`, ...). */
  [key: string]: unknown;
}

/** The v1 extract start answer: `{ success: true, id, urlTrace? }`. */
export interface V1ExtractStartResponse extends V1TaskStartResponse, Pick<ExtractStartResult, "urlTrace" | "invalidURLs"> {}

/** The v1 `extract` waiter's result: `{ success: true, data, warning?, error?, sources? }`. `T` types `data` ({@link V1Any} unless a schema names it). */
export interface V1ExtractResponse<T = V1Any> extends Pick<V1ExtractStatusResponse<T>, "warning" | "sources"> {
  /** Always true (failures throw `JobFailedError`). */
  success: true;
  data: T;
  /** Error text the server attached to a completed job. */
  error?: string;
}

const prompt = z.optional(z.string().check(z.maxLength(10000)));
const body = z
  .looseObject({
    urls: z.optional(z.array(httpUrl).check(z.maxLength(10, "at most 10 URLs are allowed per extract request"))),
    prompt,
    systemPrompt: prompt,
    schema: z.optional(z.record(z.string(), z.unknown())),
    allowExternalLinks: z.optional(z.boolean()),
    enableWebSearch: z.optional(z.boolean()),
    includeSubdomains: z.optional(z.boolean()),
    showSources: z.optional(z.boolean()),
    scrapeOptions: z.optional(v1ScrapeOptionsSchema),
    agent: z.optional(z.looseObject({ model: z.optional(z.string()) })),
    ignoreInvalidURLs: z.optional(z.boolean()),
    timeout: z.optional(int(1000)),
  })
  .check(
    z.refine((o) => (o.urls?.length ?? 0) > 0 || typeof o.prompt === "string", { message: "either urls or prompt must be provided", path: ["urls"] }),
  );

/** `POST /v1/extract`: the v1 options (v1 defaults), the schemas converted; its server-side `timeout` row says 60 s by default. */
const V1_EXTRACT: Endpoint<[string[] | undefined, V1ExtractParams], V1ExtractStartResponse> = { op: "extract.start",
  path: "/v1/extract",
  body: (urls, params) => {
    const p: V1ExtractParams = optionsArg(params, "extract params");
    const wire: Record<string, unknown> = {
      ...(urls === undefined ? {} : { urls }),
      ...p,
      ...(p.schema ? { schema: wireSchema(p.schema, "schema") } : {}),
      ...(p.scrapeOptions ? { scrapeOptions: v1ScrapeWire(p.scrapeOptions, "scrapeOptions.") } : {}),
    };
    return check(body, wire, "extract params");
  },
  ...TASK_START,
  map: v1Record,
};

const V1_EXTRACT_STATUS = taskStatus("extract.status", "/v1/extract");

/** `POST /v1/extract`. The server does not de-duplicate extract starts: retried only when nothing was created. */
export function asyncExtract(http: HttpClient, urls: string[] | undefined, params: V1ExtractParams = {}, idempotencyKey?: string, req?: RequestOptions): APIPromise<V1ExtractStartResponse> {
  return send(http, V1_EXTRACT, withIdempotencyKey(req, idempotencyKey), urls, params);
}

/** `GET /v1/extract/<id>`: the status body as sent (a failed job is `success:false`, not thrown). 404 -> `NotFoundError`. */
export function getExtractStatusV1<T = V1Any>(http: HttpClient, id: string, req?: RequestOptions): APIPromise<V1ExtractStatusResponse<T>> {
  return send(http, V1_EXTRACT_STATUS, req, id) as APIPromise<V1ExtractStatusResponse<T>>;
}

/** A v1 extract job, as the waiters run it (the one job recipe, `jobs/waiters.ts`). */
const V1_EXTRACT_JOB = taskJob("extract", "extract.start", (http, id, req) => getExtractStatusV1(http, id, req));

/** Starts an extract job and waits for it; `failed`/`cancelled` throw `JobFailedError`. */
export async function extractV1<S extends SchemaInput = SchemaInput, T = V1SchemaResult<S>>(http: HttpClient, urls: string[] | undefined, params: V1ExtractParams<S> = {}, req?: RequestOptions): Promise<V1ExtractResponse<T>> {
  const checked = checkRequestOptions(req); // once: the start and every poll take them checked
  const { id } = await asyncExtract(http, urls, params, undefined, checked);
  const s = await awaitJob(http, V1_EXTRACT_JOB as JobRecipe<V1ExtractStatusResponse<T>>, id, { wait: { pollIntervalMs: V1_EXTRACT_POLL_MS, signal: checked.signal }, args: [urls, params], startedAt: Date.now(), req: checked });
  const out: V1ExtractResponse<T> = { success: true, data: s.data };
  if (s.warning !== undefined) out.warning = s.warning;
  if (s.error !== undefined) out.error = s.error;
  if (s.sources !== undefined) out.sources = s.sources;
  return out;
}
