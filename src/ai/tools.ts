/**
 * Tool definitions for function calling: scrape, search, map, crawl (start,
 * status, a bounded wait), batch scrape and extract, as a model sees them (a
 * name, a description written for a model, JSON Schema parameters) and as the
 * application runs them (`call(name, args)`). The parameters are generated
 * from the same zod schemas that validate requests (the fields are taken from
 * the request schemas' shapes), never from a second hand-written schema.
 */
import * as z from "zod/v4/mini";
import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { batchBody } from "../api/batch.js";
import { crawlBody } from "../api/crawl.js";
import { extractBody } from "../api/extract.js";
import { mapBody } from "../api/map.js";
import { scrapeOptionsShape } from "../api/scrape.js";
import { searchBody } from "../api/search.js";
import type { Document } from "../api/document.js";
import { JobTimeoutError, ValidationError } from "../core/errors.js";
import { check, httpUrl } from "../core/validate.js";
import type { WebData } from "../client.js";
import type { JobStatus } from "../jobs/types.js";
import { waitForJob } from "../jobs/polling.js";
import { errorResult, failure, ok, type ToolResult } from "./result.js";

/** The tools there are. */
export type ToolName = "scrape" | "search" | "map" | "crawl_start" | "crawl_status" | "crawl_wait" | "batch_scrape" | "extract";

/** Every tool name, in the order they are listed. */
export const TOOL_NAMES: readonly ToolName[] = ["scrape", "search", "map", "crawl_start", "crawl_status", "crawl_wait", "batch_scrape", "extract"];

/** A JSON Schema object. */
export type JsonSchemaObject = Record<string, unknown>;

/** One tool as a model sees it. */
export interface ToolDefinition {
  /** Tool name (`scrape`, `crawl_start`, ...). */
  name: ToolName;
  /** What it does, written for a model. */
  description: string;
  /** JSON Schema of its arguments (an object schema). */
  parameters: JsonSchemaObject;
}

/** Parameters the model must not choose: the application fixes them. */
export interface FixedParameters {
  /** Always scrape main content only (or always the whole page); hidden from the model. */
  onlyMainContent?: boolean;
  /** Hosts the tools may read (a host also allows its subdomains); any other URL is refused before sending. */
  allowedDomains?: string[];
  /** Largest crawl `limit` (default 50); a larger or missing limit is lowered to it. */
  maxCrawlLimit?: number;
}

/** Options of {@link createTools}. */
export interface ToolsOptions {
  /** Only these tools (default: all). */
  only?: readonly ToolName[];
  /** Parameters the model must not change. */
  fixed?: FixedParameters;
  /** Character budget of a result's text (default 20000); longer text is cut with a note. */
  maxChars?: number;
  /** Longest a `crawl_wait`, `batch_scrape` or `extract` call waits for its job, ms (default 60000). */
  maxWaitMs?: number;
  /** Poll interval while waiting, ms (default 2000). */
  pollIntervalMs?: number;
}

/** Tool definitions plus the function that runs them. */
export interface Tools {
  /** The tools, as a model sees them. */
  readonly definitions: readonly ToolDefinition[];
  /**
   * Validates the model's arguments, runs the call and returns model-friendly
   * text. Never rejects: every failure is a {@link ToolResult} with `isError`.
   */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

interface ToolSpec {
  description: string;
  schema: z.ZodMiniObject;
  /** Property descriptions for the model, by name. */
  params: Record<string, string>;
  run(client: WebData, args: Record<string, unknown>, ctx: RunContext): Promise<string>;
}

interface RunContext {
  fixed: FixedParameters;
  maxChars: number;
  maxWaitMs: number;
  pollIntervalMs: number;
  signal: AbortSignal | undefined;
}

const jobId = z.string().check(z.minLength(1));
const waitSeconds = z.optional(z.number().check(z.positive()));

function pageText(doc: Document): string {
  const url = doc.metadata?.url ?? doc.metadata?.sourceURL ?? "";
  const body = typeof doc.markdown === "string" ? doc.markdown : typeof doc.summary === "string" ? doc.summary : JSON.stringify(doc.json ?? doc.links ?? doc.metadata, null, 2);
  return `## ${doc.metadata?.title ? `${doc.metadata.title} ` : ""}(${url})\n\n${body}`;
}

/** A finished or running job as text: its counters, then as many pages as the budget holds. */
function jobText(job: Pick<JobStatus, "id" | "status" | "completed" | "total" | "data" | "next">, maxChars: number): string {
  const head = `job ${job.id}: ${job.status}, ${job.completed} of ${job.total} pages done`;
  const pages: string[] = [];
  let used = head.length;
  let shown = 0;
  for (const doc of job.data) {
    const t = pageText(doc);
    if (used + t.length + 2 > maxChars && shown > 0) break;
    pages.push(t);
    used += t.length + 2;
    shown++;
  }
  const rest = job.data.length - shown;
  const more = rest > 0 ? `\n\n[${rest} more pages not shown: the character budget is spent]` : job.status === "scraping" ? "\n\n[the job is still running: call crawl_status again later for more pages]" : "";
  return [head, ...pages].join("\n\n") + more;
}

function hostAllowed(url: string, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return true;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  return allowed.some((d) => {
    const a = d.toLowerCase().replace(/^\*\./, "");
    return host === a || host.endsWith(`.${a}`);
  });
}

function requireAllowed(urls: readonly string[], fixed: FixedParameters): void {
  const refused = urls.filter((u) => !hostAllowed(u, fixed.allowedDomains));
  if (refused.length) throw new ValidationError(refused.map((u) => ({ path: "url", message: `${u} is not on an allowed domain (${fixed.allowedDomains!.join(", ")})` })), "tool arguments");
}

function withFixedScrape<T extends Record<string, unknown>>(opts: T, fixed: FixedParameters): T {
  return fixed.onlyMainContent === undefined ? opts : { ...opts, onlyMainContent: fixed.onlyMainContent };
}

const pick = <S extends Record<string, $ZodType>, K extends keyof S>(shape: S, keys: readonly K[]): Pick<S, K> =>
  Object.fromEntries(keys.map((k) => [k, shape[k]])) as Pick<S, K>;

const scrapeFields = ["formats", "onlyMainContent", "includeTags", "excludeTags", "waitFor"] as const;

const SPECS: Record<ToolName, ToolSpec> = {
  scrape: {
    description: "Read one web page and return its content as markdown (or other formats). Use it when you know the URL. Returns the page text, cut to a character budget.",
    schema: z.strictObject({ url: httpUrl, ...pick(scrapeOptionsShape, scrapeFields) }),
    params: { url: "The page to read (http or https).", formats: 'Output formats, default ["markdown"]. "links" lists the page\'s links.', onlyMainContent: "Drop headers, navigation and footers (default true).", includeTags: "CSS selectors to keep.", excludeTags: "CSS selectors to drop.", waitFor: "Milliseconds to wait for the page to render." },
    async run(client, a, ctx) {
      requireAllowed([a.url as string], ctx.fixed);
      const { url, ...opts } = a;
      const doc = await client.scrape(url as string, withFixedScrape(opts, ctx.fixed), { signal: ctx.signal });
      const extra = doc.links?.length && typeof doc.markdown === "string" ? `\n\nLinks:\n${doc.links.join("\n")}` : "";
      return pageText(doc) + extra;
    },
  },
  search: {
    description: "Search the web. Returns titles, URLs and descriptions of the results (web, and news or images when asked). Use it to find pages, then scrape the ones you need.",
    schema: z.strictObject({ query: z.string().check(z.minLength(1)), ...pick(searchBody.shape, ["limit", "sources", "tbs", "location", "country"] as const) }),
    params: { query: "What to search for.", limit: "Results per source, 1-100 (default 10).", sources: 'Where to search: "web" (default), "news", "images".', tbs: 'Time filter, e.g. "qdr:d" (past day), "qdr:w", "qdr:m".', location: "Location to search from, e.g. \"Germany\".", country: "Two-letter country code in capitals, e.g. US." },
    async run(client, a, ctx) {
      const { query, ...opts } = a;
      const res = await client.search(query as string, opts, { signal: ctx.signal });
      const lines: string[] = [];
      for (const source of ["web", "news", "images"] as const) {
        const items = (res[source] ?? []) as { title?: string; url?: string; description?: string; snippet?: string; imageUrl?: string }[];
        if (!items.length) continue;
        lines.push(`# ${source}`);
        for (const it of items) lines.push(`- ${it.title ?? it.url ?? it.imageUrl} (${it.url ?? it.imageUrl})${(it.description ?? it.snippet) ? `: ${it.description ?? it.snippet}` : ""}`);
      }
      if (res.warning) lines.push(`warning: ${res.warning}`);
      return lines.length ? lines.join("\n") : "no results";
    },
  },
  map: {
    description: "List the URLs of a website (from its sitemap and links), optionally ordered by relevance to a search text. Fast; use it to find which pages to scrape or to plan a crawl.",
    schema: z.strictObject({ url: httpUrl, ...pick(mapBody.shape, ["search", "limit", "includeSubdomains", "sitemap"] as const) }),
    params: { url: "The site's start URL.", search: "Order links by relevance to this text.", limit: "At most this many links (default 5000).", includeSubdomains: "Include subdomains.", sitemap: '"include" (default), "only" or "skip" the sitemap.' },
    async run(client, a, ctx) {
      requireAllowed([a.url as string], ctx.fixed);
      const { url, ...opts } = a;
      const res = await client.map(url as string, opts, { signal: ctx.signal });
      const text = res.links.map((l) => `${l.url}${l.title ? ` ${l.title}` : ""}`).join("\n");
      return `${res.links.length} links\n${text}${res.warning ? `\nwarning: ${res.warning}` : ""}`;
    },
  },
  crawl_start: {
    description: "Start crawling a website: the service follows links from the URL and scrapes each page. Returns a job id at once; then call crawl_wait (or crawl_status) with it to get the pages.",
    schema: z.strictObject({ url: httpUrl, ...pick(crawlBody.shape, ["limit", "includePaths", "excludePaths", "maxDiscoveryDepth", "crawlEntireDomain", "allowSubdomains", "prompt"] as const) }),
    params: { url: "Where the crawl starts.", limit: "Most pages to crawl.", includePaths: "Only paths matching these regexes.", excludePaths: "Skip paths matching these regexes.", maxDiscoveryDepth: "How many links deep to go.", crawlEntireDomain: "Also follow sibling and parent paths.", allowSubdomains: "Also follow subdomains.", prompt: "Natural-language crawl instructions." },
    async run(client, a, ctx) {
      requireAllowed([a.url as string], ctx.fixed);
      const { url, ...opts } = a;
      const max = ctx.fixed.maxCrawlLimit ?? 50;
      const limit = Math.min(typeof opts.limit === "number" ? opts.limit : max, max);
      const scrapeOptions = ctx.fixed.onlyMainContent === undefined ? undefined : { onlyMainContent: ctx.fixed.onlyMainContent };
      const job = await client.startCrawl(url as string, { ...opts, limit, ...(scrapeOptions ? { scrapeOptions } : {}) }, { signal: ctx.signal });
      return `crawl started: id ${job.id} (at most ${limit} pages). Call crawl_wait with this id to get the pages.`;
    },
  },
  crawl_status: {
    description: "Read a crawl's progress and the pages scraped so far (one page of results). Use it to check a crawl without waiting.",
    schema: z.strictObject({ id: jobId }),
    params: { id: "The crawl's job id (from crawl_start)." },
    async run(client, a, ctx) {
      const job = await client.getCrawlStatus(a.id as string, undefined, { signal: ctx.signal });
      return jobText(job, ctx.maxChars);
    },
  },
  crawl_wait: {
    description: "Wait for a crawl to finish (up to a bounded time) and return its pages. If it is still running when the wait ends, say so; call it again later.",
    schema: z.strictObject({ id: jobId, waitSeconds }),
    params: { id: "The crawl's job id (from crawl_start).", waitSeconds: "How long to wait at most, seconds (capped by the application)." },
    async run(client, a, ctx) {
      const timeoutMs = Math.min(typeof a.waitSeconds === "number" ? a.waitSeconds * 1000 : ctx.maxWaitMs, ctx.maxWaitMs);
      const job = await waitForCrawl(client, a.id as string, timeoutMs, ctx);
      return jobText(job, ctx.maxChars);
    },
  },
  batch_scrape: {
    description: "Scrape several known URLs in one job and wait (bounded) for the pages. Better than many scrape calls for more than a few URLs.",
    schema: z.strictObject({ urls: batchBody.shape.urls, ...pick(scrapeOptionsShape, ["formats", "onlyMainContent"] as const) }),
    params: { urls: "The pages to read.", formats: 'Output formats, default ["markdown"].', onlyMainContent: "Drop headers, navigation and footers (default true)." },
    async run(client, a, ctx) {
      const { urls, ...opts } = a;
      requireAllowed(urls as string[], ctx.fixed);
      const job = await client.batchScrape(urls as string[], { ...withFixedScrape(opts, ctx.fixed), ignoreInvalidURLs: true, timeoutMs: ctx.maxWaitMs, pollIntervalMs: ctx.pollIntervalMs, signal: ctx.signal });
      return jobText(job, ctx.maxChars);
    },
  },
  extract: {
    description: "Extract structured data from pages with an LLM on the service: give URLs (a trailing /* reads a whole site) and a prompt and/or a JSON Schema; returns the data as JSON. Waits (bounded) for the result.",
    schema: z.strictObject({ ...pick(extractBody.shape, ["urls", "prompt", "enableWebSearch"] as const), schema: z.optional(z.record(z.string(), z.unknown())) }),
    params: { urls: "Pages to read (at most 10).", prompt: "What to extract.", schema: "JSON Schema of the result.", enableWebSearch: "Also search the web for sources." },
    async run(client, a, ctx) {
      if (Array.isArray(a.urls)) requireAllowed(a.urls as string[], ctx.fixed);
      const res = await client.extract({ ...a, timeoutMs: ctx.maxWaitMs, pollIntervalMs: ctx.pollIntervalMs, signal: ctx.signal });
      return JSON.stringify(res.data ?? null, null, 2);
    },
  },
};

/** Waits for a crawl up to `timeoutMs`; a crawl still running then is returned as it stands (one status page). */
async function waitForCrawl(client: WebData, id: string, timeoutMs: number, ctx: RunContext): Promise<JobStatus> {
  try {
    return await waitForJob(client.http, "crawl", id, { timeoutMs, pollIntervalMs: ctx.pollIntervalMs, signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof JobTimeoutError)) throw err;
    return client.getCrawlStatus(id, undefined, { signal: ctx.signal });
  }
}

/** The JSON Schema a model sees for a tool: from its zod schema, with descriptions, minus fixed parameters. */
function parametersOf(spec: ToolSpec, fixed: FixedParameters): JsonSchemaObject {
  const json = toJSONSchema(spec.schema, { unrepresentable: "any", io: "input" }) as JsonSchemaObject & { properties?: Record<string, JsonSchemaObject>; required?: string[] };
  delete json.$schema;
  const props = json.properties ?? {};
  for (const [name, text] of Object.entries(spec.params)) if (props[name]) props[name] = { ...props[name], description: text };
  if (fixed.onlyMainContent !== undefined) delete props.onlyMainContent;
  return json;
}

/**
 * Tool definitions for `client`, for function calling with any model. Pass
 * `definitions` to the model (or an adapter: {@link toOpenAITools},
 * {@link toAnthropicTools}, {@link toAISDKTools}) and run what it asks with `call`.
 */
export function createTools(client: WebData, options: ToolsOptions = {}): Tools {
  const names = options.only ?? TOOL_NAMES;
  const unknown = names.filter((n) => !(n in SPECS));
  if (unknown.length) throw new ValidationError(unknown.map((n) => ({ path: "only", message: `unknown tool ${JSON.stringify(n)} (tools: ${TOOL_NAMES.join(", ")})` })), "tools options");
  const fixed = options.fixed ?? {};
  const ctxBase = { fixed, maxChars: options.maxChars ?? 20_000, maxWaitMs: options.maxWaitMs ?? 60_000, pollIntervalMs: options.pollIntervalMs ?? 2_000 };
  const definitions = names.map((name) => ({ name, description: SPECS[name].description, parameters: parametersOf(SPECS[name], fixed) }));
  return {
    definitions,
    async call(name, args, callOptions = {}) {
      const spec = (names as readonly string[]).includes(name) ? SPECS[name as ToolName] : undefined;
      if (!spec) return failure(`unknown tool ${JSON.stringify(name)}; the tools are: ${names.join(", ")}`);
      try {
        const parsed = check(spec.schema, args ?? {}, `${name} arguments`) as Record<string, unknown>;
        const text = await spec.run(client, parsed, { ...ctxBase, signal: callOptions.signal });
        return ok(text, ctxBase.maxChars);
      } catch (err) {
        return errorResult(err);
      }
    },
  };
}
