/** v1 scrape: `POST /v1/scrape` with v1 options (the result: {@link V1ScrapeResponse}). */
import type { ActionResults } from "../api/document.js";
import type { SchemaInput } from "../api/schema.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { send, type Endpoint } from "../api/endpoint.js";
import { anyObject, maybeString } from "../core/response.js";
import { check, httpUrl, rules } from "../core/validate.js";
import { optionsArg } from "../core/options.js";
import { v1ScrapeOptionsShape, v1ScrapeRules, v1ScrapeWire, type V1ScrapeParams } from "./scrape-options.js";
import { v1Success, type V1Any, type V1Document, type V1SchemaResult, type V1Success } from "./shapes.js";

/**
 * The results of a v1 scrape's `actions`, as the v1 library typed them: `screenshots`, `scrapes` and
 * `javascriptReturns` always there (an empty list when no action produced one), `pdfs` when the server sends it.
 */
export interface V1ActionsResult extends Required<Pick<ActionResults, "screenshots" | "scrapes" | "javascriptReturns">>, Pick<ActionResults, "pdfs"> {}

/**
 * The v1 scrape result: `{ success: true, warning?, ...document }`. `T` types `json` / `extract` ({@link V1Any} unless a
 * schema names it); `A`, the `actions` given: with actions, `actions` is a {@link V1ActionsResult}, as the v1 library typed it.
 */
export type V1ScrapeResponse<T = V1Any, A = undefined> = V1Success<
  (A extends readonly unknown[] ? Omit<V1Document<T>, "actions"> & { actions: V1ActionsResult } : V1Document<T>) & { warning?: string }
>;

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
  map: (r, [, params]) => {
    const doc: V1Document = { ...r.data };
    // With actions, their result lists are always there (empty when no action produced one), as the v1 library typed them.
    if (Array.isArray(params?.actions) && params.actions.length > 0) doc.actions = { screenshots: [], scrapes: [], javascriptReturns: [], ...doc.actions };
    return v1Success({ ...(typeof r.warning === "string" ? { warning: r.warning } : {}), ...doc });
  },
};

/** `POST /v1/scrape`. A 200 with `success:false` throws `APIError` (the v1 library threw too). */
export function scrapeUrl<S extends SchemaInput = SchemaInput, A extends V1ScrapeParams["actions"] = undefined>(http: HttpClient, url: string, params: V1ScrapeParams<S> & { actions?: A } = {}, req?: RequestOptions): APIPromise<V1ScrapeResponse<V1SchemaResult<S>, A>> {
  return send(http, V1_SCRAPE, req, url, params) as APIPromise<V1ScrapeResponse<V1SchemaResult<S>, A>>;
}
