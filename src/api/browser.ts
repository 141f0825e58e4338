/**
 * Browser sessions (reference §10; each function names its route). A destroyed
 * session answers 410, thrown as a `GoneError`.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import { optionsArg, queryOptionsArg } from "../core/options.js";
import * as z from "zod/v4/mini";
import { anyObject, objects } from "../core/response.js";
import { check, int } from "../core/validate.js";
import { BROWSER_ACTIVITY_TTL, BROWSER_CODE, BROWSER_TIMEOUT, BROWSER_TTL } from "./limits.js";
import { send, type Endpoint } from "./endpoint.js";
import { withoutSuccess } from "./job-starts.js";
import type { ScrapeParams } from "./scrape.js";

/** Options of {@link browser}. */
export interface BrowserOptions extends Pick<ScrapeParams, "integration"> {
  /** Lifetime in seconds, 30..3600 (server default 600). */
  ttl?: number;
  /** Idle timeout in seconds, 10..3600 (server default 300). */
  activityTtl?: number;
  /** Stream a live view (default true). */
  streamWebView?: boolean;
  /** A persistent profile: cookies and storage saved under `name` (409 while another writer holds it). */
  profile?: { name: string; saveChanges?: boolean };
}

/** A created session (`POST /v2/browser`). */
export interface BrowserSession {
  /** Session id. */
  id: string;
  /** Chrome DevTools Protocol WebSocket URL (connect Playwright/Puppeteer here). */
  cdpUrl: string;
  /** Read-only live view URL. */
  liveViewUrl: string;
  interactiveLiveViewUrl: string;
  /** When the session ends at the latest, ISO 8601. */
  expiresAt: string;
}

/** A session as listed by `GET /v2/browser`. */
export interface BrowserSessionInfo extends Pick<BrowserSession, "id" | "cdpUrl" | "liveViewUrl" | "interactiveLiveViewUrl"> {
  status: "active" | "destroyed";
  /** Whether a live view is streamed. */
  streamWebView: boolean;
  /** Creation time, ISO 8601. */
  createdAt: string;
  /** Last activity, ISO 8601. */
  lastActivity: string;
}

/** Options of {@link browserExecute}. */
export interface BrowserExecuteOptions extends Pick<ScrapeParams, "origin"> {
  /** Code to run, 1..100000 characters. */
  code: string;
  /** `node` (default), `python` or `bash`. */
  language?: "node" | "python" | "bash";
  /** Server-side limit in seconds, 1..300 (default 30). */
  timeout?: number;
}

/** What a script produced. A non-zero `exitCode` (or `killed`) is still a result; `error` then holds stderr or "Execution failed". */
export interface BrowserExecuteResult {
  /** Standard output. */
  stdout: string;
  /** The script's result value, as the service reports it. */
  result: unknown;
  /** Standard error. */
  stderr: string;
  /** Exit code (0 = success). */
  exitCode: number;
  /** Whether the script was killed (e.g. by the timeout). */
  killed: boolean;
  /** Error text when `exitCode` is non-zero or the script was killed. */
  error?: string;
}

const createBody = z.looseObject({
  ttl: z.optional(int(BROWSER_TTL.min, BROWSER_TTL.max)),
  activityTtl: z.optional(int(BROWSER_ACTIVITY_TTL.min, BROWSER_ACTIVITY_TTL.max)),
  streamWebView: z.optional(z.boolean()),
  profile: z.optional(z.looseObject({ name: z.string().check(z.minLength(1), z.maxLength(128)), saveChanges: z.optional(z.boolean()) })),
  integration: z.optional(z.string()),
});

const executeBody = z.looseObject({
  code: z.string().check(z.minLength(BROWSER_CODE.min), z.maxLength(BROWSER_CODE.max)),
  language: z.optional(z.enum(["node", "python", "bash"])),
  timeout: z.optional(int(BROWSER_TIMEOUT.min, BROWSER_TIMEOUT.max)),
  origin: z.optional(z.string()),
});

const listQuery = z.object({ status: z.optional(z.enum(["active", "destroyed"])) });

/** What {@link browser} reads: the session id and the CDP URL to connect to. */
const sessionAnswer = z.looseObject({ id: z.string(), cdpUrl: z.string() });

/** What {@link browserExecute} reads: the exit code that says whether the script succeeded. */
const executeAnswer = z.looseObject({ exitCode: z.number() });

/** What {@link listBrowsers} reads. */
const listAnswer = z.looseObject({ sessions: objects });

const CREATE: Endpoint<[options: BrowserOptions], BrowserSession & { success?: boolean }, BrowserSession> = { op: "browser.create",
  path: "/v2/browser",
  body: (options) => check(createBody, optionsArg(options, "browser options"), "browser options"),
  retry: "not-idempotent",
  response: sessionAnswer,
  map: withoutSuccess,
};

const LIST: Endpoint<[options: { status?: "active" | "destroyed" }], { sessions: BrowserSessionInfo[] }, BrowserSessionInfo[]> = { op: "browser.list",
  path: "/v2/browser",
  query: (options) => check(listQuery, queryOptionsArg(options, "listBrowsers options"), "listBrowsers options"),
  response: listAnswer,
  map: (r) => r.sessions,
};

/** The `timeout` (seconds) is read by the route's `SERVER_TIMEOUTS` row. */
const EXECUTE: Endpoint<[id: string, options: BrowserExecuteOptions], BrowserExecuteResult & { success?: boolean }, BrowserExecuteResult> = { op: "browser.execute",
  path: "/v2/browser/{id}/execute",
  occupies: true,
  body: (_id, options) => check(executeBody, optionsArg(options, "browserExecute options"), "browserExecute options"),
  retry: "not-idempotent",
  response: executeAnswer,
  map: withoutSuccess,
};

type Deleted = { sessionDurationMs?: number; creditsBilled?: number };
const DELETE: Endpoint<[id: string], Deleted & { success?: boolean }, Deleted> = { op: "browser.delete", method: "DELETE", path: "/v2/browser/{id}", response: anyObject, map: withoutSuccess };

/** `POST /v2/browser`. Not retried after failures that may have created a session (it is billed). */
export function browser(http: HttpClient, options: BrowserOptions = {}, req?: RequestOptions): APIPromise<BrowserSession> {
  return send(http, CREATE, req, options);
}

/** `GET /v2/browser?status=`. */
export function listBrowsers(http: HttpClient, options: { status?: "active" | "destroyed" } = {}, req?: RequestOptions): APIPromise<BrowserSessionInfo[]> {
  return send(http, LIST, req, options);
}

/** `POST /v2/browser/:id/execute`. Not retried after a failure that may have run the code. */
export function browserExecute(http: HttpClient, id: string, options: BrowserExecuteOptions, req?: RequestOptions): APIPromise<BrowserExecuteResult> {
  return send(http, EXECUTE, req, id, options);
}

/** `DELETE /v2/browser/:id`. Resolves to whatever the server reports besides `success` (current servers: nothing). */
export function deleteBrowser(http: HttpClient, id: string, req?: RequestOptions): APIPromise<Deleted> {
  return send(http, DELETE, req, id);
}
