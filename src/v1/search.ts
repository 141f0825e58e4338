/** v1 search: `POST /v1/search` (reference §15.6), web results only (the result: {@link V1SearchResponse}). */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { maybeString, objects } from "../core/response.js";
import { check, int } from "../core/validate.js";
import { optionsArg } from "../core/options.js";
import { v1ScrapeOptionsSchema, v1ScrapeWire, type V1ScrapeParams } from "./scrape-options.js";
import { v1Success, type V1Document, type V1Success } from "./shapes.js";
import { send, type Endpoint } from "../api/endpoint.js";
import { scrapesResults, type SearchOptions } from "../api/search.js";

/** Options of v1 `search` (server defaults in brackets). */
export interface V1SearchParams
  extends Pick<SearchOptions, "tbs" | "filter" | "lang" | "country" | "location" | "timeout" | "ignoreInvalidURLs" | "origin"> {
  /** Results, 1..100 [5]. */
  limit?: number;
  /** Scrape each result with these options [formats: [] = no scraping]. */
  scrapeOptions?: V1ScrapeParams;
}

/** The v1 search result: `{ success: true, data: Document[], warning? }`. */
export type V1SearchResponse = V1Success<{ data: V1Document[]; warning?: string }>;

const body = z.looseObject({
  query: z.string().check(z.minLength(1, "must be a non-empty search query")),
  limit: z.optional(int(1, 100)),
  tbs: z.optional(z.string()),
  filter: z.optional(z.string()),
  lang: z.optional(z.string()),
  country: z.optional(z.string()),
  location: z.optional(z.string()),
  timeout: z.optional(int(1)),
  ignoreInvalidURLs: z.optional(z.boolean()),
  scrapeOptions: z.optional(v1ScrapeOptionsSchema),
});

/** What {@link searchV1} reads: the flat list of results (not deep-checked). */
const answer = z.looseObject({ data: objects, warning: maybeString });

/** `POST /v1/search`: the v1 options, `scrapeOptions` in v1 shapes. */
const V1_SEARCH: Endpoint<[string, V1SearchParams], { data: V1Document[]; warning?: string | null }, V1SearchResponse> = { op: "search",
  path: "/v1/search",
  occupies: (_query, params) => scrapesResults(params),
  body: (query, params) => {
    const p = optionsArg(params, "search params");
    return check(body, { query, ...p, ...(p.scrapeOptions ? { scrapeOptions: v1ScrapeWire(p.scrapeOptions) } : {}) }, "search params");
  },
  response: answer,
  map: (r) => v1Success({ data: r.data, ...(typeof r.warning === "string" ? { warning: r.warning } : {}) }),
};

/** `POST /v1/search`. */
export function searchV1(http: HttpClient, query: string, params: V1SearchParams = {}, req?: RequestOptions): APIPromise<V1SearchResponse> {
  return send(http, V1_SEARCH, req, query, params);
}
