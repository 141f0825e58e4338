/**
 * Webhooks in the fake service, written against the service's spec (reference
 * §4.10), not against the client: {@link signWebhook} signs a delivery as the
 * service signs it, and the fake's crawls and batch scrapes POST their events
 * ({@link emitJobWebhook}) to the job's `webhook` as the service does, honouring
 * `events` and echoing `metadata`. The fake sends them only once the test gives
 * it a secret or a fetch, so a test that names a real URL never reaches it.
 * Deliveries are fire-and-forget, in order per job, with no retry (the
 * service's direct path has none). Portable: only web-standard globals.
 */
import { stateOf } from "./handlers/scrape.js";
import type { FakeService } from "./service.js";

/** A fetch-compatible function: where the fake's deliveries go out (default: the global `fetch`). */
export type WebhookFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** One webhook event, as the service builds it; missing fields get the service's values. */
export interface WebhookEventInit {
  /** The event name (`type`), e.g. `crawl.page`; any string, a future event's too. */
  type: string;
  /** The job id (`id`); left out when absent. */
  id?: string | undefined;
  /** `success` (default true). */
  success?: boolean | undefined;
  /** Unique per delivery (`webhookId`, default a fresh UUID). */
  webhookId?: string | undefined;
  /** `data` (default `[]`). */
  data?: unknown[] | undefined;
  /** `error`, left out when absent. */
  error?: string | undefined;
  /** `metadata` (default `{}`: the service echoes the webhook's, `{}` when it has none). */
  metadata?: Record<string, string> | undefined;
  /** Any other field, sent after these (a future delivery's). */
  [field: string]: unknown;
}

/** Options of {@link signWebhook}: the secret and either an event or the exact body. */
export interface SignWebhookOptions {
  /** The webhook secret the receiver verifies with. */
  secret: string;
  /** The event to send, serialized as the service serializes it (fields in its order). */
  event?: WebhookEventInit | undefined;
  /** The exact body to sign instead of `event` (for bodies the service would never send). */
  body?: string | undefined;
  /** Your `webhook.headers`, sent along as the service sends them. */
  headers?: Record<string, string> | undefined;
}

/** A signed delivery: spread it into `fetch(url, signed)` or `new Request(url, signed)`. */
export interface SignedWebhook {
  /** Always `POST`. */
  method: "POST";
  /** The exact body (JSON text) the signature covers. */
  body: string;
  /** `content-type: application/json`, your headers, and `x-firecrawl-signature` (names lower-cased, as a receiver reads them). */
  headers: Record<string, string>;
  /** The `x-firecrawl-signature` value: `sha256=<hex>`. */
  signature: string;
}

const encoder = new TextEncoder();

/** HMAC-SHA256 of `body` under `secret`, as lower-case hex (Web Crypto). */
async function hmacHex(secret: string, body: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("signWebhook needs Web Crypto (globalThis.crypto.subtle)");
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await subtle.sign("HMAC", key, encoder.encode(body)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The body of an event, fields in the order the service writes them (`undefined` ones left out, as `JSON.stringify` does). */
export function webhookBody(event: WebhookEventInit, webhookId: () => string = () => globalThis.crypto.randomUUID()): string {
  const { success, type, id, webhookId: given, data, error, metadata, ...extra } = event;
  return JSON.stringify({ success: success ?? true, type, id, webhookId: given ?? webhookId(), data: data ?? [], error, metadata: metadata ?? {}, ...extra });
}

/**
 * Signs a webhook delivery as the service does, for a receiver's tests: the
 * body and the headers a real delivery has, `x-firecrawl-signature` (`sha256=`
 * and the HMAC-SHA256 of the body under `secret`) included. The service signs
 * the body only: there is no timestamp to set.
 *
 * @example
 * const signed = await signWebhook({ secret: "whsec-test", event: { type: "crawl.page", id: jobId, data: [doc] } });
 * const res = await handler(new Request("https://my.app/hooks", signed));
 */
export async function signWebhook(options: SignWebhookOptions): Promise<SignedWebhook> {
  if (typeof options.secret !== "string" || options.secret === "") throw new TypeError("signWebhook: secret must be a non-empty string");
  if ((options.event === undefined) === (options.body === undefined)) throw new TypeError("signWebhook: give either event or body");
  const body = options.body ?? webhookBody(options.event as WebhookEventInit);
  const signature = `sha256=${await hmacHex(options.secret, body)}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
  headers["x-firecrawl-signature"] = signature;
  return { method: "POST", body, headers, signature };
}

/** A job's `webhook` option as sent: a URL, or `{ url, headers, metadata, events }`. */
export type FakeWebhookTarget = string | { url: string; headers?: Record<string, string> | undefined; metadata?: Record<string, string> | undefined; events?: string[] | undefined };

/** One delivery the fake made (or is making). */
export interface FakeWebhookDelivery {
  /** Where it went. */
  url: string;
  /** The event (`type`). */
  type: string;
  /** The job it is about (`id`), if any. */
  jobId: string | undefined;
  /** The request headers (lower-cased names): `content-type`, the webhook's own, and `x-firecrawl-signature` when the fake has a secret. */
  headers: Record<string, string>;
  /** The exact body sent. */
  body: string;
  /** The body, parsed. */
  payload: Record<string, unknown>;
  /** When it was made, by the fake's clock (ms). */
  at: number;
  /** The receiver's status (undefined while in flight, or when no answer came). */
  status: number | undefined;
  /** Why it failed (a network error, the 10 s timeout, or a non-2xx answer), as the service logs it; undefined when it succeeded or is in flight. */
  error: string | undefined;
  /** False when the fake was given neither a secret nor a fetch: recorded, not sent. */
  sent: boolean;
  /** True once it has an answer or has failed (at once when not sent). */
  settled: boolean;
}

/** Settings of the fake's deliveries (see {@link FakeWebhooks.configure}); the fake sends once `secret` or `fetch` is set. */
export interface FakeWebhookSettings {
  /** The team's webhook secret: deliveries are sent and carry `x-firecrawl-signature` (the service's rule). */
  secret?: string | undefined;
  /** The fetch deliveries go out with; without it (and with a secret) the global `fetch`, looked up at each delivery. */
  fetch?: WebhookFetch | undefined;
  /** Per-delivery timeout, ms (default 10 000, the service's). */
  timeoutMs?: number | undefined;
}

/** What a test can do with the fake's webhook deliveries. */
export interface FakeWebhooks {
  /** Every delivery made, in the order the events happened. */
  readonly deliveries: readonly FakeWebhookDelivery[];
  /**
   * Resolves once every delivery made so far (and any made while waiting) has
   * settled; each is bounded by its timeout, so this never waits longer.
   *
   * @example await fakeWebhooks(fake).settled()
   */
  settled(): Promise<readonly FakeWebhookDelivery[]>;
  /**
   * Changes the secret, the fetch or the timeout of later deliveries.
   *
   * @example fakeWebhooks(fake).configure({ secret: "whsec-test", fetch: (url, init) => app.fetch(new Request(url, init)) })
   */
  configure(settings: FakeWebhookSettings): void;
  /**
   * Delivers one event of your own to `target` as a job's deliveries go
   * (signed with the fake's secret, `metadata` of the target echoed, `events`
   * honoured by the part after the first dot): a future event type, say.
   * Resolves the delivery once settled, or undefined when `events` filtered it out.
   *
   * @example await fakeWebhooks(fake).deliver("https://my.app/hooks", { type: "crawl.paused", id: jobId })
   */
  deliver(target: FakeWebhookTarget, event: WebhookEventInit): Promise<FakeWebhookDelivery | undefined>;
}

interface WebhookState {
  settings: FakeWebhookSettings;
  deliveries: FakeWebhookDelivery[];
  pending: Set<Promise<void>>;
  /** The tail of each job's delivery chain (deliveries of one job go one after another, in order). */
  chains: Map<string, Promise<void>>;
  counter: number;
}

function state(fake: FakeService): WebhookState {
  const settings = { secret: fake.options.webhookSecret, fetch: fake.options.webhookFetch, timeoutMs: 10_000 };
  return stateOf(fake, "webhooks", () => ({ settings, deliveries: [], pending: new Set(), chains: new Map(), counter: 0 }));
}

/** A UUIDv4-shaped delivery id from a counter (the fake is deterministic; the service uses `randomUUID`). */
function nextWebhookId(s: WebhookState): string {
  s.counter += 1;
  return `00000000-0000-4000-8000-${s.counter.toString(16).padStart(12, "0")}`;
}

function targetOf(webhook: FakeWebhookTarget): { url: string; headers: Record<string, string>; metadata: Record<string, string>; events: string[] } {
  if (typeof webhook === "string") return { url: webhook, headers: {}, metadata: {}, events: [] };
  return { url: webhook.url, headers: webhook.headers ?? {}, metadata: webhook.metadata ?? {}, events: webhook.events ?? [] };
}

/** The service's filter: no events means all; else the part after the first dot (`page` of `crawl.page`), or the full name. */
function wanted(events: string[], type: string): boolean {
  if (events.length === 0) return true;
  const sub = type.split(".")[1];
  return events.includes(type) || (sub !== undefined && events.includes(sub));
}

/** Queues one delivery on `chainKey`'s chain; returns its record and the promise of its end, or undefined when filtered out. */
function enqueue(fake: FakeService, webhook: FakeWebhookTarget, event: WebhookEventInit, chainKey: string): { record: FakeWebhookDelivery; done: Promise<void> } | undefined {
  const s = state(fake);
  const target = targetOf(webhook);
  if (!wanted(target.events, event.type)) return undefined;
  const body = webhookBody({ ...event, metadata: event.metadata ?? target.metadata }, () => nextWebhookId(s));
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [k, v] of Object.entries(target.headers)) headers[k.toLowerCase()] = v;
  const record: FakeWebhookDelivery = {
    url: target.url, type: event.type, jobId: event.id, headers, body, payload: JSON.parse(body) as Record<string, unknown>, at: fake.now(), status: undefined, error: undefined, sent: false, settled: false,
  };
  s.deliveries.push(record);
  const { secret, fetch: given, timeoutMs } = { ...s.settings };
  if (!secret && !given) {
    record.settled = true;
    return { record, done: Promise.resolve() };
  }
  record.sent = true;
  const send = async (): Promise<void> => {
    if (secret) record.headers["x-firecrawl-signature"] = `sha256=${await hmacHex(secret, body)}`;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new Error(`Webhook delivery timed out after ${timeoutMs ?? 10_000} ms`)), timeoutMs ?? 10_000);
    try {
      const res = await (given ?? globalThis.fetch)(target.url, { method: "POST", headers: record.headers, body, signal: ac.signal });
      record.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) record.error = `Unexpected response status: ${res.status}`;
    } catch (err) {
      record.error = err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
      record.settled = true;
    }
  };
  const previous = s.chains.get(chainKey) ?? Promise.resolve();
  const done = previous.then(send, send);
  s.chains.set(chainKey, done);
  s.pending.add(done);
  void done.finally(() => {
    s.pending.delete(done);
    if (s.chains.get(chainKey) === done) s.chains.delete(chainKey);
  });
  return { record, done };
}

/** What the job engine tells about a job (structural, so this module needs nothing of the engine). */
export interface WebhookJob {
  /** Job id. */
  id: string;
  /** `crawl` or `batch`. */
  kind: "crawl" | "batch";
  /** The start request's options; `webhook` is read from them. */
  options: Record<string, unknown>;
}

/** The webhook of a job's start request, if it names one. */
function jobTarget(job: WebhookJob): FakeWebhookTarget | undefined {
  const w = job.options.webhook;
  if (typeof w === "string") return w;
  if (w !== null && typeof w === "object" && typeof (w as { url?: unknown }).url === "string") return w as FakeWebhookTarget;
  return undefined;
}

/**
 * Sends a job's event to its webhook, if it has one (called by the job
 * engine): `started`, `page` (a scraped page as `[document]`, a failed one
 * with `success: false`, its `error` and `[{ metadata: { sourceURL } }]`) and
 * `completed` (`[]`), as `crawl.*` or `batch_scrape.*`. Never waits.
 */
export function emitJobWebhook(fake: FakeService, job: WebhookJob, event: "started" | "page" | "completed", part: { success?: boolean; data?: unknown[]; error?: string } = {}): void {
  const target = jobTarget(job);
  if (target === undefined) return;
  const type = `${job.kind === "crawl" ? "crawl" : "batch_scrape"}.${event}`;
  enqueue(fake, target, { type, id: job.id, success: part.success ?? true, data: part.data ?? [], error: part.error }, job.id);
}

/**
 * The handle a test uses to see (and await) the fake's webhook deliveries,
 * set their secret and fetch, or deliver an event of its own.
 *
 * @example
 * const fake = createFakeService({ webhookSecret: "whsec-test", webhookFetch: (url, init) => receiver(new Request(url, init)) });
 * // ... start a crawl with `webhook: "https://my.app/hooks"` and wait for it ...
 * const deliveries = await fakeWebhooks(fake).settled();
 */
export function fakeWebhooks(fake: FakeService): FakeWebhooks {
  const s = state(fake);
  return {
    deliveries: s.deliveries,
    settled: async () => {
      while (s.pending.size > 0) await Promise.all([...s.pending]);
      return s.deliveries;
    },
    configure: (settings) => {
      if ("secret" in settings) s.settings.secret = settings.secret;
      if (settings.fetch !== undefined) s.settings.fetch = settings.fetch;
      if (settings.timeoutMs !== undefined) s.settings.timeoutMs = settings.timeoutMs;
    },
    deliver: async (target, event) => {
      const queued = enqueue(fake, target, { ...event }, `own:${event.id ?? ""}`);
      if (!queued) return undefined;
      await queued.done;
      return queued.record;
    },
  };
}
