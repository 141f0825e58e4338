/**
 * Webhook receivers on several replicas sharing a real redis-server (test/support/redis.ts starts one; without
 * redis-server this suite fails and says how to install it): three node:http servers in this process, each with
 * its own `webhookReceiver` over its own ioredis client and `redisWebhookStore`, behind a round-robin that loses
 * some deliveries and sends some to two replicas at once (the service's retry reaching another replica), while
 * the fake service re-sends pages with new webhookIds and floods a cancelled batch's failed pages. No document
 * is lost (handled once, or returned by reconcile) or handled twice; the cancel is reported once; reconcile
 * returns exactly the pages whose deliveries were lost. Also the Redis store itself: its claim is atomic and
 * every key lapses after its TTL (real time, short TTLs).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { redisWebhookStore } from "../src/redis.js";
import { createFakeService, fakeJobs, fakeWebhooks } from "../src/testing/index.js";
import { webhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../src/webhooks.js";
import { redisForFile } from "./support/redis.js";

const SECRET = "whsec-replicas";
const HOOK = "https://receiver.test/hooks";

const redis = redisForFile();

let prefixes = 0;
const freshPrefix = () => `webdata-test:${process.pid}:${++prefixes}`;

/** One replica: a node:http server whose receiver uses its own Redis connection; what it handled goes to `log`. */
interface Replica {
  name: string;
  url: string;
  receiver: WebhookReceiver;
  server: Server;
}

interface Handled {
  replica: string;
  result: ReceivedWebhook;
}

async function startReplica(name: string, prefix: string, log: Handled[]): Promise<Replica> {
  const receiver = webhookReceiver({ secret: SECRET, prefix, store: redisWebhookStore({ redis: redis().client() }) });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.receive(Buffer.concat(chunks), req.headers["x-firecrawl-signature"] as string | undefined).then(
        (result) => {
          log.push({ replica: name, result });
          res.end("ok");
        },
        (err: Error) => {
          res.statusCode = err.name === "WebhookVerificationError" ? 401 : 500;
          res.end(err.message);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, receiver, server };
}

const urlOf = (payload: Record<string, unknown>): string => ((payload.data as { metadata: { sourceURL: string } }[])[0]?.metadata.sourceURL ?? "");

describe("webhook receivers on three replicas sharing Redis", () => {
  it("no document lost or handled twice, the cancel reported once, reconcile returns exactly the lost pages", async () => {
    const prefix = freshPrefix();
    const log: Handled[] = [];
    const replicas = await Promise.all(["r0", "r1", "r2"].map((n) => startReplica(n, prefix, log)));
    const dropped: Record<string, unknown>[] = [];
    let doubled = 0;
    let turn = 0;
    let pageNo = 0;
    const forward = (r: Replica, init: RequestInit | undefined) => fetch(r.url, { method: "POST", headers: init?.headers, body: init?.body });
    const fake = createFakeService({
      webhookSecret: SECRET,
      // The round-robin in front of the replicas: loses every fifth page delivery (and the cancel's first), sends every fourth to two replicas at once.
      webhookFetch: async (_url, init) => {
        const payload = JSON.parse(String(init?.body)) as Record<string, unknown>;
        const resend = (init?.headers as Record<string, string>)["x-resend"] === "1";
        const n = turn++;
        const page = String(payload.type).endsWith(".page") && !resend ? ++pageNo : 0;
        // The first page of the cancel's flood is lost too, whatever the crawl's and the batch's deliveries interleave as.
        const firstFlood = !payload.success && /cancel/i.test(String(payload.error)) && !dropped.some((p) => !p.success && /cancel/i.test(String(p.error)));
        if (page % 5 === 2 || (page > 0 && firstFlood)) {
          dropped.push(payload);
          return new Response("lost on the way", { status: 502 });
        }
        if (page % 4 === 1) {
          doubled++;
          const [first] = await Promise.all([forward(replicas[n % 3]!, init), forward(replicas[(n + 1) % 3]!, init)]);
          return first;
        }
        return forward(replicas[n % 3]!, init);
      },
    });
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off" });
    try {
      // A crawl run to the end, and a batch scrape cancelled after four pages: a flood of failed pages.
      const crawl = await client.startCrawl("https://acme.test/", { limit: 20, webhook: HOOK });
      fakeJobs(fake).finish(crawl.id);
      const urls = ["https://acme.test/about", "https://nowhere.test/a", ...Array.from({ length: 14 }, (_, i) => `https://acme.test/many/${i + 1}`)];
      const batch = await client.startBatchScrape(urls, { webhook: HOOK });
      fakeJobs(fake).advance(batch.id, 4);
      await client.cancelBatchScrape(batch.id);
      await fakeWebhooks(fake).settled();
      // The service re-sends some delivered pages (a retried scrape: new webhookIds), to any replica.
      const delivered = fakeWebhooks(fake).deliveries.filter((d) => d.type === "crawl.page" && d.status === 200).slice(0, 4);
      for (const d of delivered) await fakeWebhooks(fake).deliver({ url: HOOK, headers: { "x-resend": "1" } }, { type: "crawl.page", id: crawl.id, data: d.payload.data as unknown[] });

      expect(doubled).toBeGreaterThanOrEqual(3);
      expect(new Set(log.map((h) => h.replica))).toEqual(new Set(["r0", "r1", "r2"]));
      const fresh = log.filter((h) => !h.result.duplicate);
      // Handled twice: never. Each (job, page) is fresh at most once, over the three replicas.
      const freshPages = fresh.filter((h) => h.result.event.type.endsWith(".page")).map((h) => `${h.result.event.id} ${urlOf(h.result.event as unknown as Record<string, unknown>)}`);
      expect(new Set(freshPages).size).toBe(freshPages.length);
      // The repeats were caught across replicas: a duplicate was answered by a replica other than the one that handled it.
      const handledBy = new Map(fresh.map((h) => [`${h.result.event.id} ${h.result.event.type} ${urlOf(h.result.event as unknown as Record<string, unknown>)}`, h.replica]));
      const repeats = log.filter((h) => h.result.duplicate && h.result.reason === "repeat");
      expect(repeats.length).toBeGreaterThanOrEqual(doubled + delivered.length);
      expect(repeats.some((h) => handledBy.get(`${h.result.event.id} ${h.result.event.type} ${urlOf(h.result.event as unknown as Record<string, unknown>)}`) !== h.replica)).toBe(true);
      // The cancel: reported once, on one replica, for the batch.
      const cancellations = fresh.filter((h) => !h.result.duplicate && h.result.kind === "cancelled");
      expect(cancellations.map((h) => !h.result.duplicate && h.result.kind === "cancelled" && h.result.jobId)).toEqual([batch.id]);
      expect(log.filter((h) => h.result.duplicate && h.result.reason === "cancellation").length).toBeGreaterThanOrEqual(5);

      for (const [job, kind] of [[crawl.id, "crawl"], [batch.id, "batch"]] as const) {
        const lost = dropped.filter((p) => p.id === job);
        // Reconcile from any replica: exactly the pages whose deliveries were lost.
        const missed = await replicas[2]!.receiver.reconcile(client, job);
        expect(missed.kind).toBe(kind);
        expect(missed.missedDocuments.map((d) => d.metadata.sourceURL).sort()).toEqual(lost.filter((p) => p.success).map(urlOf).sort());
        expect(missed.missedFailures.map((e) => e.url).sort()).toEqual(lost.filter((p) => !p.success).map(urlOf).sort());
        // No document lost: every document REST holds was handled once, or is returned by reconcile.
        const documents = kind === "crawl" ? client.crawlDocuments(job) : client.batchScrapeDocuments(job);
        const all: string[] = [];
        for await (const doc of documents) all.push(doc.metadata.sourceURL ?? "");
        const handled = fresh.filter((h) => h.result.event.id === job && h.result.event.type.endsWith(".page") && h.result.event.success).map((h) => urlOf(h.result.event as unknown as Record<string, unknown>));
        expect([...handled, ...missed.missedDocuments.map((d) => d.metadata.sourceURL)].sort()).toEqual(all.sort());
      }
      expect(dropped.filter((p) => p.id === batch.id && !p.success).length).toBeGreaterThanOrEqual(1); // a flood page was among the lost
    } finally {
      await Promise.all(replicas.map((r) => new Promise((resolve) => r.server.close(resolve))));
    }
  }, 30_000);
});

describe("redisWebhookStore", () => {
  it("a claim is SET NX PX: of many claims at once on three connections exactly one wins, and the key lapses after its TTL", async () => {
    const stores = [0, 1, 2].map(() => redisWebhookStore({ redis: redis().client() }));
    const key = `${freshPrefix()}:claim`;
    const wins = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3]!.claim(key, 300)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const ttl = await redis().client().pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    expect(await stores[0]!.claim(key, 300)).toBe(false);
    await new Promise((r) => setTimeout(r, 350));
    expect(await redis().client().exists(key)).toBe(0);
    expect(await stores[1]!.claim(key, 300)).toBe(true);
  });

  it("forget gives a claim back (the next claim wins) and drops one member of a set, the others kept", async () => {
    const store = redisWebhookStore({ redis: redis().client() });
    const prefix = freshPrefix();
    expect(await store.claim(`${prefix}:c`, 60_000)).toBe(true);
    expect(await store.claim(`${prefix}:c`, 60_000)).toBe(false);
    await store.forget(`${prefix}:c`);
    expect(await store.claim(`${prefix}:c`, 60_000)).toBe(true);
    await store.remember(`${prefix}:s`, "page:a", 60_000);
    await store.remember(`${prefix}:s`, "page:b", 60_000);
    await store.forget(`${prefix}:s`, "page:a");
    expect(await store.members(`${prefix}:s`)).toEqual(["page:b"]);
  });

  it("a counter and a set keep their TTL, refreshed at each write, and lapse after it", async () => {
    const store = redisWebhookStore({ redis: redis().client() });
    const prefix = freshPrefix();
    expect(await Promise.all([store.increment(`${prefix}:n`, 1, 250), store.increment(`${prefix}:n`, 1, 250)])).toEqual(expect.arrayContaining([1, 2]));
    expect(await store.increment(`${prefix}:n`, 0, 250)).toBe(2);
    await store.remember(`${prefix}:s`, "page:a", 250);
    await store.remember(`${prefix}:s`, "page:b", 250);
    expect((await store.members(`${prefix}:s`)).sort()).toEqual(["page:a", "page:b"]);
    const ttls = await Promise.all([redis().client().pttl(`${prefix}:n`), redis().client().pttl(`${prefix}:s`)]);
    for (const t of ttls) expect(t).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.members(`${prefix}:s`)).toEqual([]);
    expect(await store.increment(`${prefix}:n`, 0, 250)).toBe(0);
  });

  it("refuses what is not a Redis client", () => {
    expect(() => redisWebhookStore({ redis: {} as never })).toThrow(/redis: must be a Redis client/);
  });
});
