/**
 * v1 account usage: snake_case records (spec 2.3, reference §12).
 */
import { send } from "../api/endpoint.js";
import { CREDIT_USAGE, getQueueStatus, HISTORICAL, TOKEN_USAGE, type QueueStatus, type UsagePeriod } from "../api/usage.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import type { V1TaskStartResponse } from "./research.js";
import { v1Record } from "./shapes.js";

/** v1 token usage (spec 2.3). */
export interface V1TokenUsage {
  remaining_tokens: number;
  plan_tokens: number;
  /** Billing period start, ISO 8601. */
  billing_period_start: string | null;
  /** Billing period end, ISO 8601. */
  billing_period_end: string | null;
}

/** v1 credit usage. */
export interface V1CreditUsage extends Pick<V1TokenUsage, "billing_period_start" | "billing_period_end"> {
  remaining_credits: number;
  plan_credits: number;
}

/** `GET /v1/team/token-usage`: the snake_case record. */
export function getTokenUsageV1(http: HttpClient, req?: RequestOptions): APIPromise<V1TokenUsage> {
  return send(http, TOKEN_USAGE, req, "v1") as APIPromise<unknown> as APIPromise<V1TokenUsage>;
}

/** `GET /v1/team/credit-usage`: the snake_case record. */
export function getCreditUsageV1(http: HttpClient, req?: RequestOptions): APIPromise<V1CreditUsage> {
  return send(http, CREDIT_USAGE, req, "v1") as APIPromise<unknown> as APIPromise<V1CreditUsage>;
}

/** One period of `GET /v1/team/{credit,token}-usage/historical` (reference §12: same as v2). */
export interface V1UsagePeriod extends UsagePeriod {
  /** Credits used (credit usage). */
  creditsUsed?: number;
  /** Tokens used (token usage). */
  tokensUsed?: number;
}

/** `GET /v1/team/{credit,token}-usage/historical`, as sent. */
export interface V1UsageHistoricalResponse extends Pick<V1TaskStartResponse, "success"> {
  /** Periods, oldest first. */
  periods: V1UsagePeriod[];
}

/** `GET /v1/team/<kind>-usage/historical[?byApiKey=true]`, as sent (the official v1 class's `(byApiKey?: boolean)`). */
export function getUsageHistoricalV1(http: HttpClient, kind: "credit" | "token", byApiKey?: boolean, req?: RequestOptions): APIPromise<V1UsageHistoricalResponse> {
  return send(http, HISTORICAL, req, "v1", kind, { byApiKey }).map((r) => ({ ...v1Record(r), periods: r.periods as unknown as V1UsagePeriod[] }));
}

/** v1 queue status (same fields as v2, reference §12). */
export interface V1QueueStatus extends QueueStatus, Pick<V1TaskStartResponse, "success"> {}

/** `GET /v1/team/queue-status`, as sent. */
export function getQueueStatusV1(http: HttpClient, req?: RequestOptions): APIPromise<V1QueueStatus> {
  return getQueueStatus(http, req, "v1").map(v1Record);
}
