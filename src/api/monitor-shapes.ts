/**
 * The shapes a page monitor's check shares between its answers (`api/monitor.ts`) and its webhook
 * deliveries (`api/webhooks.ts`): in a module of their own, because `monitor.ts` reads crawl and scrape
 * options, whose module reads the webhook types (one home, no import cycle).
 */

/** How a check ended, or where it is. */
export type MonitorCheckStatus = "queued" | "running" | "completed" | "failed" | "partial" | "skipped_overlap" | "skipped_no_credits";

/** What a check found of one page. */
export type MonitorPageStatus = "same" | "new" | "changed" | "removed" | "error";

/** Pages of a check, by outcome. */
export interface MonitorSummary {
  /** Pages read. */
  totalPages: number;
  /** Unchanged. */
  same: number;
  changed: number;
  /** Seen for the first time. */
  new: number;
  /** Gone since the last check. */
  removed: number;
  /** Failed. */
  error: number;
}
