/**
 * An endpoint as data. What differs between two capabilities, or between the v1 and the
 * v2 form of one (the route, the body's checks and wire form, the answer's schema, the
 * retry policy), is an {@link Endpoint}; {@link post} sends any of them. So the v1 layer
 * and the v2 modules share one call, and the server-timeout rule is applied here, by
 * route, from its table (`core/server-timeout.ts`), never by an endpoint module.
 */
import type { APIPromise, HttpClient, RequestOptions, RequestSpec } from "../core/request.js";
import type { ResponseSchema } from "../core/response.js";
import { SERVER_TIMEOUTS, serverTimeoutMs, type ServerTimeoutRoute } from "../core/server-timeout.js";

/** A POST endpoint: its route, how the call's arguments become the body, what the answer must hold. */
export interface Endpoint<A extends unknown[]> {
  /** The route (`/v2/scrape`, `/v1/map`). A row of `SERVER_TIMEOUTS` reads the body's `timeout`. */
  path: string;
  /** Checks the arguments and builds the wire body; a throw (`ValidationError`) rejects the call, nothing is sent. */
  body: (...args: A) => Record<string, unknown>;
  /** Loose schema of what the answer must hold (`InvalidResponseError` otherwise). */
  answer: ResponseSchema;
  /** Retry policy (default `safe`). */
  retry?: RequestSpec["retry"];
  /** The server honours `x-idempotency-key` on this route. */
  idempotent?: boolean;
}

/** Sends `ep` with the body built from `args`. */
export function post<T, A extends unknown[]>(http: HttpClient, ep: Endpoint<A>, req: RequestOptions | undefined, ...args: A): APIPromise<T> {
  return http.request<T>(() => {
    const body = ep.body(...args);
    const timeout = typeof body.timeout === "number" ? body.timeout : undefined;
    return {
      method: "POST",
      path: ep.path,
      body,
      retry: ep.retry,
      idempotent: ep.idempotent,
      serverTimeoutMs: ep.path in SERVER_TIMEOUTS ? serverTimeoutMs(ep.path as ServerTimeoutRoute, timeout) : undefined,
      response: ep.answer,
    };
  }, req);
}
