/**
 * Account usage: `GET /v2/team/token-usage`, `GET /v2/team/credit-usage`
 * (reference §12, spec 2.2/4.2). v2 answers camelCase; an older server that
 * answers snake_case is normalised here, so the v2 surface is always camelCase.
 */
import * as z from "zod/v4/mini";
import { isRecord, ValidationError } from "../core/errors.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import { queryOptionsArg } from "../core/options.js";
import { anyObject, objects } from "../core/response.js";
import { rules } from "../core/validate.js";
import { type Endpoint, rejectOfficialForm, send } from "./endpoint.js";

/** Token usage of the team (spec 2.2). */
export interface TokenUsage {
  remainingTokens: number;
  planTokens: number;
  /** Billing period start, ISO 8601 (`billingPeriodStart`). */
  billingPeriodStart: string | null;
  /** Billing period end, ISO 8601 (`billingPeriodEnd`). */
  billingPeriodEnd: string | null;
}

/** Credit usage of the team (reference §12). */
export interface CreditUsage extends Pick<TokenUsage, "billingPeriodStart" | "billingPeriodEnd"> {
  remainingCredits: number;
  planCredits: number;
}

/** snake_case -> camelCase for the keys of a flat record. */
export function camelKeys<T>(rec: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) out[k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  return out as T;
}

/**
 * What a usage read relies on: `fields` as numbers (camelCase or snake_case), under
 * `data` (`underData`), or else at the top level or under `data` as the server sends them.
 */
function usageAnswer(fields: readonly string[], underData: boolean) {
  return anyObject.check(
    rules<unknown>((body, ctx) => {
      if (!isRecord(body)) return;
      const nested = underData || isRecord(body.data);
      const rec = nested ? body.data : body;
      if (!isRecord(rec)) return void ctx.issues.push({ code: "custom", path: ["data"], message: "expected an object", input: rec });
      for (const f of fields) {
        const v = rec[f] ?? rec[f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
        if (typeof v !== "number") ctx.issues.push({ code: "custom", path: nested ? ["data", f] : [f], message: "expected a number", input: v });
      }
    }),
  );
}

/** Token usage (v1 and v2): `data.remainingTokens` / `data.remaining_tokens`. */
export const tokenUsageAnswer = usageAnswer(["remainingTokens", "planTokens"], true);
/** Credit usage (v1 and v2): `data.remainingCredits` / `data.remaining_credits`. */
export const creditUsageAnswer = usageAnswer(["remainingCredits", "planCredits"], true);
/** Queue status (v1 and v2): the counters at the top level (or under `data`). */
export const queueStatusAnswer = usageAnswer(["jobsInQueue", "activeJobsInQueue", "waitingJobsInQueue", "maxConcurrency"], false);
const concurrencyAnswer = usageAnswer(["concurrency", "maxConcurrency"], false);

/** What the historical usage reads rely on: `periods`. */
export const periodsAnswer = z.looseObject({ periods: objects });

type Usage = { data: Record<string, unknown> };

/** `GET /<version>/team/token-usage` and `.../credit-usage`: `data` as sent (snake_case on v1; the v2 calls read it camelCase). */
export const TOKEN_USAGE: Endpoint<[version: "v1" | "v2"], Usage, Record<string, unknown>> = { op: "usage.tokens", path: "/{version}/team/token-usage", response: tokenUsageAnswer, map: (r) => r.data };
export const CREDIT_USAGE: Endpoint<[version: "v1" | "v2"], Usage, Record<string, unknown>> = { op: "usage.credits", path: "/{version}/team/credit-usage", response: creditUsageAnswer, map: TOKEN_USAGE.map };

/** `GET /v2/team/token-usage`. */
export function getTokenUsage(http: HttpClient, req?: RequestOptions): APIPromise<TokenUsage> {
  return send(http, TOKEN_USAGE, req, "v2").map(camelKeys<TokenUsage>);
}

/** `GET /v2/team/credit-usage`. */
export function getCreditUsage(http: HttpClient, req?: RequestOptions): APIPromise<CreditUsage> {
  return send(http, CREDIT_USAGE, req, "v2").map(camelKeys<CreditUsage>);
}

/** One period of historical usage (`periods[]`). */
export interface UsagePeriod {
  /** Period start, ISO 8601 (`startDate`; null when unknown, sorted last). */
  startDate: string | null;
  /** Period end, ISO 8601 (`endDate`). */
  endDate: string | null;
  /** Name of the API key (`apiKey`), only with `byApiKey: true`. */
  apiKey?: string;
}

/** One period of historical credit usage. */
export interface CreditUsagePeriod extends UsagePeriod {
  /** Credits spent in the period (`creditsUsed`; the docs' `totalCredits` is accepted too). */
  creditsUsed: number;
}

/** One period of historical token usage. */
export interface TokenUsagePeriod extends UsagePeriod {
  /** Tokens spent in the period (`tokensUsed`). */
  tokensUsed: number;
}

/** Options of the historical usage calls. */
export interface HistoricalUsageOptions {
  /** One entry per API key and period instead of per period (`?byApiKey=true`). */
  byApiKey?: boolean;
}

/** Queue metrics of the team (`GET /v2/team/queue-status`). */
export interface QueueStatus {
  jobsInQueue: number;
  /** Jobs running (`activeJobsInQueue`). */
  activeJobsInQueue: number;
  waitingJobsInQueue: number;
  /** Concurrency limit of the plan (`maxConcurrency`). */
  maxConcurrency: number;
  /** Time of the most recent successful job, ISO 8601, or null (`mostRecentSuccess`). */
  mostRecentSuccess: string | null;
}

/** Current and maximum concurrency (`GET /v2/concurrency-check`). */
export interface Concurrency {
  /** Jobs running now (`concurrency`). */
  concurrency: number;
  /** Limit (`maxConcurrency`): the larger of the scrape and extract plan limits on v2. */
  maxConcurrency: number;
}

/** The arguments of a historical usage read: API version, `credit` or `token`, the options. */
type HistoricalArgs = [version: "v1" | "v2", kind: "credit" | "token", given: HistoricalUsageOptions | undefined | null];

/** `GET /<version>/team/<kind>-usage/historical[?byApiKey=true]`: the answer as sent (`periods` a list), `byApiKey` checked to be a boolean. */
export const HISTORICAL: Endpoint<HistoricalArgs, { periods: Record<string, unknown>[] }> = {
  op: (_v, kind) => (kind === "credit" ? "usage.creditsHistorical" : "usage.tokensHistorical"),
  path: "/{version}/team/{kind}-usage/historical",
  query: (_v, kind, given) => {
    rejectOfficialForm(kind === "credit" ? "getCreditUsageHistorical" : "getTokenUsageHistorical", given, "usage options");
    const options = queryOptionsArg(given, "usage options");
    if (options.byApiKey !== undefined && typeof options.byApiKey !== "boolean") {
      throw new ValidationError([{ path: "byApiKey", message: `expected boolean, got ${typeof options.byApiKey}` }], "usage options");
    }
    return { byApiKey: options.byApiKey ? true : undefined };
  },
  response: periodsAnswer,
};

/** The v2 periods: camelCase, the docs' `from` (`totalCredits` / `totalTokens`) read as `to` (`creditsUsed` / `tokensUsed`). */
function periods<P>(http: HttpClient, kind: "credit" | "token", options: HistoricalUsageOptions, req: RequestOptions | undefined, from: string, to: string): APIPromise<P[]> {
  return send(http, HISTORICAL, req, "v2", kind, options).map((r) =>
    r.periods.map((p) => {
      const out = camelKeys<Record<string, unknown>>(p);
      if (out[to] === undefined && out[from] !== undefined) out[to] = out[from];
      delete out[from];
      return out as P;
    }),
  );
}

/** `GET /v2/team/credit-usage/historical`: credits per billing period (and per key with `byApiKey`). */
export function getCreditUsageHistorical(http: HttpClient, options: HistoricalUsageOptions = {}, req?: RequestOptions): APIPromise<CreditUsagePeriod[]> {
  return periods(http, "credit", options, req, "totalCredits", "creditsUsed");
}

/** `GET /v2/team/token-usage/historical`: tokens per billing period (and per key with `byApiKey`). */
export function getTokenUsageHistorical(http: HttpClient, options: HistoricalUsageOptions = {}, req?: RequestOptions): APIPromise<TokenUsagePeriod[]> {
  return periods(http, "token", options, req, "totalTokens", "tokensUsed");
}

/** A record answered at the top level (or under `data`), camelCase, without `success`. */
const topLevel = (r: Record<string, unknown>): never => {
  const { success: _s, ...rest } = camelKeys<Record<string, unknown>>(isRecord(r.data) ? r.data : r);
  return rest as never;
};

const QUEUE_STATUS: Endpoint<[version: "v1" | "v2"], Record<string, unknown>, QueueStatus> = { op: "usage.queue", path: "/{version}/team/queue-status", response: queueStatusAnswer, map: topLevel };
const CONCURRENCY: Endpoint<[], Record<string, unknown>, Concurrency> = { op: "usage.concurrency", path: "/v2/concurrency-check", response: concurrencyAnswer, map: topLevel };

/** `GET /v2/team/queue-status` (fields at the top level; snake_case normalised); `/v1/...` with `version` "v1" (the same answer, reference §12). */
export function getQueueStatus(http: HttpClient, req?: RequestOptions, version: "v1" | "v2" = "v2"): APIPromise<QueueStatus> {
  return send(http, QUEUE_STATUS, req, version);
}

/** `GET /v2/concurrency-check`: answered at the top level (not under `data`; a `data` wrapper is read too). */
export function getConcurrency(http: HttpClient, req?: RequestOptions): APIPromise<Concurrency> {
  return send(http, CONCURRENCY, req);
}
