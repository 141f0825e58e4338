/**
 * v1 account usage: snake_case records (spec 2.3, reference §12).
 */
import { creditUsageAnswer, queueStatusAnswer, tokenUsageAnswer } from "../api/usage.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import { v1Record } from "./shapes.js";

/** v1 token usage (spec 2.3). */
export interface V1TokenUsage {
  /** Tokens remaining. */
  remaining_tokens: number;
  /** Tokens in the plan. */
  plan_tokens: number;
  /** Billing period start, ISO 8601. */
  billing_period_start: string | null;
  /** Billing period end, ISO 8601. */
  billing_period_end: string | null;
}

/** v1 credit usage. */
export interface V1CreditUsage {
  /** Credits remaining. */
  remaining_credits: number;
  /** Credits in the plan. */
  plan_credits: number;
  /** Billing period start, ISO 8601. */
  billing_period_start: string | null;
  /** Billing period end, ISO 8601. */
  billing_period_end: string | null;
}

/** `GET /v1/team/token-usage`: the snake_case record. */
export function getTokenUsageV1(http: HttpClient, req?: RequestOptions): APIPromise<V1TokenUsage> {
  return http.request<{ data: V1TokenUsage }>({ method: "GET", path: "/v1/team/token-usage", response: tokenUsageAnswer }, req).map((r) => r.data);
}

/** `GET /v1/team/credit-usage`: the snake_case record. */
export function getCreditUsageV1(http: HttpClient, req?: RequestOptions): APIPromise<V1CreditUsage> {
  return http.request<{ data: V1CreditUsage }>({ method: "GET", path: "/v1/team/credit-usage", response: creditUsageAnswer }, req).map((r) => r.data);
}

/** v1 queue status (same fields as v2, reference §12). */
export interface V1QueueStatus {
  /** Always true (HTTP failures throw). */
  success: true;
  /** Jobs in the team's queue. */
  jobsInQueue: number;
  /** Jobs running now. */
  activeJobsInQueue: number;
  /** Jobs waiting for a slot. */
  waitingJobsInQueue: number;
  /** The team's concurrency limit. */
  maxConcurrency: number;
  /** Time of the most recent successful job (ISO 8601), or null. */
  mostRecentSuccess: string | null;
}

/** `GET /v1/team/queue-status`, as sent. */
export function getQueueStatusV1(http: HttpClient, req?: RequestOptions): APIPromise<V1QueueStatus> {
  return http.request<V1QueueStatus>({ method: "GET", path: "/v1/team/queue-status", response: queueStatusAnswer }, req).map(v1Record);
}
