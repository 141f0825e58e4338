/**
 * v1 scrape: `POST /v1/scrape` with v1 options; the result is the document
 * spread next to `success: true`, as the v1 library returned it.
 */
import type { SchemaInput } from "../api/schema.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { send, type Endpoint } from "../api/endpoint.js";
import { anyObject, maybeString } from "../core/response.js";
import { check, httpUrl, rules } from "../core/validate.js";
import { optionsArg } from "../core/options.js";
import { v1ScrapeOptionsShape, v1ScrapeRules, v1ScrapeWire, type V1ScrapeParams } from "./scrape-options.js";
import { v1Success, type V1Any, type V1Document, type V1SchemaResult, type V1Success } from "./shapes.js";

/** The v1 scrape result: `{ success: true, warning?, ...document }`. `T` types `json` / `extract` ({@link V1Any} unless a schema names it). */
export type V1ScrapeResponse<T = V1Any> = V1Success<V1Document<T> & { warning?: string }>;

const body = z
  .looseObject({ url: httpUrl, ...v1ScrapeOptionsShape, zeroDataRetention: z.optional(z.boolean()), origin: z.optional(z.string()), integration: z.optional(z.string()) })
  .check(rules((o, ctx) => v1ScrapeRules(o as V1ScrapeParams, ctx as never)));

/** What {@link scrapeUrl} reads: the document (not deep-checked) and the warning. */
const answer = z.looseObject({ data: anyObject, warning: maybeString });

/** `POST /v1/scrape`: the v1 options checked and sent with their schemas converted. */
const V1_SCRAPE: Endpoint<[string, V1ScrapeParams], { data: V1Document; warning?: string | null }, V1ScrapeResponse> = { op: "scrape",
  path: "/v1/scrape",
  occupies: true,
  body: (url, params) => check(body, v1ScrapeWire({ url, ...optionsArg(params, "scrapeUrl params") }), "scrapeUrl params"),
  response: answer,
  map: (r) => v1Success({ ...(typeof r.warning === "string" ? { warning: r.warning } : {}), ...r.data }),
};

/** `POST /v1/scrape`. A 200 with `success:false` throws `APIError` (the v1 library threw too). */
export function scrapeUrl<S extends SchemaInput = SchemaInput>(http: HttpClient, url: string, params: V1ScrapeParams<S> = {}, req?: RequestOptions): APIPromise<V1ScrapeResponse<V1SchemaResult<S>>> {
  return send(http, V1_SCRAPE, req, url, params) as APIPromise<V1ScrapeResponse<V1SchemaResult<S>>>;
}
