/**
 * A credit budget while a waiter waits: after each status read of the job it waits on, the credits spent
 * against the budget in force (the call's `budget`: the job's own `creditsUsed`; else the client's: the
 * client's meter, `client.credits.total`) are compared with it; once they pass it, the job is cancelled
 * (`onExceeded: "cancel"`, the default; not an extract, which has no cancel) and a `BudgetExceededError`
 * carries the documents fetched so far. The refusal before a start is `api/job-starts.ts` `refuseOverBudget`.
 */
import { budgetOf } from "../api/job-starts.js";
import type { Budget } from "../core/config.js";
import { BudgetExceededError } from "../core/errors.js";
import type { HttpClient } from "../core/request.js";

/** What {@link budgetWatch} needs of one waited job. */
export interface BudgetedJob {
  /** `crawl`, `batchScrape`, `agent`, `extract` (for the error). */
  operation: string;
  /** The job's id. */
  id: string;
  /** The call's stated maximum, credits (for the error). */
  requested: number;
  /** Cancels the job (absent: the job has no cancel, an extract). Its failure (a job that just ended: 409) is not the caller's error. */
  cancel?: ((signal: AbortSignal) => Promise<unknown>) | undefined;
  /** The documents the job has fetched so far (crawl, batch scrape), read after the cancel. */
  documents?: ((signal: AbortSignal) => Promise<unknown[]>) | undefined;
}

/** True for a status that will not change any more (`scraping`/`processing` is the running state of every kind of job). */
function ended(status: unknown): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * The check a waiter runs after each status read of `job`, or `undefined` when no budget is in force (the
 * call's `budget`, else the client's): it throws `BudgetExceededError` once the credits spent pass the
 * budget, after cancelling a running job unless `onExceeded` is `"throw"`.
 */
export function budgetWatch(http: HttpClient, callBudget: Budget | undefined, job: BudgetedJob): ((status: { status?: unknown }, signal: AbortSignal) => Promise<void>) | undefined {
  const held = budgetOf(http, callBudget);
  if (!held) return undefined;
  const { budget } = held;
  return async (status, signal) => {
    // The sender counted this status's `creditsUsed` on the meter before the waiter saw it.
    const spent = (callBudget ? http.state.credits?.job(job.id) : http.state.credits?.total) ?? 0;
    if (spent <= budget.credits) return;
    let cancelled = false;
    if (budget.onExceeded !== "throw" && job.cancel && !ended(status.status)) {
      try {
        await job.cancel(signal);
        cancelled = true;
      } catch {
        // The job ended between the read and the cancel (409), or the cancel failed: the error below says it was not cancelled.
      }
    }
    let documents: unknown[] = [];
    try {
      documents = job.documents ? await job.documents(signal) : [];
    } catch {
      // The documents could not be read: the error still says what was spent.
    }
    throw new BudgetExceededError({ budget: budget.credits, spent, requested: job.requested, operation: job.operation, jobId: job.id, cancelled, documents, lastStatus: status });
  };
}
