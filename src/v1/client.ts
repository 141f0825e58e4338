/**
 * The legacy v1 surface (`client.v1`): v1 method names and wire shapes over
 * the same shared request layer.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import { mapUrl, type V1MapParams, type V1MapResponse } from "./map.js";
import { getCreditUsageV1, getTokenUsageV1, type V1CreditUsage, type V1TokenUsage } from "./usage.js";

/** v1 methods, reached as `client.v1` or through `WebDataV1` from `webdata/v1`. */
export class V1Client {
  readonly #http: HttpClient;

  /** @internal Built by `WebData`; use `client.v1`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** `POST /v1/map`: links as plain strings. v2: `map`. */
  mapUrl(url: string, params?: V1MapParams, options?: RequestOptions): APIPromise<V1MapResponse> {
    return mapUrl(this.#http, url, params, options);
  }

  /** `GET /v1/team/token-usage`: snake_case record. v2: `getTokenUsage`. */
  getTokenUsage(options?: RequestOptions): APIPromise<V1TokenUsage> {
    return getTokenUsageV1(this.#http, options);
  }

  /** `GET /v1/team/credit-usage`: snake_case record. v2: `getCreditUsage`. */
  getCreditUsage(options?: RequestOptions): APIPromise<V1CreditUsage> {
    return getCreditUsageV1(this.#http, options);
  }
}
