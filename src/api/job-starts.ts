/**
 * Job starts of crawls and batch scrapes (v1 and v2: {@link startJob}) and the 404
 * grace after a start, in one place: right after a crawl or batch scrape
 * starts, the service may answer its status with 404 for a few seconds (the job
 * is not visible yet). Within {@link NOT_VISIBLE_GRACE_MS} of a start this
 * client made, or that a waiter timed, a 404 means "not yet", not "unknown":
 * the waiters and the watcher alike poll on.
 */
import { BudgetExceededError, NotFoundError } from "../core/errors.js";
import type { Budget } from "../core/config.js";
import { APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { send, type Endpoint } from "./endpoint.js";

/** How long after a job's start a 404 on its status means "not visible yet" rather than "unknown", ms. */
export const NOT_VISIBLE_GRACE_MS = 10_000;

/** Notes in the client's state (`http.state.starts`) that it started the job `started.id` now (notes past the grace are dropped); returns `started`. */
export function noteStart<T extends { id: string }>(http: HttpClient, started: T): T {
  const now = Date.now();
  const notes = http.state.starts;
  for (const [id, at] of notes) if (now - at >= NOT_VISIBLE_GRACE_MS) notes.delete(id);
  notes.set(started.id, now);
  return started;
}

/** When the client started the job `id`, if it did so within the grace. */
export function startedAt(http: HttpClient, id: string): number | undefined {
  return http.state.starts.get(id);
}

/** True when `err` is a 404 within the grace after the job's start at `at` (ms since the epoch). */
export function notYetVisible(err: unknown, at: number | undefined): boolean {
  return err instanceof NotFoundError && at !== undefined && Date.now() - at < NOT_VISIBLE_GRACE_MS;
}

/** What a job start (crawl, batch scrape; v1 too) reads: the job `id` and its status `url` (batch starts add fields to this shape). */
export const jobStartShape = { id: z.string(), url: z.string() };

/** The answer of a crawl or batch-scrape start, v1 and v2: {@link jobStartShape}, and `invalidURLs` when sent. */
export const jobStartedAnswer = z.looseObject({ ...jobStartShape, invalidURLs: z.optional(z.array(z.string())) });

/** Drops the `success` flag of a 2xx answer, keeping every other field. */
export function withoutSuccess<T>(raw: T & { success?: unknown }): T {
  const { success: _drop, ...rest } = raw;
  return rest as T;
}

/** Starts a job at `ep` (a crawl or batch-scrape route of either version) and notes the start for the 404 grace: `{ id, url, ... }` without `success`. */
export function startJob<T extends { id: string }, A extends unknown[]>(http: HttpClient, ep: Endpoint<A>, req: RequestOptions | undefined, ...args: A): APIPromise<T> {
  return send(http, ep, req, ...args).map((r) => noteStart(http, withoutSuccess(r as T)));
}

// Credit budgets: a job start's stated maximum against what is left (`ClientOptions.budget`, a waiter's `budget`).

/** The documented least cost of one page of a crawl or batch scrape, credits (API reference §1: the credits a start needs are its `limit` or its URL count; a basic scrape is 1 credit a page). */
export const CREDITS_PER_PAGE = 1;
/** A crawl's `limit` when none is given: the server's default (API reference §4.1). */
export const DEFAULT_CRAWL_LIMIT = 10_000;
/** An agent's `maxCredits` when none is given: the documented default (API reference §9, "docs: 2500"). */
export const DEFAULT_AGENT_MAX_CREDITS = 2_500;

/** The budget in force for a call and what was spent against it: the call's own (its job alone, from 0), else the client's (its meter's total); none without either. */
export function budgetOf(http: HttpClient, callBudget: Budget | undefined): { budget: Budget; spent: number } | undefined {
  if (callBudget) return { budget: callBudget, spent: 0 };
  const budget = http.config.budget;
  return budget && { budget, spent: http.state.credits.total };
}

/**
 * Refuses, before anything is sent, a job start whose stated maximum (`requested` credits) cannot fit in what
 * is left of the budget in force ({@link budgetOf}): a `BudgetExceededError`. A budget with nothing left refuses
 * every start, an extract's (which states no maximum, `requested` 0) too.
 */
export function refuseOverBudget(http: HttpClient, operation: string, requested: number, callBudget?: Budget): void {
  const held = budgetOf(http, callBudget);
  if (!held) return;
  const left = held.budget.credits - held.spent;
  if (requested > left || left <= 0) throw new BudgetExceededError({ budget: held.budget.credits, spent: held.spent, requested, operation });
}

/** A number the caller gave (not yet checked by the body's schema: a wrong type is that schema's error, after this), else `fallback`. */
export function statedOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** {@link refuseOverBudget} for a method that must reject, never throw (the v1 job starts): the rejected promise, or `undefined` when the start fits. */
export function budgetRefusal(http: HttpClient, operation: string, requested: number): APIPromise<never> | undefined {
  try {
    refuseOverBudget(http, operation, requested);
    return undefined;
  } catch (err) {
    return new APIPromise<never>(Promise.reject(err));
  }
}
