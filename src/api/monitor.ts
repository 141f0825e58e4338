/**
 * Page monitors, added by the service after the reference's baseline (§14:
 * `/v2/monitor` CRUD, runs and checks; webhook events `monitor.page` and
 * `monitor.check.completed`). Wire read from the server
 * (`apps/api/src/routes/v2.ts`, `controllers/v2/monitor.ts`,
 * `services/monitoring/types.ts`; MIGRATION.md "Wire of the later endpoints"); each
 * function's JSDoc gives its answer; an unknown monitor is 404 "Monitor not found".
 */
import type { APIPromise, HttpClient, RequestOptions, RequestSpec } from "../core/request.js";
import { send, type Endpoint } from "./endpoint.js";
import * as z from "zod/v4/mini";
import { anyObject, objects } from "../core/response.js";
import { check, int } from "../core/validate.js";
import { MONITOR_NAME, MONITOR_PAGE } from "./limits.js";
import type { CrawlOptions } from "./crawl.js";
import type { ScrapeOptions } from "./scrape.js";
import type { MonitorCheckStatus, MonitorPageStatus, MonitorSummary } from "./monitor-shapes.js";
import type { MonitorPageWebhookData, WebhookObject } from "./webhooks.js";

export type { MonitorCheckStatus, MonitorPageStatus, MonitorSummary } from "./monitor-shapes.js";

/** When a monitor runs: exactly one of `cron` (5 fields) or `text` ("every 30 minutes", "daily at 9:00") on create and update; answers always carry `cron`. */
export interface MonitorSchedule {
  /** A 5-field cron expression. */
  cron?: string;
  /** A schedule in words, turned into `cron` by the server. */
  text?: string;
  /** IANA time zone (server default `UTC`). */
  timezone?: string;
}

/** A monitor's e-mail notification. */
export interface MonitorEmailNotification {
  /** Send e-mails. */
  enabled?: boolean;
  /** Addresses (at most 25); people outside the team confirm by e-mail first. */
  recipients?: string[];
  /** Put the diffs in the e-mail. */
  includeDiffs?: boolean;
}

/** A monitor's notifications. */
export interface MonitorNotification {
  email?: MonitorEmailNotification;
}

/** Where a monitor's webhook goes (events `monitor.page`, `monitor.check.completed`): the `webhook` object of job starts. */
export interface MonitorWebhookConfig extends WebhookObject<string> {}

/** Watch these pages. */
export interface MonitorScrapeTarget {
  /** Set by the server. */
  id?: string;
  type: "scrape";
  /** The pages. */
  urls: string[];
  /** Scrape options of each read. */
  scrapeOptions?: ScrapeOptions;
}

/** Watch a site, crawled at each run. */
export interface MonitorCrawlTarget extends Pick<MonitorScrapeTarget, "id"> {
  type: "crawl";
  /** Where the crawl starts. */
  url: string;
  /** Crawl options of each run. */
  crawlOptions?: CrawlOptions;
  /** Scrape options of each page. */
  scrapeOptions?: ScrapeOptions;
}

/** Watch search results (needs the monitor's `goal`). */
export interface MonitorSearchTarget extends Pick<MonitorScrapeTarget, "id"> {
  type: "search";
  /** The queries (1 to 12). */
  queries: string[];
  /** How far back each run looks (server default `24h`). */
  searchWindow?: "5m" | "15m" | "1h" | "6h" | "24h" | "7d";
  /** Only these domains. */
  includeDomains?: string[];
  /** Not these domains. */
  excludeDomains?: string[];
  /** Results per query, 1 to 50 (server default 10). */
  maxResults?: number;
}

/** What a monitor watches. */
export type MonitorTarget = MonitorScrapeTarget | MonitorCrawlTarget | MonitorSearchTarget;

/** `createMonitor`'s request. */
export interface CreateMonitorRequest {
  /** Its name (1 to 256 characters). */
  name: string;
  /** When it runs. */
  schedule: MonitorSchedule;
  /** Webhook of its events. */
  webhook?: MonitorWebhookConfig;
  /** E-mail notification. */
  notification?: MonitorNotification;
  /** What it watches (1 to 50 targets). */
  targets: MonitorTarget[];
  /** Days a check is kept, 1 to 365 (server default 30). */
  retentionDays?: number;
  /** What counts as a meaningful change (required with a search target, unless `judgeEnabled: false`). */
  goal?: string | null;
  /** Judge each change against `goal` (default: on when a goal is given). */
  judgeEnabled?: boolean;
}

/** `updateMonitor`'s request: the fields to change (at least one); `null` clears webhook, notification or goal. */
export interface UpdateMonitorRequest extends Partial<Pick<CreateMonitorRequest, "name" | "schedule" | "retentionDays" | "judgeEnabled">> {
  /** Pause or resume. */
  status?: "active" | "paused";
  /** New webhook, or `null` for none. */
  webhook?: MonitorWebhookConfig | null;
  /** New notification, or `null` for none. */
  notification?: MonitorNotification | null;
  /** New targets (replace the old ones). */
  targets?: MonitorTarget[];
  /** New goal, or `null` for none. */
  goal?: string | null;
}

/** A monitor as the server keeps it. */
export interface Monitor extends Pick<CreateMonitorRequest, "goal" | "judgeEnabled"> {
  id: string;
  name: string;
  status: "active" | "paused" | "deleted";
  /** Its schedule (with the normalized `cron`). */
  schedule: MonitorSchedule;
  /** Next scheduled run, ISO 8601. */
  nextRunAt?: string | null;
  /** Last run, ISO 8601. */
  lastRunAt?: string | null;
  /** The check running now. */
  currentCheckId?: string | null;
  /** What it watches (each with its `id`). */
  targets: MonitorTarget[];
  webhook?: MonitorWebhookConfig | null;
  notification?: MonitorNotification | null;
  /** Opt-in state of each e-mail recipient (create, update, get). */
  emailRecipientSubscriptions?: { email: string; status: "pending" | "confirmed" | "unsubscribed"; source: "team" | "opt_in" | "legacy"; confirmationEmailSent?: boolean }[];
  /** Days a check is kept. */
  retentionDays: number;
  /** The server's estimate of its monthly credits. */
  estimatedCreditsPerMonth?: number | null;
  /** The last check's summary. */
  lastCheckSummary?: MonitorSummary | null;
  /** Created, ISO 8601. */
  createdAt: string;
  /** Updated, ISO 8601. */
  updatedAt: string;
}

/** One run of a monitor. */
export interface MonitorCheck extends Pick<Monitor, "id" | "createdAt" | "updatedAt"> {
  monitorId: string;
  /** Where it is. */
  status: MonitorCheckStatus;
  /** `scheduled` or `manual` (`runMonitor`). */
  trigger: "scheduled" | "manual";
  /** When it was due. */
  scheduledFor?: string | null;
  startedAt?: string | null;
  finishedAt?: string | null;
  /** Credits estimated up front. */
  estimatedCredits?: number | null;
  reservedCredits?: number | null;
  /** Credits spent. */
  actualCredits?: number | null;
  /** Billing state. */
  billingStatus: "not_applicable" | "reserved" | "confirmed" | "released" | "failed";
  /** Pages by outcome. */
  summary: MonitorSummary;
  /** Per target: the scrape jobs, the crawl id, or the search's results. */
  targetResults?: ({ targetId: string; type: "scrape" | "crawl" | "search" } & Record<string, unknown>)[] | null;
  /** Webhook and e-mail delivery. */
  notificationStatus?: unknown;
  /** Why it failed. */
  error?: string | null;
}

/** One page of a check. */
export interface MonitorCheckPage extends Pick<MonitorPageWebhookData, "url" | "status" | "previousScrapeId" | "currentScrapeId" | "error" | "judgment">, Pick<Monitor, "id" | "createdAt"> {
  /** The target it belongs to. */
  targetId: string;
  /** The page's HTTP status. */
  statusCode?: number | null;
  /** The page's metadata. */
  metadata?: unknown;
  /** The change: `text` (a git-style diff) and/or `json` (its parsed form, or a per-field diff). */
  diff?: { text?: string; json?: Record<string, { previous: unknown; current: unknown }> | { files: unknown[] } } | null;
  /** The JSON extraction now (JSON monitors). */
  snapshot?: { json?: Record<string, unknown> } | null;
}

/** A check with one page of its pages. */
export interface MonitorCheckDetail extends MonitorCheck {
  /** Its pages (one page of them: `limit`, from `skip`). */
  pages: MonitorCheckPage[];
  /** Absolute URL of the next page of pages; absent on the last. */
  next?: string | null;
}

/** `listMonitors` / `listMonitorChecks` paging. */
export interface ListMonitorsOptions {
  /** At most this many, 1 to 100 (server default 25). */
  limit?: number;
  /** Skip this many. */
  offset?: number;
}

/** `listMonitorChecks` options. */
export interface ListMonitorChecksOptions extends ListMonitorsOptions {
  /** Only checks in this state. */
  status?: MonitorCheck["status"];
}

/** `getMonitorCheck` options: one page of the check's pages. */
export interface MonitorCheckPageOptions extends Pick<ListMonitorsOptions, "limit"> {
  /** Skip this many pages. */
  skip?: number;
  /** Only pages with this outcome. */
  status?: MonitorCheckPage["status"];
}

const schedule = z.looseObject({ cron: z.optional(z.string()), text: z.optional(z.string()), timezone: z.optional(z.string()) }).check(
  z.refine((s) => (s.cron === undefined) !== (s.text === undefined), { message: "give exactly one of cron or text", path: ["cron"] }),
);
// Each target's own fields are the server's to check (400 naming the field); the kind is checked here.
const targets = z.array(z.looseObject({ type: z.enum(["scrape", "crawl", "search"]) })).check(z.minLength(1), z.maxLength(50));
const name = z.string().check(z.minLength(MONITOR_NAME.min), z.maxLength(MONITOR_NAME.max));
const createBody = z.looseObject({ name, schedule, targets, retentionDays: z.optional(int(1, 365)) });
const updateBody = z
  .looseObject({ name: z.optional(name), schedule: z.optional(schedule), targets: z.optional(targets), retentionDays: z.optional(int(1, 365)), status: z.optional(z.enum(["active", "paused"])) })
  .check(z.refine((b) => Object.keys(b).length > 0, { message: "give at least one field to change" }));
const paging = z.object({ limit: z.optional(int(MONITOR_PAGE.min, MONITOR_PAGE.max)), offset: z.optional(int(0)), skip: z.optional(int(0)), status: z.optional(z.string()) });

/** Every monitor answer but delete's: `{ success: true, data }`, the result `data`. */
const DATA = { response: z.looseObject({ data: anyObject }), map: (r: { data: never }) => r.data };
const LIST = { response: z.looseObject({ data: objects }), map: DATA.map } as const;

/** The paging query of a list or check read (checked under `context`). */
function paged(options: object | undefined, context: string): RequestSpec["query"] {
  const { limit, offset, skip, status } = check(paging, (options ?? {}) as { limit?: number; offset?: number; skip?: number; status?: string }, context);
  return { limit, offset, skip, status };
}

// Writes are not retried once they may have acted, but for the update, which sets the same values again.
const CREATE: Endpoint<[request: CreateMonitorRequest], { data: never }, Monitor> = { ...DATA, op: "monitor.create", path: "/v2/monitor", body: (request) => check(createBody, request, "createMonitor request"), retry: "not-idempotent" };
const LIST_MONITORS: Endpoint<[options?: ListMonitorsOptions], { data: never }, Monitor[]> = { ...LIST, op: "monitor.list", path: "/v2/monitor", query: (options) => paged(options, "listMonitors options") };
const GET: Endpoint<[id: string], { data: never }, Monitor> = { ...DATA, op: "monitor.get", path: "/v2/monitor/{id}" };
const UPDATE: Endpoint<[id: string, request: UpdateMonitorRequest], { data: never }, Monitor> = { ...DATA, op: "monitor.update", method: "PATCH", path: "/v2/monitor/{id}", body: (_id, request) => check(updateBody, request, "updateMonitor request") };
const DELETE: Endpoint<[id: string], { success?: boolean }, boolean> = { op: "monitor.delete", method: "DELETE", path: "/v2/monitor/{id}", response: anyObject, map: (r) => r.success === true };
const RUN: Endpoint<[id: string], { data: never }, MonitorCheck> = { ...DATA, op: "monitor.run", path: "/v2/monitor/{id}/run", body: () => ({}), retry: "not-idempotent" };
const CHECKS: Endpoint<[id: string, options?: ListMonitorChecksOptions], { data: never }, MonitorCheck[]> = { ...LIST, op: "monitor.checks", path: "/v2/monitor/{id}/checks", query: (_id, options) => paged(options, "listMonitorChecks options") };
const CHECK: Endpoint<[id: string, checkId: string, options?: MonitorCheckPageOptions], { data: never }, MonitorCheckDetail> = { ...DATA, op: "monitor.check", path: "/v2/monitor/{id}/checks/{checkId}", query: (_id, _checkId, options) => paged(options, "getMonitorCheck options") };

/** `POST /v2/monitor`. */
export const createMonitor = (http: HttpClient, request: CreateMonitorRequest, req?: RequestOptions): APIPromise<Monitor> => send(http, CREATE, req, request);

/** `GET /v2/monitor?limit=&offset=`. */
export const listMonitors = (http: HttpClient, options?: ListMonitorsOptions, req?: RequestOptions): APIPromise<Monitor[]> => send(http, LIST_MONITORS, req, options);

/** `GET /v2/monitor/:id`. */
export const getMonitor = (http: HttpClient, id: string, req?: RequestOptions): APIPromise<Monitor> => send(http, GET, req, id);

/** `PATCH /v2/monitor/:id`. */
export const updateMonitor = (http: HttpClient, id: string, request: UpdateMonitorRequest, req?: RequestOptions): APIPromise<Monitor> => send(http, UPDATE, req, id, request);

/** `DELETE /v2/monitor/:id` (answers `{ success: true }`). */
export const deleteMonitor = (http: HttpClient, id: string, req?: RequestOptions): APIPromise<boolean> => send(http, DELETE, req, id);

/** `POST /v2/monitor/:id/run` (answers `{ success, id, data: check }`; 409 when paused or already running). */
export const runMonitor = (http: HttpClient, id: string, req?: RequestOptions): APIPromise<MonitorCheck> => send(http, RUN, req, id);

/** `GET /v2/monitor/:id/checks?limit=&offset=&status=`. */
export const listMonitorChecks = (http: HttpClient, id: string, options?: ListMonitorChecksOptions, req?: RequestOptions): APIPromise<MonitorCheck[]> => send(http, CHECKS, req, id, options);

/** `GET /v2/monitor/:id/checks/:checkId?limit=&skip=&status=`: one page of the check's pages (`next` names the following one). */
export const getMonitorCheck = (http: HttpClient, id: string, checkId: string, options?: MonitorCheckPageOptions, req?: RequestOptions): APIPromise<MonitorCheckDetail> => send(http, CHECK, req, id, checkId, options);
