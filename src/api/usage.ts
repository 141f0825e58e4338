/**
 * Account usage: `GET /v2/team/token-usage`, `GET /v2/team/credit-usage`
 * (reference §12, spec 2.2/4.2). v2 answers camelCase; an older server that
 * answers snake_case is normalised here, so the v2 surface is always camelCase.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";

/** Token usage of the team (spec 2.2). */
export interface TokenUsage {
  /** Tokens remaining (`remainingTokens`). */
  remainingTokens: number;
  /** Tokens in the plan (`planTokens`). */
  planTokens: number;
  /** Billing period start, ISO 8601 (`billingPeriodStart`). */
  billingPeriodStart: string | null;
  /** Billing period end, ISO 8601 (`billingPeriodEnd`). */
  billingPeriodEnd: string | null;
}

/** Credit usage of the team (reference §12). */
export interface CreditUsage {
  /** Credits remaining (`remainingCredits`). */
  remainingCredits: number;
  /** Credits in the plan (`planCredits`). */
  planCredits: number;
  /** Billing period start, ISO 8601 (`billingPeriodStart`). */
  billingPeriodStart: string | null;
  /** Billing period end, ISO 8601 (`billingPeriodEnd`). */
  billingPeriodEnd: string | null;
}

/** snake_case -> camelCase for the keys of a flat record. */
export function camelKeys<T>(rec: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) out[k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  return out as T;
}

/** Reads `data` of a team usage answer as camelCase. */
export function teamUsage<T>(http: HttpClient, path: string, req?: RequestOptions): APIPromise<T> {
  return http.request<{ data: Record<string, unknown> }>({ method: "GET", path }, req).map((r) => camelKeys<T>(r.data ?? {}));
}

/** `GET /v2/team/token-usage`. */
export function getTokenUsage(http: HttpClient, req?: RequestOptions): APIPromise<TokenUsage> {
  return teamUsage<TokenUsage>(http, "/v2/team/token-usage", req);
}

/** `GET /v2/team/credit-usage`. */
export function getCreditUsage(http: HttpClient, req?: RequestOptions): APIPromise<CreditUsage> {
  return teamUsage<CreditUsage>(http, "/v2/team/credit-usage", req);
}
