/**
 * Extraction jobs: `POST /v2/extract`, `GET /v2/extract/<id>` (reference §8).
 * The waiter lives in `jobs/waiters.ts`.
 */
import { isRecord } from "../core/errors.js";
import { optionsArg, type Checked } from "../core/options.js";
import { type APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int } from "../core/validate.js";
import { type Endpoint, rejectOfficialKeys, send, sendChecked, withChecked } from "./endpoint.js";
import { wireSchema, type SchemaInput } from "./schema.js";
import { scrapeOptionsSchema, wireScrapeOptions, type JsonFormat, type ScrapeOptions, type ScrapeParams } from "./scrape.js";
import { webhookSchema, type WebhookConfig } from "./webhooks.js";
import type { OperationName } from "./operations.js";

/** Options of {@link startExtract}. `urls` or `prompt` is required. */
export interface ExtractOptions extends Pick<ScrapeParams, "origin" | "integration">, Pick<JsonFormat, "prompt"> {
  /** Pages to extract from (at most 10; `/*` suffixes crawl a site). */
  urls?: string[];
  /** System prompt (at most 10000 characters). */
  systemPrompt?: string;
  /** Shape of the result: a zod schema, a Standard Schema with JSON Schema output, or a JSON Schema. */
  schema?: SchemaInput;
  /** Maximum pages to consider. */
  limit?: number;
  /** Ignore sitemaps (default false). */
  ignoreSitemap?: boolean;
  /** Include subdomains (default true). */
  includeSubdomains?: boolean;
  /** Follow external links (default false; forced on by `enableWebSearch`). */
  allowExternalLinks?: boolean;
  /** Search the web for more sources (default false). */
  enableWebSearch?: boolean;
  /** Scrape options for the pages read. */
  scrapeOptions?: ScrapeOptions;
  /** Report the sources used (`sources` in the status). */
  showSources?: boolean;
  /** Report how each URL was handled. */
  urlTrace?: boolean;
  /** Server-side timeout, ms (>= 1000). */
  timeout?: number;
  /** Agent model settings (`{ model }`, default `fire-1`). */
  agent?: { model?: string };
  /** Skip invalid URLs instead of failing (default true). */
  ignoreInvalidURLs?: boolean;
  /** Where the service POSTs extract events. */
  webhook?: WebhookConfig;
}

/** `POST /v2/extract` answer. */
export interface ExtractStartResult {
  /** The job id. */
  id: string;
  /** URL trace (`urlTrace`, empty at start). */
  urlTrace?: unknown[];
  /** URLs skipped as invalid. */
  invalidURLs?: string[];
}

/** Status of an extraction job (`GET /v2/extract/<id>`). */
export interface ExtractStatus<T = unknown> {
  /** The job id (filled in by the SDK). */
  id: string;
  /** `processing`, then `completed`, `failed` or `cancelled`. */
  status: "processing" | "completed" | "failed" | "cancelled";
  /** The extracted data (`[]` until completed). */
  data: T;
  /** The server's error text for a failed job. */
  error?: string;
  /** ISO time when the result is dropped. */
  expiresAt?: string;
  /** Sources used, with `showSources`. */
  sources?: unknown;
  tokensUsed?: number;
  creditsUsed?: number;
  /** Progress steps. */
  steps?: unknown[];
}

export const extractBody = z
  .looseObject({
    urls: z.optional(z.array(httpUrl).check(z.maxLength(10, "at most 10 URLs are allowed per request"))),
    prompt: z.optional(z.string().check(z.maxLength(10000))),
    systemPrompt: z.optional(z.string().check(z.maxLength(10000))),
    limit: z.optional(int(1)),
    ignoreSitemap: z.optional(z.boolean()),
    includeSubdomains: z.optional(z.boolean()),
    allowExternalLinks: z.optional(z.boolean()),
    enableWebSearch: z.optional(z.boolean()),
    scrapeOptions: z.optional(scrapeOptionsSchema),
    showSources: z.optional(z.boolean()),
    urlTrace: z.optional(z.boolean()),
    timeout: z.optional(int(1000)),
    agent: z.optional(z.looseObject({ model: z.optional(z.string()) })),
    ignoreInvalidURLs: z.optional(z.boolean()),
    webhook: z.optional(webhookSchema()),
    origin: z.optional(z.string()),
    integration: z.optional(z.string()),
  })
  .check(
    z.refine((o) => (o.urls?.length ?? 0) > 0 || typeof o.prompt === "string", { message: "either urls or prompt must be provided" }),
  );

/** What an extract or agent status read relies on: `status` (the waiters decide on it). */
export const taskStatusAnswer = z.looseObject({ status: z.string() });

/**
 * `GET <route>/<id>` of a task-like job (extract, agent; the v1 extract, LLMs.txt and deep research): the
 * body as sent, a failed job (`success:false`) not thrown; `map` makes the result of it.
 */
export function taskStatus<R = unknown>(op: OperationName, route: string, map?: (raw: unknown, args: [id: string]) => R): Endpoint<[id: string], unknown, R> {
  return { op, path: `${route}/{id}`, allowUnsuccessful: true, response: taskStatusAnswer, map };
}

/** A task start's answer as the v2 result: `success` dropped. */
export const started = (raw: unknown): never => toStatus(raw, isRecord(raw) ? String(raw.id) : "");

/** A task status read's answer as the v2 result, with the id read. */
export const statusOf = (raw: unknown, [id]: [id: string]): never => toStatus(raw, id);

/**
 * A task start of extract, agent (and, with `map: v1Record`, the v1 generation jobs): its answer's job `id` read,
 * never retried once it may have started one (the server does not de-duplicate them), `success` dropped.
 */
export const TASK_START = { response: z.looseObject({ id: z.string() }), retry: "not-idempotent", map: started } as const;

/**
 * Job status bodies: `success` is dropped, the id added. A body that says `success: false` is a failed
 * job: its `status` reads `failed` unless it already names how the job ended (`failed`, `cancelled`).
 */
export function toStatus<S>(raw: unknown, id: string): S {
  const rec = isRecord(raw) ? { ...raw } : {};
  const failed = rec.success === false && rec.status !== "failed" && rec.status !== "cancelled";
  delete rec.success;
  return { ...rec, ...(failed ? { status: "failed" } : {}), id } as S;
}

/** `POST /v2/extract`: the options checked, the schemas converted. */
const EXTRACT: Endpoint<[ExtractOptions], unknown, ExtractStartResult> = { op: "extract.start",
  path: "/v2/extract",
  body: (given) => {
    const { schema, ...rest } = given;
    const wired = rest.scrapeOptions ? { ...rest, scrapeOptions: wireScrapeOptions(rest.scrapeOptions, "scrapeOptions.formats") } : rest;
    check(extractBody, wired, "extract options");
    return schema === undefined ? wired : { ...wired, schema: wireSchema(schema) };
  },
  ...TASK_START,
};

const EXTRACT_STATUS = taskStatus("extract.status", "/v2/extract", statusOf);

/** `POST /v2/extract`. Not de-duplicated by the server: retried only after 429 or a refused connection. */
export function startExtract(http: HttpClient, given: ExtractOptions, req?: RequestOptions | null): APIPromise<ExtractStartResult> {
  return withChecked(req, (checked) => {
    const opts = optionsArg(given, "extract options");
    rejectOfficialKeys("startExtract", opts, "extract options"); // `extract()` rejects them by its own name (a superset)
    return startExtractWith(http, opts, checked);
  });
}

/**
 * {@link startExtract} with its request options checked and its options an object (`extract()` checked them): the extract options' schema runs here, once.
 */
export function startExtractWith(http: HttpClient, given: ExtractOptions, req: Checked<RequestOptions>): APIPromise<ExtractStartResult> {
  return sendChecked(http, EXTRACT, req, given);
}

/** `GET /v2/extract/<id>`. A failed job (200 with `success:false`) comes back as `status: "failed"`, not thrown. */
export function getExtractStatus<T = unknown>(http: HttpClient, id: string, req?: RequestOptions): APIPromise<ExtractStatus<T>> {
  return send(http, EXTRACT_STATUS, req, id) as APIPromise<ExtractStatus<T>>;
}
