/** v1 map: `POST /v1/map` exactly as spec §4.1 (defaults are the server's: `V1_MAP`). */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int, plainObject } from "../core/validate.js";
import { send, type Endpoint } from "../api/endpoint.js";
import { mapAnswer, type MapOptions } from "../api/map.js";
import { optionsArg } from "../core/options.js";
import { v1Success } from "./shapes.js";

/** ISO 3166-1 alpha-2 country code in capitals (the v1 map rule; here, its one user, so no other bundle carries it). */
const countryUpper = z.string().check(z.regex(/^[A-Z]{2}$/, "must be a two-letter ISO 3166-1 country code in capitals, such as US"));

/** Options of `mapUrl` (spec §4.1). */
export interface V1MapParams extends Pick<MapOptions, "includeSubdomains" | "timeout"> {
  /** Search query used for mapping (smart part limited to 500 results in alpha). */
  search?: string;
  /** Ignore the sitemap (server default true). */
  ignoreSitemap?: boolean;
  /** Only links found in the sitemap (server default false). */
  sitemapOnly?: boolean;
  /** Maximum links, 1..30000 (server default 5000). */
  limit?: number;
  /** Proxy, language and timezone emulation (server default country US). */
  location?: {
    /** ISO 3166-1 alpha-2 code in capitals, `^[A-Z]{2}$`. */
    country?: string;
    /** Preferred languages in priority order. */
    languages?: string[];
  };
}

/** The v1 map result (spec 2.1). */
export interface V1MapResponse {
  /** Whether the request succeeded. */
  success: true;
  /** URLs found. */
  links: string[];
}

const v1MapBody = z.looseObject({
  url: httpUrl,
  search: z.optional(z.string()),
  ignoreSitemap: z.optional(z.boolean()),
  sitemapOnly: z.optional(z.boolean()),
  includeSubdomains: z.optional(z.boolean()),
  limit: z.optional(int(1, 30000)),
  timeout: z.optional(int(1)),
  location: z.optional(plainObject({ country: z.optional(countryUpper), languages: z.optional(z.array(z.string())) })),
});

/** `POST /v1/map`: the v1 options as given (a field the caller did not set is not sent). */
const V1_MAP: Endpoint<[string, V1MapParams], { links: (string | { url: string })[] }, V1MapResponse> = { op: "map",
  path: "/v1/map",
  body: (url, params) => check(v1MapBody, { url, ...optionsArg(params, "mapUrl params") }, "mapUrl params"),
  response: mapAnswer,
  map: (r) => v1Success({ links: r.links.map((l) => (typeof l === "string" ? l : l.url)) }),
};

/** `POST /v1/map`: the v2 answer's reading (`links` as strings or objects with a `url`), as plain strings. 402/429/500 `{error}` become typed errors carrying the server's text. */
export function mapUrl(http: HttpClient, url: string, params: V1MapParams = {}, req?: RequestOptions): APIPromise<V1MapResponse> {
  return send(http, V1_MAP, req, url, params);
}
