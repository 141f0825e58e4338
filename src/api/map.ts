/**
 * Map a site's URLs: `POST /v2/map` (reference §6).
 */
import { optionsArg } from "../core/options.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { maybeString } from "../core/response.js";
import { check, httpUrl, int, oneOf, plainObject } from "../core/validate.js";
import { MAP_LIMIT } from "./limits.js";
import type { ScrapeParams } from "./scrape.js";
import type { CrawlOptions } from "./crawl.js";
import { send, type Endpoint } from "./endpoint.js";

/** Options of {@link map} (v2). */
export interface MapOptions extends Pick<ScrapeParams, "origin" | "integration" | "headers" | "location">, Pick<CrawlOptions, "sitemap"> {
  /** Order results by relevance to this query. */
  search?: string;
  /** Include subdomains (default true). */
  includeSubdomains?: boolean;
  /** Drop query strings when de-duplicating (default true). */
  ignoreQueryParameters?: boolean;
  /** Maximum links, 1..100000 (default 5000). */
  limit?: number;
  /** Server-side timeout, ms (default none). The client waits at least this long plus a margin. */
  timeout?: number;
  /** Bypass the sitemap cache (default false). */
  ignoreCache?: boolean;
  /** Use the search index (default true). */
  useIndex?: boolean;
  /** Filter results by the URL's path (default true). */
  filterByPath?: boolean;
  /** Path regexes to include. */
  includePaths?: string[];
  /** Path regexes to exclude. */
  excludePaths?: string[];
}

/** One link found by {@link map}. */
export interface MapLink {
  url: string;
  /** Page title, when known. */
  title?: string;
  /** Page description, when known. */
  description?: string;
}

/** Result of {@link map}. */
export interface MapResult {
  links: MapLink[];
  /** Server warning, e.g. when only one result was found. */
  warning?: string;
}

export const mapBody = z.looseObject({
  url: httpUrl,
  search: z.optional(z.string()),
  sitemap: z.optional(z.enum(["include", "only", "skip"])),
  includeSubdomains: z.optional(z.boolean()),
  ignoreQueryParameters: z.optional(z.boolean()),
  limit: z.optional(int(MAP_LIMIT.min, MAP_LIMIT.max)),
  timeout: z.optional(int(1)),
  location: z.optional(plainObject({ country: z.optional(z.string()), languages: z.optional(z.array(z.string())) })),
  headers: z.optional(z.record(z.string(), z.string())),
  ignoreCache: z.optional(z.boolean()),
  useIndex: z.optional(z.boolean()),
  filterByPath: z.optional(z.boolean()),
  includePaths: z.optional(z.array(z.string())),
  excludePaths: z.optional(z.array(z.string())),
});

/** What {@link map} reads: `links` (objects with a `url`, or plain URLs from older servers). */
export const mapAnswer = z.looseObject({ links: z.array(oneOf({ string: z.string(), object: z.looseObject({ url: z.string() }) }, "a URL or { url, ... }")), warning: maybeString });

/** `POST /v2/map`: the options checked. */
const MAP: Endpoint<[string, MapOptions], { links: (MapLink | string)[]; warning?: string | null }, MapResult> = { op: "map",
  path: "/v2/map",
  body: (url, options) => check(mapBody, { ...optionsArg(options, "map options"), url }, "map options"),
  response: mapAnswer,
  map: (r) => {
    const out: MapResult = { links: r.links.map((l) => (typeof l === "string" ? { url: l } : l)) };
    if (r.warning) out.warning = r.warning;
    return out;
  },
};

/** `POST /v2/map`. Links come back as `{ url, title?, description? }`. */
export function map(http: HttpClient, url: string, options: MapOptions = {}, req?: RequestOptions): APIPromise<MapResult> {
  return send(http, MAP, req, url, options);
}
