/**
 * The fleet's webhook receivers: `replicas` node:http servers in this process, each with its own `webhookReceiver` over
 * its own ioredis client and one shared `redisWebhookStore`, behind a round-robin (the fake's `webhookFetch`) that
 * loses some page deliveries on the way (a scraped page's: a 502 that reaches no replica) and sends some to the next replica as well
 * (a balancer retrying on another replica: the same delivery twice). The app's handler counts each document it is
 * given; {@link Receivers.tally} cancels the jobs no worker finishes (a dead worker's: as a supervisor does), waits
 * for every delivery, reconciles every job over REST, and counts: deliveries, handled once, duplicates caught,
 * documents handled twice, and documents lost (REST holds them, and neither a delivery nor reconcile gave them).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { WebData } from "webdata";
import { redisWebhookStore } from "webdata/redis";
import { type FakeService, fakeJobs, fakeWebhooks } from "webdata/testing";
import { webhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "webdata/webhooks";

/** The webhook secret the fake signs with and the receivers check. */
export const WEBHOOK_SECRET = "whsec-fleet";
/** The address the jobs' `webhook` names: the round-robin in front of the replicas. */
export const WEBHOOK_URL = "https://receivers.fleet.test/hooks";

/** What the receivers saw, once every job ended and was reconciled. */
export interface WebhookTally {
  /** Deliveries the fake made (every event of every batch job). */
  deliveries: number;
  /** Page deliveries the round-robin lost on the way (no replica got them), and those it sent to a second replica too. */
  lostOnTheWay: number;
  resent: number;
  /** Deliveries a replica handled (the first of each), and the duplicates caught (`repeat`, or a cancel's later pages). */
  handled: number;
  duplicates: number;
  /** Cancels reported (one per cancelled job, whatever its flood), and the jobs cancelled. */
  cancellations: number;
  cancelledJobs: number;
  /** Documents `reconcile` returned (their deliveries were lost). */
  reconciled: number;
  /** Documents the jobs hold over REST; of them, handled more than once, and lost (neither handled nor reconciled). */
  documents: number;
  handledTwice: number;
  lost: number;
  /** Deliveries handled by each replica. */
  byReplica: number[];
}

/** The receivers of a fleet run. */
export interface Receivers {
  /** The fake's `webhookFetch`: the round-robin in front of the replicas. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Ends every job, waits for the deliveries, reconciles every job and counts (see {@link WebhookTally}). */
  tally(fake: FakeService, apiUrl: string): Promise<WebhookTally>;
  /** Closes the servers and their Redis clients. */
  close(): Promise<void>;
}

interface Replica {
  receiver: WebhookReceiver;
  server: Server;
  url: string;
  redis: Redis;
}

/** The page a delivery is about (`data[0].metadata.sourceURL`). */
const pageOf = (got: ReceivedWebhook): string => String((got.event.data[0] as { metadata?: { sourceURL?: string } } | undefined)?.metadata?.sourceURL ?? "");

/** Starts `replicas` receivers sharing `redisWebhookStore` on `redisUrl` under `prefix`. */
export async function startReceivers(options: { replicas: number; redisUrl: string; prefix: string }): Promise<Receivers> {
  const log: { replica: number; got: ReceivedWebhook }[] = [];
  const replicas: Replica[] = [];
  for (let i = 0; i < options.replicas; i++) {
    // ioredis's offline queue, without a cap on retries: a command sent while Redis restarts waits for it (the fake gives a delivery 5 s).
    const redis = new Redis(options.redisUrl, { retryStrategy: () => 50, maxRetriesPerRequest: null });
    redis.on("error", () => undefined);
    const receiver = webhookReceiver({ secret: WEBHOOK_SECRET, prefix: options.prefix, store: redisWebhookStore({ redis }) });
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        receiver.receive(Buffer.concat(chunks), req.headers["x-firecrawl-signature"] as string | undefined).then(
          (got) => (log.push({ replica: i, got }), res.end("ok")),
          (err: Error) => ((res.statusCode = err.name === "WebhookVerificationError" ? 401 : 500), res.end(err.message)),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    replicas.push({ receiver, server, redis, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` });
  }
  let turn = 0;
  let pages = 0;
  let lostOnTheWay = 0;
  let resent = 0;
  const forward = (r: Replica, init: RequestInit | undefined) => fetch(r.url, { method: "POST", headers: init?.headers, body: init?.body, signal: init?.signal ?? null });
  const roundRobin = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const n = turn++;
    const body = String(init?.body);
    const page = /\.page"/.test(body) ? ++pages : 0;
    if (page % 6 === 3 && body.startsWith('{"success":true')) {
      lostOnTheWay++;
      return new Response("lost on the way", { status: 502 });
    }
    const first = replicas[n % replicas.length]!;
    if (page % 4 !== 1 || replicas.length < 2) return forward(first, init);
    resent++;
    const [answer] = await Promise.all([forward(first, init), forward(replicas[(n + 1) % replicas.length]!, init)]);
    return answer;
  };

  const tally = async (fake: FakeService, apiUrl: string): Promise<WebhookTally> => {
    const client = new WebData({ apiUrl, apiKey: fake.apiKey, logLevel: "off", timeoutMs: 10_000 });
    const jobs = [...fakeJobs(fake).all.values()].filter((j) => j.kind === "batch");
    const dead = jobs.filter((j) => j.status === "scraping");
    for (const j of dead) await client.cancelBatchScrape(j.id); // a job no worker finishes: cancelled, as a supervisor does
    await fakeWebhooks(fake).settled(); // each delivery is bounded by its timeout
    const fresh = log.filter((h) => !h.got.duplicate);
    const handledDocs = new Map<string, number>();
    for (const { got } of fresh) {
      if (!got.duplicate && got.kind === "event" && got.event.type === "batch_scrape.page" && got.event.success) handledDocs.set(`${got.event.id} ${pageOf(got)}`, (handledDocs.get(`${got.event.id} ${pageOf(got)}`) ?? 0) + 1);
    }
    let reconciled = 0;
    let documents = 0;
    let lost = 0;
    for (const j of jobs) {
      const missed = await replicas[replicas.length - 1]!.receiver.reconcile(client, j.id);
      reconciled += missed.missedDocuments.length;
      const found = new Set(missed.missedDocuments.map((d) => d.metadata.sourceURL));
      for await (const doc of client.batchScrapeDocuments(j.id)) {
        documents++;
        if (!handledDocs.has(`${j.id} ${doc.metadata.sourceURL}`) && !found.has(doc.metadata.sourceURL)) lost++;
      }
    }
    return {
      deliveries: fakeWebhooks(fake).deliveries.length,
      lostOnTheWay,
      resent,
      handled: fresh.length,
      duplicates: log.length - fresh.length,
      cancellations: fresh.filter((h) => h.got.duplicate === false && h.got.kind === "cancelled").length,
      cancelledJobs: dead.length,
      reconciled,
      documents,
      handledTwice: [...handledDocs.values()].filter((n) => n > 1).length,
      lost,
      byReplica: replicas.map((_, i) => fresh.filter((h) => h.replica === i).length),
    };
  };

  const close = async (): Promise<void> => {
    for (const r of replicas) r.server.closeAllConnections();
    await Promise.all(replicas.map((r) => new Promise((resolve) => r.server.close(resolve))));
    for (const r of replicas) r.redis.disconnect();
  };
  return { fetch: roundRobin, tally, close };
}
