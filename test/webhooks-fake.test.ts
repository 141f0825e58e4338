/**
 * Webhooks end to end: `signWebhook` of `webdata/testing` signs a delivery as
 * the service does, and the fake service delivers a crawl's or batch scrape's
 * events to the job's `webhook` (reference §4.10: `started`, each `page`,
 * `completed`; a failed page is a `page` with `success: false`; `events`
 * filters by the part after the dot; `metadata` echoed, `{}` when none),
 * signed with the secret the test gives, to a receiver built with
 * `parseWebhook`: in-process through `webhookFetch`, or on loopback.
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService, fakeJobs, fakeWebhooks, signWebhook, type FakeService, type FakeServiceOptions } from "../src/testing/index.js";
import { parseWebhook, verifyWebhookSignature, WebhookVerificationError, type ParsedWebhook } from "../src/webhooks.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

const SECRET = "whsec-e2e";
const HOOK = "https://receiver.test/hooks/crawl";

/** A receiver as a user writes it: the raw body verified and parsed, 200 for any delivery (known or not), 401 for a bad one. */
function receiver(secret: string) {
  const events: ParsedWebhook[] = [];
  const rejected: string[] = [];
  const paths: string[] = [];
  const handle = async (req: Request): Promise<Response> => {
    paths.push(new URL(req.url).pathname);
    const raw = await req.text();
    try {
      events.push(await parseWebhook(raw, { secret, signature: req.headers.get("x-firecrawl-signature") }));
      return new Response("ok");
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      rejected.push(err.message);
      return new Response(err.message, { status: 401 });
    }
  };
  return { events, rejected, paths, handle };
}

function clientFor(fake: FakeService): WebData {
  return new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off" });
}

function inProcess(r: ReturnType<typeof receiver>, options: FakeServiceOptions = {}): FakeService {
  return createFakeService({ webhookSecret: SECRET, webhookFetch: (url, init) => r.handle(new Request(url, init)), ...options });
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("signWebhook", () => {
  it("signs the body as the service does: sha256= and the HMAC-SHA256 hex of the exact body", async () => {
    const signed = await signWebhook({ secret: SECRET, event: { type: "crawl.page", id: "j1", webhookId: "w1", data: [{ markdown: "# Hi" }] } });
    // The service's field order: success, type, id, webhookId, data, error (left out when undefined), metadata ({} when none).
    expect(signed.body).toBe('{"success":true,"type":"crawl.page","id":"j1","webhookId":"w1","data":[{"markdown":"# Hi"}],"metadata":{}}');
    expect(signed.signature).toBe(`sha256=${createHmac("sha256", SECRET).update(signed.body).digest("hex")}`);
    expect(signed).toEqual({ method: "POST", body: signed.body, signature: signed.signature, headers: { "content-type": "application/json", "x-firecrawl-signature": signed.signature } });
    expect(await verifyWebhookSignature(signed.body, signed.signature, SECRET)).toBe(true);
    const event = await parseWebhook(signed.body, { secret: SECRET, signature: signed.signature });
    expect(event).toMatchObject({ type: "crawl.page", known: true, id: "j1", success: true });
  });

  it("fills success and a fresh webhookId, keeps extra fields, sends your headers, and signs an exact body", async () => {
    const a = await signWebhook({ secret: SECRET, event: { type: "crawl.started", id: "j", metadata: { run: "1" }, note: "x" }, headers: { "X-Team": "docs" } });
    const payload = JSON.parse(a.body) as Record<string, unknown>;
    expect(payload).toEqual({ success: true, type: "crawl.started", id: "j", webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/), data: [], metadata: { run: "1" }, note: "x" });
    expect(a.headers).toEqual({ "content-type": "application/json", "x-team": "docs", "x-firecrawl-signature": a.signature });
    const b = await signWebhook({ secret: SECRET, event: { type: "crawl.started", id: "j" } });
    expect(JSON.parse(b.body).webhookId).not.toBe(payload.webhookId);
    const exact = await signWebhook({ secret: SECRET, body: "{ \"type\": \"crawl.started\" }" });
    expect(exact.body).toBe('{ "type": "crawl.started" }');
    expect(exact.signature).toBe(`sha256=${createHmac("sha256", SECRET).update(exact.body).digest("hex")}`);
  });

  it("refuses a missing secret, or both or neither of event and body", async () => {
    await expect(signWebhook({ secret: "", event: { type: "crawl.started" } })).rejects.toThrow(/secret must be a non-empty string/);
    await expect(signWebhook({ secret: SECRET })).rejects.toThrow(/either event or body/);
    await expect(signWebhook({ secret: SECRET, body: "{}", event: { type: "x" } })).rejects.toThrow(/either event or body/);
  });
});

describe("the fake delivers a job's webhook events", () => {
  it("a receiver built with parseWebhook gets a crawl's started, each page in order, then completed, verified with the secret", async () => {
    const r = receiver(SECRET);
    const fake = inProcess(r);
    const client = clientFor(fake);
    useJobTimers();
    const job = await drive(client.crawl("https://acme.test/", { limit: 5, pollIntervalMs: 500, webhook: { url: HOOK, metadata: { run: "7" } } }));
    await fakeWebhooks(fake).settled();
    expect(r.rejected).toEqual([]);
    const types = r.events.map((e) => e.type);
    expect(types).toEqual(["crawl.started", ...job.data.map(() => "crawl.page"), "crawl.completed"]);
    expect(job.data).toHaveLength(5);
    // Every page, in the order the crawl finished them, with the document the status holds.
    const pages = r.events.filter((e) => e.known && e.type === "crawl.page");
    expect(pages.map((e) => (e.known && e.type === "crawl.page" && e.success ? e.data[0].metadata.sourceURL : undefined))).toEqual(job.data.map((d) => d.metadata.sourceURL));
    const [jobId] = [...fakeJobs(fake).all.keys()];
    for (const e of r.events) expect(e).toMatchObject({ known: true, success: true, id: jobId, metadata: { run: "7" } });
    expect(new Set(r.events.map((e) => e.webhookId)).size).toBe(r.events.length);
    expect(r.paths.every((p) => p === "/hooks/crawl")).toBe(true);
    // What the fake delivered, as a test can read it: signed, each answered 200.
    const sent = fakeWebhooks(fake).deliveries;
    expect(sent.map((d) => [d.type, d.status, d.error, d.sent])).toEqual(types.map((t) => [t, 200, undefined, true]));
    expect(sent[0]?.headers).toEqual({ "content-type": "application/json", "x-firecrawl-signature": `sha256=${createHmac("sha256", SECRET).update(sent[0]?.body ?? "").digest("hex")}` });
    expect(sent[0]?.payload).toEqual({ success: true, type: "crawl.started", id: sent[0]?.jobId, webhookId: expect.any(String), data: [], metadata: { run: "7" } });
  });

  it("honours events and sends the webhook's headers; a URL-only webhook echoes metadata {}; batch scrapes send batch_scrape.*", async () => {
    const r = receiver(SECRET);
    const fake = inProcess(r);
    const client = clientFor(fake);
    const only = await client.startCrawl("https://acme.test/", { limit: 3, webhook: { url: HOOK, headers: { "X-Route": "crawls" }, events: ["page"] } });
    fakeJobs(fake).finish(only.id);
    const batch = await client.startBatchScrape(["https://acme.test/about", "https://acme.test/contact"], { webhook: "https://receiver.test/hooks/batch" });
    fakeJobs(fake).finish(batch.id);
    const done = await fakeWebhooks(fake).settled();
    expect(done.map((d) => d.type)).toEqual(["crawl.page", "crawl.page", "crawl.page", "batch_scrape.started", "batch_scrape.page", "batch_scrape.page", "batch_scrape.completed"]);
    expect(done.slice(0, 3).every((d) => d.headers["x-route"] === "crawls")).toBe(true);
    // Each job's deliveries arrive in order; two jobs' deliveries may interleave.
    const batchEvents = r.events.filter((e) => e.type.startsWith("batch_scrape."));
    expect(batchEvents.map((e) => [e.type, e.id, e.metadata])).toEqual(["started", "page", "page", "completed"].map((t) => [`batch_scrape.${t}`, batch.id, {}]));
    expect(r.events.filter((e) => e.type.startsWith("crawl.")).map((e) => [e.type, e.id, e.metadata])).toEqual(Array.from({ length: 3 }, () => ["crawl.page", only.id, {}]));
    expect(r.paths.sort()).toEqual([...Array(4).fill("/hooks/batch"), ...Array(3).fill("/hooks/crawl")]);
  });

  it("a page that fails is a page event with success false, its error and only its URL (the service sends no *.failed)", async () => {
    const r = receiver(SECRET);
    const fake = inProcess(r);
    const batch = await clientFor(fake).startBatchScrape(["https://acme.test/about", "https://nowhere.test/x"], { webhook: HOOK });
    fakeJobs(fake).finish(batch.id);
    await fakeWebhooks(fake).settled();
    expect(r.events.map((e) => [e.type, e.success])).toEqual([["batch_scrape.started", true], ["batch_scrape.page", true], ["batch_scrape.page", false], ["batch_scrape.completed", true]]);
    const failed = r.events[2];
    if (!failed?.known || failed.type !== "batch_scrape.page" || failed.success) throw new Error("not a failed page");
    expect(failed.error).toMatch(/^All scraping engines failed!/);
    expect(failed.data).toEqual([{ metadata: { sourceURL: "https://nowhere.test/x" } }]);
    // A job that fails as a whole reports it on its status: no event (the service has no crawl.failed).
    fakeJobs(fake).failNext({ kind: "crawl" });
    const crawl = await clientFor(fake).startCrawl("https://acme.test/", { webhook: HOOK });
    await clientFor(fake).getCrawlStatus(crawl.id);
    await fakeWebhooks(fake).settled();
    expect(r.events.slice(4).map((e) => e.type)).toEqual(["crawl.started"]);
  });

  it("an event type the SDK does not know, signed correctly, parses as unknown and is acknowledged; a bad signature is still refused", async () => {
    const r = receiver(SECRET);
    const fake = inProcess(r);
    const hooks = fakeWebhooks(fake);
    const later = await hooks.deliver(HOOK, { type: "crawl.paused", id: "01a2", data: [{ until: "tomorrow" }] });
    expect(later).toMatchObject({ type: "crawl.paused", status: 200, error: undefined });
    expect(r.events).toEqual([{ success: true, type: "crawl.paused", known: false, id: "01a2", webhookId: expect.any(String), data: [{ until: "tomorrow" }], metadata: {} }]);
    hooks.configure({ secret: "not-the-receivers" });
    const forged = await hooks.deliver(HOOK, { type: "crawl.completed", id: "01a2" });
    expect(forged).toMatchObject({ status: 401, error: "Unexpected response status: 401" });
    expect(r.rejected).toEqual(["Webhook signature does not match the body"]);
    expect(r.events).toHaveLength(1);
    // A filtered event is not delivered.
    expect(await hooks.deliver({ url: HOOK, events: ["completed"] }, { type: "crawl.paused", id: "01a2" })).toBeUndefined();
  });

  it("keeps each job's deliveries in order even when the receiver answers the first one last", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const arrived: string[] = [];
    const fake = createFakeService({
      webhookSecret: SECRET,
      webhookFetch: async (_url, init) => {
        const type = (JSON.parse(String(init?.body)) as { type: string }).type;
        if (type.endsWith(".started")) await gate;
        arrived.push(type);
        return new Response("ok");
      },
    });
    const { id } = await clientFor(fake).startCrawl("https://acme.test/", { limit: 2, webhook: HOOK });
    fakeJobs(fake).finish(id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(arrived).toEqual([]);
    release();
    await fakeWebhooks(fake).settled();
    expect(arrived).toEqual(["crawl.started", "crawl.page", "crawl.page", "crawl.completed"]);
  });

  it("never holds up a job or a test: a receiver that never answers times out after 10 s, one that throws is recorded", async () => {
    useJobTimers();
    /** When (fake time) each delivery to the silent receiver arrived and when the fake gave up on it. */
    const held: { arrived: number; cut: number }[] = [];
    const fake = createFakeService({
      webhookSecret: SECRET,
      webhookFetch: (url, init) => {
        if (String(url).endsWith("/broken")) return Promise.reject(new TypeError("fetch failed"));
        const hold = { arrived: Date.now(), cut: Number.NaN };
        held.push(hold);
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => {
            hold.cut = Date.now();
            reject(init.signal?.reason);
          }),
        );
      },
    });
    const client = clientFor(fake);
    const hung = await client.startCrawl("https://acme.test/", { limit: 2, webhook: "https://receiver.test/silent" });
    const broken = await client.startBatchScrape(["https://acme.test/about"], { webhook: "https://receiver.test/broken" });
    fakeJobs(fake).finish(hung.id);
    fakeJobs(fake).finish(broken.id);
    expect((await client.getCrawlStatus(hung.id)).status).toBe("completed"); // the job does not wait on its deliveries
    const started = Date.now();
    const all = await drive(fakeWebhooks(fake).settled(), 100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 10_000); // four deliveries in a row, each cut at 10 s of (fake) time
    // Each held delivery is cut 10 s after it arrived (to the step of the drive), and the next one arrives only after
    // the cut: measured per delivery, so fake time the drive spends while the fake signs (real crypto work) is not counted.
    expect(held).toHaveLength(4);
    for (const [i, h] of held.entries()) {
      expect(h.cut - h.arrived, `delivery ${i}`).toBeGreaterThanOrEqual(10_000);
      expect(h.cut - h.arrived, `delivery ${i}`).toBeLessThanOrEqual(10_000 + 100);
      if (i > 0) expect(h.arrived, `delivery ${i}`).toBeGreaterThanOrEqual(held[i - 1]!.cut);
    }
    expect(all.filter((d) => d.url.endsWith("/silent")).map((d) => [d.type, d.error])).toEqual(
      ["crawl.started", "crawl.page", "crawl.page", "crawl.completed"].map((t) => [t, "Webhook delivery timed out after 10000 ms"]),
    );
    expect(all.filter((d) => d.url.endsWith("/broken")).map((d) => d.error)).toEqual(["fetch failed", "fetch failed", "fetch failed"]);
  });

  it("sends nothing until the test gives a secret or a fetch: a real URL in a test is never reached, the deliveries are recorded unsent", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    const fake = createFakeService();
    const { id } = await clientFor(fake).startCrawl("https://acme.test/", { limit: 1, webhook: "https://my.app/hooks/crawl" });
    fakeJobs(fake).finish(id);
    const all = await fakeWebhooks(fake).settled();
    expect(all.map((d) => [d.type, d.sent, d.settled, d.status])).toEqual([["crawl.started", false, true, undefined], ["crawl.page", false, true, undefined], ["crawl.completed", false, true, undefined]]);
    expect(all[0]?.headers["x-firecrawl-signature"]).toBeUndefined();
    expect(spy).not.toHaveBeenCalled();
  });

  it("with only a secret, deliveries go out with the global fetch: a receiver on loopback verifies them (v1 crawl too)", async () => {
    const r = receiver(SECRET);
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        void r.handle(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: "POST", headers, body: Buffer.concat(chunks) })).then(async (answer) => res.writeHead(answer.status).end(await answer.text()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/crawl`;
      const fake = createFakeService({ webhookSecret: SECRET });
      const res = await fake.fetch("https://fake.webdata.test/v1/crawl", { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test/", limit: 1, webhook: { url, events: ["started", "completed"] } }) });
      const { id } = (await res.json()) as { id: string };
      fakeJobs(fake).finish(id);
      await fakeWebhooks(fake).settled();
      expect(r.rejected).toEqual([]);
      expect(r.events.map((e) => [e.type, e.id, e.known])).toEqual([["crawl.started", id, true], ["crawl.completed", id, true]]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
