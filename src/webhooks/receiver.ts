/**
 * {@link webhookReceiver}: each delivery handled once, on one process or on replicas sharing a store; what it saw per
 * job is kept for {@link reconcileJob}.
 */
import { isRecord, ValidationError, WebhookVerificationError } from "../core/errors.js";
import { parseWebhook, type ParsedWebhook } from "../api/webhooks.js";
import { requestedUrl } from "../api/document.js";
import { memoryWebhookStore, type WebhookStore } from "./store.js";
import { reconcileJob, type JobKind, type ReconcileClient, type Reconciliation } from "./reconcile.js";

/** Options of {@link webhookReceiver}. */
export interface WebhookReceiverOptions {
  /** Your team's webhook secret: every delivery's `x-firecrawl-signature` is checked (a bad one throws `WebhookVerificationError`). Without it nothing is verified. */
  secret?: string | undefined;
  /** Where handled deliveries are remembered (default: {@link memoryWebhookStore}, this process only). Replicas share `redisWebhookStore` of `webdata/redis`. */
  store?: WebhookStore | undefined;
  /** How long a delivery is remembered, ms (default 86 400 000, a day: the service keeps a job's results 24 h). */
  ttlMs?: number | undefined;
  /** Prefix of the store's keys (default `webdata:webhook`): one per application sharing a Redis. */
  prefix?: string | undefined;
}

/** Default {@link WebhookReceiverOptions.ttlMs}: a day. */
export const DEFAULT_WEBHOOK_TTL_MS = 86_400_000;

/** A delivery seen for the first time: handle it. */
export interface FirstWebhook {
  /** False: handle it. */
  duplicate: false;
  /** `event`: an ordinary delivery. */
  kind: "event";
  /** The verified, parsed delivery. */
  event: ParsedWebhook;
}

/**
 * The first delivery of a job's cancellation: a failed page whose error says
 * the job was cancelled (the service fails every queued page of a cancelled
 * crawl or batch scrape, one delivery each), or `crawl.cancelled`. Reported
 * once per job, on whichever replica received it first.
 */
export interface CancellationWebhook {
  /** False: handle the cancellation (once). */
  duplicate: false;
  /** `cancelled`. */
  kind: "cancelled";
  /** The cancelled job. */
  jobId: string;
  /** Cancelled pages reported so far, this one included (more may follow, each a duplicate). */
  count: number;
  /** The delivery that reported it. */
  event: ParsedWebhook;
}

/** A delivery already handled (`repeat`), or a later page of a cancellation already reported (`cancellation`): acknowledge it, do nothing. */
export interface DuplicateWebhook {
  /** True: already handled. */
  duplicate: true;
  /** `repeat`: the same job, event and page again; `cancellation`: one more page of a cancel's flood. */
  reason: "repeat" | "cancellation";
  /** For `cancellation`: cancelled pages reported so far. */
  count?: number | undefined;
  /** The delivery, parsed. */
  event: ParsedWebhook;
}

/** What {@link WebhookReceiver.handle} resolves: check `duplicate` first. */
export type ReceivedWebhook = FirstWebhook | CancellationWebhook | DuplicateWebhook;

/** What the deliveries reported of one job, as {@link WebhookReceiver.seen} reads it from the store. */
export interface SeenDeliveries {
  /** The job's kind, from its events' names (`crawl.*` or `batch_scrape.*`), when one was seen. */
  kind: JobKind | undefined;
  /** The URL of every page delivered (scraped or failed, cancelled ones included). */
  pages: string[];
  /** The other events delivered (`crawl.started`, `crawl.completed`, ...). */
  events: string[];
}

/** A receiver built by {@link webhookReceiver}. */
export interface WebhookReceiver {
  /**
   * Verifies, parses and de-duplicates a delivery: reads the request's body and `x-firecrawl-signature`.
   * Answer 2xx for every result (a duplicate too); a `WebhookVerificationError` deserves a 401.
   */
  handle(request: Request): Promise<ReceivedWebhook>;
  /** {@link WebhookReceiver.handle} on a raw body and the signature header, for servers without `Request` (Express, node:http). */
  receive(rawBody: string | Uint8Array | ArrayBuffer, signature?: string | null | undefined): Promise<ReceivedWebhook>;
  /**
   * Gives back a delivery whose handling failed (after {@link WebhookReceiver.handle} resolved it as one to handle): its
   * claim and its mark among what the job's deliveries reported are forgotten, so the service's retry of it is handled
   * again, and {@link WebhookReceiver.reconcile} returns its page if no retry comes. A duplicate has nothing to give back.
   */
  release(received: ReceivedWebhook): Promise<void>;
  /** What the deliveries of `jobId` reported, from the store (every replica's, when it is shared). */
  seen(jobId: string): Promise<SeenDeliveries>;
  /**
   * Reads the job over REST and returns what its deliveries missed ({@link reconcileJob} with {@link WebhookReceiver.seen}):
   * REST is the record, webhooks a hint. `kind` is needed only when no delivery of the job named it.
   */
  reconcile(client: ReconcileClient, jobId: string, options?: { kind?: JobKind | undefined }): Promise<Reconciliation>;
}

/** A failed page of a cancelled job: the service's text ("...the parent crawl or batch scrape was cancelled"), or a job's "Job cancelled". */
const CANCELLED_PAGE = /\b(?:crawl|batch scrape|job)\b[^.]*\bcancell?ed\b/i;

/** The page a delivery is about: a scraped page's `metadata.sourceURL` (a failed one carries only that), a monitor page's `url`. */
function pageOf(event: ParsedWebhook): string | undefined {
  const first: unknown = event.data[0];
  if (!isRecord(first)) return undefined;
  const url = requestedUrl(first) ?? first.url;
  return typeof url === "string" && url !== "" ? url : undefined;
}

/** The job kind an event names (`crawl.page` is a crawl's), if it is one whose pages REST lists. */
function kindOf(type: string): JobKind | undefined {
  return type.startsWith("crawl.") ? "crawl" : type.startsWith("batch_scrape.") ? "batch" : undefined;
}

/**
 * The identity of a delivery: the job and the event, with the page for page events (the same page sent twice is
 * one delivery, whatever its `webhookId`), the `webhookId` for events a job sends many of without a page
 * (`agent.action`, a type this version does not know). Undefined when nothing identifies it (never de-duplicated).
 */
function identity(event: ParsedWebhook, page: string | undefined): string | undefined {
  if (event.id === undefined) return event.webhookId === undefined ? undefined : `delivery:${event.webhookId}`;
  if (page !== undefined && (event.type.endsWith(".page") || event.type.endsWith(".failed"))) return `${event.id}:${event.type}:page:${page}`;
  if (event.known && event.type !== "agent.action") return `${event.id}:${event.type}`;
  return event.webhookId === undefined ? undefined : `${event.id}:${event.type}:delivery:${event.webhookId}`;
}

/** A delivery's page (when it is about one) and its identity ({@link identity}). */
function identify(event: ParsedWebhook): { page: string | undefined; key: string | undefined } {
  const page = pageOf(event);
  return { page, key: identity(event, page) };
}

/** How a job's seen set remembers a delivery: `page:<url>` for a page event, else `event:<type>`. */
function seenMember(event: ParsedWebhook, page: string | undefined, key: string | undefined): string {
  return page !== undefined && key?.includes(":page:") ? `page:${page}` : `event:${event.type}`;
}

/** A cancel's delivery: a failed page whose error says the job was cancelled, `crawl.cancelled`, or a `*.failed` page event of a crawl or batch scrape. */
function cancellation(event: ParsedWebhook, page: string | undefined): boolean {
  if (event.type === "crawl.cancelled") return true;
  if (kindOf(event.type) === undefined || event.success !== false || page === undefined) return false;
  const error = "error" in event ? event.error : undefined;
  return event.type.endsWith(".failed") || (typeof error === "string" && CANCELLED_PAGE.test(error));
}

function checkOptions(o: WebhookReceiverOptions): void {
  const store = o.store as Partial<Record<keyof WebhookStore, unknown>> | undefined;
  const issues = [
    ...(o.secret === undefined || (typeof o.secret === "string" && o.secret !== "") ? [] : [{ path: "secret", message: "must be a non-empty string" }]),
    ...(store === undefined || (["claim", "increment", "remember", "members", "forget"] as const).every((m) => typeof store?.[m] === "function")
      ? []
      : [{ path: "store", message: "must be a WebhookStore (claim, increment, remember, members, forget): memoryWebhookStore() or redisWebhookStore({ redis })" }]),
    ...(o.ttlMs === undefined || (Number.isInteger(o.ttlMs) && o.ttlMs >= 1) ? [] : [{ path: "ttlMs", message: `must be an integer >= 1 (ms), got ${JSON.stringify(o.ttlMs) ?? typeof o.ttlMs}` }]),
    ...(o.prefix === undefined || (typeof o.prefix === "string" && o.prefix !== "") ? [] : [{ path: "prefix", message: "must be a non-empty string" }]),
  ];
  if (issues.length) throw new ValidationError(issues, "webhookReceiver options");
}

/** The store's key of what a job's deliveries reported. */
function seenKeyOf(prefix: string, jobId: string): string {
  return `${prefix}:${jobId}:seen`;
}

/** {@link WebhookReceiver.release} over `store`: the delivery's claim, its seen mark and, for a cancellation, the job's cancellation claim forgotten. */
function releaser(store: WebhookStore, prefix: string): (got: ReceivedWebhook) => Promise<void> {
  return async (got) => {
    if (got.duplicate) return;
    const { event } = got;
    const { page, key } = identify(event);
    const jobId = event.id;
    await Promise.all([
      key === undefined ? undefined : store.forget(`${prefix}:${key}`),
      jobId === undefined ? undefined : store.forget(seenKeyOf(prefix, jobId), seenMember(event, page, key)),
      got.kind === "cancelled" ? store.forget(`${prefix}:${got.jobId}:cancellation`) : undefined,
    ]);
  };
}

/**
 * A receiver that verifies each delivery, parses it, and tells whether it was handled already, here or on any
 * replica sharing its `store`. A delivery is identified by its job, its event and its page (the page's URL,
 * `metadata.sourceURL`: a scraped page and a failed one both carry it, and REST lists the same URL in the job's
 * documents and `/errors`); the service sends a page again on its retries with a new `webhookId`, so the
 * `webhookId` alone would not catch it. A cancel's flood (one failed page per queued URL) is reported once, as
 * `kind: "cancelled"`, and its later pages as duplicates. A delivery is claimed when it is received: if handling
 * it then fails, give it back with {@link WebhookReceiver.release}, and the service's retry is handled again (or
 * {@link WebhookReceiver.reconcile} finds its page from REST).
 *
 * @example
 * const receiver = webhookReceiver({ secret: process.env.WEBHOOK_SECRET, store: redisWebhookStore({ redis }) });
 * export async function POST(req: Request) {
 *   const got = await receiver.handle(req);
 *   if (got.duplicate) return new Response("ok");
 *   if (got.kind === "cancelled") markCancelled(got.jobId);
 *   else if (got.event.known && got.event.type === "crawl.page" && got.event.success) await save(got.event.data[0]);
 *   return new Response("ok");
 * }
 */
export function webhookReceiver(options: WebhookReceiverOptions = {}): WebhookReceiver {
  checkOptions(options ?? {});
  const { secret, store = memoryWebhookStore(), ttlMs = DEFAULT_WEBHOOK_TTL_MS, prefix = "webdata:webhook" } = options ?? {};
  const seenKey = (jobId: string) => seenKeyOf(prefix, jobId);

  const receive = async (rawBody: string | Uint8Array | ArrayBuffer, signature?: string | null): Promise<ReceivedWebhook> => {
    const event = await parseWebhook(rawBody, secret === undefined ? {} : { secret, signature });
    const { page, key } = identify(event);
    const jobId = event.id;
    if (jobId !== undefined) {
      // Remembered before the claim, by every replica that receives it: a replica that dies between the two loses nothing.
      const kind = kindOf(event.type);
      await Promise.all([kind === undefined ? undefined : store.remember(seenKey(jobId), `kind:${kind}`, ttlMs), store.remember(seenKey(jobId), seenMember(event, page, key), ttlMs)]);
    }
    if (key === undefined) return { duplicate: false, kind: "event", event };
    if (!(await store.claim(`${prefix}:${key}`, ttlMs))) return { duplicate: true, reason: "repeat", event };
    if (jobId === undefined || !cancellation(event, page)) return { duplicate: false, kind: "event", event };
    const count = await store.increment(`${prefix}:${jobId}:cancelled-pages`, page !== undefined && event.type !== "crawl.cancelled" ? 1 : 0, ttlMs);
    if (await store.claim(`${prefix}:${jobId}:cancellation`, ttlMs)) return { duplicate: false, kind: "cancelled", jobId, count, event };
    return { duplicate: true, reason: "cancellation", count, event };
  };

  const seen = async (jobId: string): Promise<SeenDeliveries> => {
    const members = await store.members(seenKey(jobId));
    const after = (tag: string) => members.filter((m) => m.startsWith(tag)).map((m) => m.slice(tag.length));
    return { kind: after("kind:")[0] as JobKind | undefined, pages: after("page:"), events: after("event:") };
  };

  return {
    release: releaser(store, prefix),
    handle: async (request) => {
      if (typeof (request as Partial<Request> | undefined)?.arrayBuffer !== "function" || typeof request.headers?.get !== "function") {
        throw new WebhookVerificationError("webhookReceiver.handle takes a Request (use receive(rawBody, signature) for other servers)");
      }
      return receive(await request.arrayBuffer(), request.headers.get("x-firecrawl-signature"));
    },
    receive,
    seen,
    reconcile: async (client, jobId, o = {}) => {
      const saw = await seen(jobId);
      return reconcileJob(client, jobId, { kind: o.kind ?? saw.kind, seen: saw });
    },
  };
}
