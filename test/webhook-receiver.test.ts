/**
 * `webhookReceiver` of `webdata/webhooks` over the fake service's deliveries: each delivery handled once by
 * what identifies it (job, event, page URL), whatever its `webhookId`; a cancel's flood of failed pages
 * reported once; `reconcile` reads the job over REST for exactly what the deliveries missed; the in-memory
 * store's TTL and bound. (Replicas sharing a Redis: test/webhooks-replicas.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ValidationError, WebData } from "../src/index.js";
import { createFakeService, fakeJobs, fakeWebhooks, signWebhook, type FakeService } from "../src/testing/index.js";
import { memoryWebhookStore, reconcileJob, webhookReceiver, WebhookVerificationError, type ReceivedWebhook, type WebhookReceiver } from "../src/webhooks.js";

const SECRET = "whsec-receiver";
const HOOK = "https://receiver.test/hooks";

afterEach(() => {
  vi.useRealTimers();
});

/** A fake whose deliveries reach `receiver` in-process; `drop(body)` true loses a delivery (answered 502, never received). */
function wired(receiver: WebhookReceiver, drop: (payload: Record<string, unknown>) => boolean = () => false) {
  const results: ReceivedWebhook[] = [];
  const dropped: Record<string, unknown>[] = [];
  const fake = createFakeService({
    webhookSecret: SECRET,
    webhookFetch: async (url, init) => {
      const request = new Request(url, init);
      const payload = JSON.parse(await request.clone().text()) as Record<string, unknown>;
      if (drop(payload)) {
        dropped.push(payload);
        return new Response("lost", { status: 502 });
      }
      results.push(await receiver.handle(request));
      return new Response("ok");
    },
  });
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off" });
  return { fake, client, results, dropped };
}

const urlOf = (payload: Record<string, unknown>): string => ((payload.data as { metadata: { sourceURL: string } }[])[0]?.metadata.sourceURL ?? "");
const fresh = (results: ReceivedWebhook[]) => results.filter((r) => !r.duplicate);

/** Every delivery the fake made, sent again as the service's retry would (same body, same webhookId). */
async function redeliverAll(fake: FakeService, receiver: WebhookReceiver): Promise<ReceivedWebhook[]> {
  const again: ReceivedWebhook[] = [];
  for (const d of fakeWebhooks(fake).deliveries) again.push(await receiver.receive(d.body, d.headers["x-firecrawl-signature"]));
  return again;
}

describe("webhookReceiver: each delivery once", () => {
  it("a crawl's deliveries are each handled once: the same bodies again, and a page re-sent with a new webhookId, are duplicates", async () => {
    const receiver = webhookReceiver({ secret: SECRET });
    const { fake, client, results } = wired(receiver);
    const { id } = await client.startCrawl("https://acme.test/", { limit: 8, webhook: HOOK });
    fakeJobs(fake).finish(id);
    await fakeWebhooks(fake).settled();
    expect(results.every((r) => !r.duplicate && r.kind === "event")).toBe(true);
    expect(results.map((r) => r.event.type)).toEqual(["crawl.started", ...Array(8).fill("crawl.page"), "crawl.completed"]);
    // The service's retry of a delivery (same webhookId): every one a repeat.
    const again = await redeliverAll(fake, receiver);
    expect(again.map((r) => r.duplicate && r.reason)).toEqual(Array(10).fill("repeat"));
    // A page scraped again and re-sent (a new webhookId, the same page): a repeat too.
    const page = fakeWebhooks(fake).deliveries[1]!.payload;
    const resent = await fakeWebhooks(fake).deliver(HOOK, { type: "crawl.page", id, data: page.data as unknown[] });
    expect(resent?.payload.webhookId).not.toBe(page.webhookId);
    expect(results.at(-1)).toMatchObject({ duplicate: true, reason: "repeat", event: { type: "crawl.page", id } });
    // What the store saw, for reconcile: the job's kind, its 8 pages, its events.
    const saw = await receiver.seen(id);
    expect(saw.kind).toBe("crawl");
    expect(saw.pages.sort()).toEqual(results.slice(1, 9).map((r) => (r.event.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL).sort());
    expect(saw.events.sort()).toEqual(["crawl.completed", "crawl.started"]);
  });

  it("the same page of two jobs, or two agent actions of one job, are different deliveries; a bad signature throws before anything is remembered", async () => {
    const receiver = webhookReceiver({ secret: SECRET });
    const send = async (event: Parameters<typeof signWebhook>[0]["event"]) => {
      const signed = await signWebhook({ secret: SECRET, event });
      return receiver.handle(new Request(HOOK, signed));
    };
    const doc = { markdown: "# A", metadata: { sourceURL: "https://acme.test/a", scrapeId: "s1" } };
    expect(await send({ type: "crawl.page", id: "job-1", data: [doc] })).toMatchObject({ duplicate: false });
    expect(await send({ type: "crawl.page", id: "job-2", data: [doc] })).toMatchObject({ duplicate: false });
    expect(await send({ type: "crawl.page", id: "job-2", data: [doc] })).toMatchObject({ duplicate: true, reason: "repeat" });
    expect(await send({ type: "agent.action", id: "ag", data: [{ creditsUsed: 1, action: "search", input: "a" }] })).toMatchObject({ duplicate: false });
    expect(await send({ type: "agent.action", id: "ag", data: [{ creditsUsed: 2, action: "search", input: "b" }] })).toMatchObject({ duplicate: false });
    expect(await send({ type: "agent.action", id: "ag", webhookId: "w-1", data: [] })).toMatchObject({ duplicate: false });
    expect(await send({ type: "agent.action", id: "ag", webhookId: "w-1", data: [] })).toMatchObject({ duplicate: true });
    expect(await send({ type: "agent.completed", id: "ag", data: [{ creditsUsed: 3, data: {} }] })).toMatchObject({ duplicate: false });
    expect(await send({ type: "agent.completed", id: "ag", data: [{ creditsUsed: 3, data: {} }] })).toMatchObject({ duplicate: true });
    const forged = await signWebhook({ secret: "not-ours", event: { type: "crawl.page", id: "job-3", data: [doc] } });
    await expect(receiver.handle(new Request(HOOK, forged))).rejects.toBeInstanceOf(WebhookVerificationError);
    expect(await receiver.seen("job-3")).toEqual({ kind: undefined, pages: [], events: [] });
  });

  it("a cancel's flood of failed pages is one cancellation: the first reported with its count, the others duplicates of it", async () => {
    const receiver = webhookReceiver({ secret: SECRET });
    const { fake, client, results } = wired(receiver);
    const urls = Array.from({ length: 10 }, (_, i) => `https://acme.test/many/${i + 1}`);
    const { id } = await client.startBatchScrape(urls, { webhook: HOOK });
    fakeJobs(fake).advance(id, 3);
    await client.cancelBatchScrape(id);
    await fakeWebhooks(fake).settled();
    const flood = results.slice(4);
    expect(flood).toHaveLength(7); // one failed page per queued URL
    expect(flood.every((r) => r.event.type === "batch_scrape.page" && r.event.success === false)).toBe(true);
    expect(flood[0]).toMatchObject({ duplicate: false, kind: "cancelled", jobId: id, count: 1 });
    expect(flood.slice(1).map((r) => r.duplicate && r.reason === "cancellation" && r.count)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(fresh(results).filter((r) => !r.duplicate && r.kind === "cancelled")).toHaveLength(1);
    // A flood page retried is a repeat (not counted again).
    const again = await redeliverAll(fake, receiver);
    expect(again.every((r) => r.duplicate && r.reason === "repeat")).toBe(true);
    // The three scraped pages and every cancelled one are remembered as delivered.
    expect((await receiver.seen(id)).pages.sort()).toEqual([...urls].sort());
  });

  it("a failed page that is not a cancel is an ordinary event; crawl.cancelled starts the cancellation with no page counted", async () => {
    const receiver = webhookReceiver();
    const failed = await receiver.receive(JSON.stringify({ success: false, type: "crawl.page", id: "c", webhookId: "w1", error: "All scraping engines failed!", data: [{ metadata: { sourceURL: "https://x.test/" } }] }));
    expect(failed).toMatchObject({ duplicate: false, kind: "event" });
    const cancelled = await receiver.receive(JSON.stringify({ success: false, type: "crawl.cancelled", id: "c", webhookId: "w2", error: "Crawl cancelled by user", data: [] }));
    expect(cancelled).toMatchObject({ duplicate: false, kind: "cancelled", jobId: "c", count: 0 });
    const page = await receiver.receive(JSON.stringify({ success: false, type: "crawl.page", id: "c", webhookId: "w3", error: "This scrape was not completed because the parent crawl or batch scrape was cancelled.", data: [{ metadata: { sourceURL: "https://x.test/2" } }] }));
    expect(page).toMatchObject({ duplicate: true, reason: "cancellation", count: 1 });
  });
});

describe("webhookReceiver.reconcile: REST is the record", () => {
  it("returns exactly the documents, failed pages and events whose deliveries were lost", async () => {
    const receiver = webhookReceiver({ secret: SECRET });
    let pages = 0;
    // Lose every third page delivery and the completed event.
    const { fake, client, dropped } = wired(receiver, (p) => p.type === "batch_scrape.completed" || (p.type === "batch_scrape.page" && ++pages % 3 === 0));
    const urls = [...Array.from({ length: 9 }, (_, i) => `https://acme.test/many/${i + 1}`), ...["a", "b", "c"].map((x) => `https://nowhere.test/${x}`)];
    const { id } = await client.startBatchScrape(urls, { webhook: HOOK });
    fakeJobs(fake).finish(id);
    await fakeWebhooks(fake).settled();
    expect((await client.getBatchScrapeErrors(id)).errors).toHaveLength(3);
    const missed = await receiver.reconcile(client, id);
    const lost = dropped.filter((p) => p.type === "batch_scrape.page");
    expect(lost).toHaveLength(4);
    expect(lost.some((p) => p.success) && lost.some((p) => !p.success)).toBe(true);
    expect(missed.status).toBe("completed");
    expect(missed.missedDocuments.map((d) => d.metadata.sourceURL).sort()).toEqual(lost.filter((p) => p.success).map(urlOf).sort());
    expect(missed.missedFailures.map((e) => e.url).sort()).toEqual(lost.filter((p) => !p.success).map(urlOf).sort());
    expect(missed.missedEvents).toEqual(["batch_scrape.completed"]);
    expect(missed.delivered).toBe(8);
    // Nothing lost: nothing missed.
    const all = await reconcileJob(client, id, { kind: "batch", seen: { pages: urls, events: ["batch_scrape.started", "batch_scrape.completed"] } });
    expect(all).toMatchObject({ missedDocuments: [], missedFailures: [], missedEvents: [] });
  });

  it("release gives back a delivery whose handling failed: the retry is handled again, and reconcile returns the page until then", async () => {
    const receiver = webhookReceiver({ secret: SECRET });
    const { fake, client, results } = wired(receiver);
    const { id } = await client.startBatchScrape(["https://acme.test/many/1", "https://acme.test/many/2"], { webhook: HOOK });
    fakeJobs(fake).finish(id);
    await fakeWebhooks(fake).settled();
    const failed = results.find((r) => !r.duplicate && r.event.type === "batch_scrape.page")!;
    expect((await receiver.reconcile(client, id)).missedDocuments).toEqual([]);
    // The app's handling of one page failed: it gives the delivery back.
    await receiver.release(failed);
    const missed = await receiver.reconcile(client, id);
    expect(missed.missedDocuments.map((d) => d.metadata.sourceURL)).toEqual([urlOf(failed.event as unknown as Record<string, unknown>)]);
    // The service's retry of it is handled again (a fresh delivery), then it is delivered: nothing missed.
    const delivery = fakeWebhooks(fake).deliveries.find((d) => d.body.includes(urlOf(failed.event as unknown as Record<string, unknown>)) && d.body.includes("batch_scrape.page"))!;
    const again = await receiver.receive(delivery.body, delivery.headers["x-firecrawl-signature"]);
    expect(again.duplicate).toBe(false);
    expect((await receiver.receive(delivery.body, delivery.headers["x-firecrawl-signature"])).duplicate).toBe(true);
    expect((await receiver.reconcile(client, id)).missedDocuments).toEqual([]);
    // A duplicate has nothing to give back.
    await receiver.release(await receiver.receive(delivery.body, delivery.headers["x-firecrawl-signature"]));
    expect((await receiver.receive(delivery.body, delivery.headers["x-firecrawl-signature"])).duplicate).toBe(true);
  });

  it("a job no delivery reached: kind is needed, then everything is missed", async () => {
    const receiver = webhookReceiver({ secret: SECRET });
    const { fake, client } = wired(receiver, () => true);
    const { id } = await client.startBatchScrape(["https://acme.test/about", "https://nowhere.test/x"], { webhook: HOOK });
    fakeJobs(fake).finish(id);
    await fakeWebhooks(fake).settled();
    const noKind = await receiver.reconcile(client, id).catch((e: unknown) => e);
    expect(noKind).toBeInstanceOf(ValidationError);
    expect((noKind as Error).message).toMatch(/kind: must be "crawl" or "batch"/);
    const missed = await receiver.reconcile(client, id, { kind: "batch" });
    expect(missed.missedDocuments.map((d) => d.metadata.sourceURL)).toEqual(["https://acme.test/about"]);
    expect(missed.missedFailures.map((e) => e.url)).toEqual(["https://nowhere.test/x"]);
    expect(missed.missedEvents).toEqual(["batch_scrape.started", "batch_scrape.completed"]);
  });
});

describe("options and the in-memory store", () => {
  it("refuses bad options with a ValidationError naming each", () => {
    const bad = () => webhookReceiver({ secret: "", ttlMs: 0, store: {} as never, prefix: "" });
    expect(bad).toThrow(ValidationError);
    expect(bad).toThrow(/secret: must be a non-empty string.*store: must be a WebhookStore.*ttlMs: must be an integer >= 1.*prefix: must be a non-empty string/s);
    expect(() => memoryWebhookStore({ maxKeys: 0 })).toThrow(/maxKeys must be an integer >= 1/);
  });

  it("a claim lasts its TTL; a counter and a set lapse after their last write; past maxKeys the oldest key goes", async () => {
    vi.useFakeTimers();
    const store = memoryWebhookStore({ maxKeys: 3 });
    expect(await store.claim("a", 1_000)).toBe(true);
    expect(await store.claim("a", 1_000)).toBe(false);
    vi.advanceTimersByTime(999);
    expect(await store.claim("a", 1_000)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await store.claim("a", 1_000)).toBe(true);
    expect(await store.increment("n", 1, 500)).toBe(1);
    expect(await store.increment("n", 2, 500)).toBe(3);
    await store.remember("s", "x", 500);
    await store.remember("s", "y", 500);
    expect((await store.members("s")).sort()).toEqual(["x", "y"]);
    vi.advanceTimersByTime(500);
    expect(await store.increment("n", 0, 500)).toBe(0);
    expect(await store.members("s")).toEqual([]);
    // Bounded: a fourth key forgets the oldest written ("a").
    await store.claim("b", 10_000);
    await store.claim("c", 10_000);
    await store.claim("d", 10_000);
    expect(await store.claim("a", 10_000)).toBe(true);
    expect(await store.claim("d", 10_000)).toBe(false);
  });
});
