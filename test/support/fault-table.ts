/**
 * The operations of the fault-injection suite (one per operation class) and
 * what each must end in under each fault: the right result (every document
 * exactly once) or the right typed error, with a job start sent twice only
 * where the server de-duplicates it.
 */
import { WebSocket as WsWebSocket } from "ws";
import type { WebData } from "../../src/index.js";
import type { WatchEvent, WebSocketConstructor } from "../../src/jobs/watch-types.js";
import { JOB_ID, type FaultKind, type SeenRequest } from "./fault-server.js";
import { FAST_WATCH } from "./fast-poll.js";


/** What an operation ended in. */
export interface Outcome {
  ok: boolean;
  /** Scrape ids of the documents delivered (jobs only), in order. */
  docs?: string[];
  /** The error (when not ok). */
  error?: unknown;
}

/** One operation class of the table. */
export interface Operation {
  /** Column name. */
  name: string;
  /** Operation class: a sync call, a job start (de-duplicated or not), a status read, pagination, a waiter, a watcher, v1. */
  klass: string;
  /** The request the fault hits. */
  target: (r: SeenRequest) => boolean;
  /** How a retry of it is allowed: any failure (`safe`), with one idempotency key (`keyed`), or only when nothing was created (`start`). */
  retry: "safe" | "keyed" | "start" | "watcher";
  /** Runs it; must stop when `signal` aborts. */
  run: (client: WebData, signal: AbortSignal) => Promise<Outcome>;
  /** Delivers documents (all three of the job must arrive, each once). */
  documents?: boolean;
  /** The target is a request the operation repeats by design (a waiter's polls): its count is not checked. */
  repeats?: boolean;
}

const NodeWebSocket: WebSocketConstructor = WsWebSocket;

/** `maxRetries` of the clients under test (`test/faults.test.ts`). */
export const CLIENT_MAX_RETRIES = 2;
/**
 * First backoff step of the clients under test, ms, through the internal test-only option
 * (`BACKOFF_BASE_OPTION` in `src/core/retry.ts`; the public base is 500 ms). The cases run concurrently
 * over real sockets, where fake timers cannot drive the waits, and the backoff's numbers are checked
 * on a fake clock elsewhere (`test/request.test.ts`): here only what retries and what each case ends in
 * matter. At 500 ms a watcher row under a refused connection slept 6 to 9 s.
 */
export const CLIENT_BACKOFF_BASE_MS = 20;
/** `maxPollFailures` of the watchers under test: failed REST reads in a row before the watcher gives up. */
const WATCH_MAX_POLL_FAILURES = 3;
/**
 * Longest one request takes to fail when every attempt fails at once (a refused connection): the request
 * layer's backoff waits at their longest (the base doubling per retry, randomised up to twice the step).
 */
const WORST_FAILING_REQUEST_MS = 2 * CLIENT_BACKOFF_BASE_MS * (2 ** CLIENT_MAX_RETRIES - 1);
const statusGet = (r: SeenRequest) => r.method === "GET" && !r.upgrade && r.path.startsWith(`/v2/crawl/${JOB_ID}`);

const ids = (docs: { metadata?: { scrapeId?: unknown } }[]) => docs.map((d) => String(d.metadata?.scrapeId));

async function watch(client: WebData, signal: AbortSignal, transport: "websocket" | "sse" | "poll"): Promise<Outcome> {
  // The public poll floor is 500 ms (house rule): FAST_WATCH lowers it to 50 ms through the test-only option,
  // so `maxPollFailures` failed reads fit in the deadline (plain `pollIntervalMs: 50` is raised to 500).
  const w = client.watcher(JOB_ID, { ...FAST_WATCH, webSocket: NodeWebSocket, transports: [transport], maxReconnects: 2, maxPollFailures: WATCH_MAX_POLL_FAILURES, signal });
  const events: WatchEvent[] = [];
  try {
    for await (const e of w) events.push(e);
  } catch (error) {
    return { ok: false, error, docs: ids(events.flatMap((e) => (e.type === "document" ? [e.document] : []))) };
  }
  const done = events.some((e) => e.type === "done" && e.status === "completed");
  return { ok: done, docs: ids(events.flatMap((e) => (e.type === "document" ? [e.document] : []))), error: done ? undefined : new Error("no done event") };
}

/** The operations, one per class (the watcher once per transport). */
export const OPERATIONS: Operation[] = [
  {
    name: "scrape",
    klass: "sync call",
    target: (r) => r.method === "POST" && r.path === "/v2/scrape",
    retry: "safe",
    run: async (c, signal) => {
      const r = await c.scrape("https://site.test/d0", { formats: ["markdown"] }, { signal });
      return { ok: r.markdown === "# page d0" };
    },
  },
  {
    name: "startCrawl",
    klass: "job start (de-duplicated)",
    target: (r) => r.method === "POST" && r.path === "/v2/crawl",
    retry: "keyed",
    run: async (c, signal) => ({ ok: (await c.startCrawl("https://site.test/", { limit: 3 }, { signal })).id === JOB_ID }),
  },
  {
    name: "startBatchScrape",
    klass: "job start (not de-duplicated)",
    target: (r) => r.method === "POST" && r.path === "/v2/batch/scrape",
    retry: "start",
    run: async (c, signal) => ({ ok: (await c.startBatchScrape(["https://site.test/d0"], {}, { signal })).id === JOB_ID }),
  },
  {
    name: "getCrawlStatus",
    klass: "status read",
    target: statusGet,
    retry: "safe",
    run: async (c, signal) => {
      const s = await c.getCrawlStatus(JOB_ID, undefined, { signal });
      return { ok: s.status === "completed" && s.total === 3 && s.data.length === 2 };
    },
  },
  {
    name: "crawlDocuments",
    klass: "pagination",
    target: (r) => statusGet(r) && r.path.includes("skip=2"),
    retry: "safe",
    documents: true,
    run: async (c, signal) => {
      const docs: string[] = [];
      try {
        for await (const d of c.crawlDocuments(JOB_ID, { signal, pollIntervalMs: 500 })) docs.push(String(d.metadata.scrapeId));
      } catch (error) {
        return { ok: false, error, docs };
      }
      return { ok: true, docs };
    },
  },
  {
    name: "crawl",
    klass: "waiter",
    target: statusGet,
    retry: "safe",
    documents: true,
    repeats: true,
    run: async (c, signal) => {
      const job = await c.crawl("https://site.test/", { limit: 3, timeoutMs: 3_000, pollIntervalMs: 500, signal });
      return { ok: job.status === "completed", docs: ids(job.data) };
    },
  },
  { name: "watch ws", klass: "watcher (WebSocket)", target: (r) => r.upgrade, retry: "watcher", documents: true, run: (c, s) => watch(c, s, "websocket") },
  { name: "watch sse", klass: "watcher (SSE)", target: (r) => statusGet(r) && r.accept.includes("text/event-stream"), retry: "watcher", documents: true, run: (c, s) => watch(c, s, "sse") },
  { name: "watch poll", klass: "watcher (polling)", target: statusGet, retry: "watcher", documents: true, run: (c, s) => watch(c, s, "poll") },
  {
    name: "v1 scrapeUrl",
    klass: "v1",
    target: (r) => r.method === "POST" && r.path === "/v1/scrape",
    retry: "safe",
    run: async (c, signal) => {
      const r = await c.v1.scrapeUrl("https://site.test/d0", { formats: ["markdown"] }, { signal });
      return { ok: r.success === true && "markdown" in r && r.markdown === "# page d0" };
    },
  },
];

/** Faults that only some operations meet (a body limit matters where bodies are big; loops where `next` is followed). */
const ONLY: Partial<Record<FaultKind, string[]>> = {
  "huge body": ["scrape", "getCrawlStatus"],
  "next loops": ["crawlDocuments", "crawl", "watch poll"],
  "ws replay+drop": ["watch ws"],
};

/** True when the table has a cell for `fault` x `op`. */
export function applies(fault: FaultKind, op: Operation): boolean {
  return ONLY[fault]?.includes(op.name) ?? true;
}

/** How many requests the fault hits (the loop and the storm: every one). */
export function timesOf(fault: FaultKind): number {
  return fault === "next loops" || fault === "ws replay+drop" || fault === "refused" ? 1_000_000 : 1;
}

/** What the right ending is: success, or an error of one of these classes. */
export interface Expected {
  /** Success (every document once where the operation delivers documents). */
  ok: boolean;
  /** Acceptable error class names (by `name`, so classes added by parallel work need no import). */
  errors: string[];
  /** A start may also end in the fault's own error when it was not retried (keyed starts without a key). */
  orError?: string[];
  /** Success is right too. */
  orOk?: boolean | undefined;
  /** Exact number of requests the fault's target may receive (unchecked when absent). */
  targetRequests?: number;
  /** Most requests in all (loops, storms). */
  maxRequests?: number;
  /** Longest time to the ending, ms (default {@link DEADLINE_MS}). */
  deadlineMs?: number;
}

/** Default longest time from the call to its result or error, ms. */
export const DEADLINE_MS = 3_000;

const TRANSIENT: Record<string, string> = {
  "429 retry-after-ms": "RateLimitError",
  "429 Retry-After secs": "RateLimitError",
  "429 Retry-After date": "RateLimitError",
  "429 body text": "RateLimitError",
  "429 no hint": "RateLimitError",
  "503 retry-after-ms": "InternalServerError",
  "408 retry-after-ms": "RequestTimeoutError",
  "502 HTML page": "InternalServerError",
  "reset before headers": "ConnectionError",
  "reset mid-body": "ConnectionError",
  "stall before headers": "TimeoutError",
  "stall mid-body": "TimeoutError",
  drip: "TimeoutError",
};
const BAD_BODY = new Set<FaultKind>(["truncated JSON", "invalid JSON", "HTML page 200", "empty body 200", "2xx wrong shape"]);

/** The right ending of `fault` x `op` (DESIGN.md's retry rules, per operation class). */
export function expected(fault: FaultKind, op: Operation): Expected {
  // Every attempt is refused at once, so the request layer's backoff is the time: one failing request takes up
  // to WORST_FAILING_REQUEST_MS (120 ms at a 20 ms base; 3 s at the public 500 ms). A watcher polls on through
  // `maxPollFailures` such reads, plus the event-stream request for SSE (a refused WebSocket falls back at
  // once), with 50 ms pauses. Each gets a 1 s margin.
  if (fault === "refused") {
    const reads = op.retry === "watcher" ? WATCH_MAX_POLL_FAILURES + (op.name === "watch sse" ? 1 : 0) : 1;
    return { ok: false, errors: ["ConnectionError"], deadlineMs: reads * WORST_FAILING_REQUEST_MS + 1_000 };
  }
  if (op.retry === "watcher") {
    // A watcher gets past a broken stream or poll by falling back and polling on; the loop and the storm are bounded.
    if (fault === "next loops") return { ok: false, errors: ["WebDataError", "InvalidResponseError"], maxRequests: 20 };
    return { ok: true, errors: [], maxRequests: fault === "ws replay+drop" ? 20 : undefined };
  }
  if (fault === "gzip body") return { ok: true, errors: [], targetRequests: 1 };
  if (fault === "429 too long") return { ok: false, errors: ["RateLimitError"], targetRequests: 1 };
  if (fault === "huge body") return { ok: false, errors: ["InvalidResponseError", "WebDataError", "ResponseTooLargeError"] };
  if (fault === "next loops") return { ok: false, errors: ["WebDataError", "InvalidResponseError"], maxRequests: 20 };
  // An iterator may also read the page again and deliver everything (nothing lost, nothing repeated).
  if (BAD_BODY.has(fault)) return { ok: false, errors: ["InvalidResponseError"], orOk: op.documents };
  // A 3xx is never a result and never retried (the API never redirects).
  if (fault === "3xx redirect") return { ok: false, errors: ["RedirectError"], targetRequests: 1 };
  const own = TRANSIENT[fault];
  if (!own) throw new Error(`no expectation for ${fault}`);
  if (op.retry === "start") {
    // Only a 429 proves nothing was created.
    return fault.startsWith("429") ? { ok: true, errors: [], targetRequests: 2 } : { ok: false, errors: [own], targetRequests: 1 };
  }
  if (op.retry === "keyed") return { ok: true, errors: [], orError: [own] };
  return { ok: true, errors: [], targetRequests: 2 };
}
