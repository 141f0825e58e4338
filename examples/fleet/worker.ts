/**
 * One worker of the fleet (examples/fleet/run.ts starts several, each its own process): a WebData client that scrapes
 * its URLs, bounded either by its own `maxConcurrency` (each process alone keeps to the team's figure, as a per-process
 * semaphore does) or by a `redisLimiter` shared by the whole fleet, and with `credits`, by one `redisBudget` shared by
 * the fleet too. Its `batch` URLs go in one batch scrape whose `webhook` the fleet's receivers get; the worker reads
 * the job's status until it ends and reports each of its URLs from `byUrl()`.
 * It says "ready" on stdout, starts when it reads a line on stdin (so the workers start together; a worker started to
 * replace a dead one is told at once), prints `{ job, urls }` when its batch has started, one JSON line per URL as it
 * ends (`{ url, outcome }`: `done`, `refused` by the budget, or `failed: ...`), then one with its totals.
 * A call refused because Redis is away (`RedisUnavailableError`: nothing was sent) is tried again after 100 ms.
 * Every wait is bounded by `deadlineMs` (a call's own `timeoutMs` too): past it, a URL's outcome is `failed: ...`.
 *
 * argv: one JSON {@link WorkerSpec}.
 */
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { WebData } from "webdata";
import { redisBudget, redisLimiter, RedisUnavailableError } from "webdata/redis";
import { BudgetExceededError, team } from "webdata/team";

/** What a worker is given (one JSON argument). */
export interface WorkerSpec {
  apiUrl: string;
  apiKey: string;
  /** The team's browsers at once: the shared limit's `limit`, or this process's own `maxConcurrency`. */
  teamLimit: number;
  /** URLs scraped one call each. */
  urls: string[];
  /** URLs sent in one batch scrape with `webhook` (default none). */
  batch?: string[] | undefined;
  /** The batch's webhook URL. */
  webhook?: string | undefined;
  /** Redis for the shared limit (and budget), and the key they share. */
  redisUrl?: string | undefined;
  redisKey?: string | undefined;
  /** The shared budget's cap (with Redis). */
  credits?: number | undefined;
  /** The leases of the shared limit and budget, ms. */
  leaseMs?: number | undefined;
  /** How long the worker may take from "go", ms (default 30000). */
  deadlineMs?: number | undefined;
}

const spec = JSON.parse(process.argv[2]!) as WorkerSpec;
const redis = spec.redisUrl ? new Redis(spec.redisUrl, { retryStrategy: () => 50 }) : undefined;
redis?.on("error", () => undefined); // a Redis restart: ioredis reconnects by itself; the calls meanwhile are refused (RedisUnavailableError)
const key = spec.redisKey ?? "webdata-fleet";
const client = new WebData({
  apiUrl: spec.apiUrl,
  apiKey: spec.apiKey,
  maxRetries: 10, // a 429 is retried when the service says (after 1 s): the 429s cost time, not pages
  timeoutMs: 15_000, // a call (its wait for a slot included) never outlasts the worker's deadline by much
  logLevel: "off",
  plugins: [team],
  ...(redis ? { limiter: redisLimiter({ redis, key, limit: spec.teamLimit, retryMs: 25, leaseMs: spec.leaseMs }) } : { maxConcurrency: spec.teamLimit }),
  ...(redis && spec.credits !== undefined ? { budget: redisBudget({ redis, key, credits: spec.credits, leaseMs: spec.leaseMs }) } : {}),
});
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
let deadline = Infinity;
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** `call`, tried again while Redis is away (nothing was sent) until the deadline; `refused` when the budget says no. */
async function governed<T>(call: () => Promise<T>): Promise<T | "refused" | `failed: ${string}`> {
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (err instanceof BudgetExceededError) return "refused";
      if (err instanceof RedisUnavailableError && Date.now() < deadline) {
        await pause(100);
        continue;
      }
      return `failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

/** One URL's outcome: scraped, refused by the budget, or failed. */
async function scrapeOne(url: string): Promise<string> {
  const got = await governed(() => client.scrape(url));
  return typeof got === "string" ? got : "done";
}

/** The batch's outcomes: one start (its reservation is the batch's URL count), status reads until it ends, then `byUrl()`. */
async function batchAll(urls: string[], onStart: () => void): Promise<string[]> {
  const started = await governed(() => client.startBatchScrape(urls, { webhook: { url: spec.webhook!, metadata: { worker: String(process.pid) } } }));
  onStart();
  if (typeof started === "string") return urls.map(() => started);
  say({ job: started.id, urls });
  try {
    // Each status read runs the fake's job on (two pages a read); the service runs it by itself.
    for (let s = await client.getBatchScrapeStatus(started.id); s.status === "scraping"; s = await client.getBatchScrapeStatus(started.id)) {
      if (Date.now() > deadline) throw new Error(`batch ${started.id} still scraping at the deadline`);
      await pause(100);
    }
    const docs = client.batchScrapeDocuments(started.id, { urls });
    for await (const _ of docs);
    const byUrl = await docs.byUrl();
    return urls.map((u) => {
      const got = byUrl.get(u);
      return got === undefined ? "failed: no outcome" : "failed" in got ? `failed: ${got.reason}: ${got.error}` : "done";
    });
  } catch (err) {
    return urls.map(() => `failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

say({ ready: true });
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once("line", resolve));
lines.close();
deadline = Date.now() + (spec.deadlineMs ?? 30_000);

const batch = spec.batch ?? [];
const report = (urls: string[], outcomes: string[]) => urls.forEach((url, i) => say({ url, outcome: outcomes[i] }));
// The batch first (its start reserves its URLs), then the scrapes, while the batch runs.
let batchStarted = () => undefined as void;
const startedBatch = batch.length ? new Promise<void>((resolve) => (batchStarted = resolve)) : undefined;
const batchDone = batch.length ? batchAll(batch, batchStarted).then((o) => (report(batch, o), o)) : Promise.resolve([]);
await startedBatch;
const all = await Promise.all([
  batchDone,
  ...spec.urls.map(async (url) => {
    const outcome = await scrapeOne(url);
    report([url], [outcome]);
    return outcome;
  }),
]);
const outcomes = all.flat();
const scraped = outcomes.filter((o) => o === "done").length;
const refused = outcomes.filter((o) => o === "refused").length;
say({ scraped, refused, failed: outcomes.length - scraped - refused });
if (redis) {
  // A settle taken while Redis was away is tried again (every 250 ms) once it is back: let it land before closing the client.
  for (const end = Date.now() + 5_000; redis.status !== "ready" && Date.now() < end; ) await pause(50);
  await pause(600);
  if (redis.status === "ready") await redis.quit();
}
process.exit(0); // nothing left to wait for (stdout to a pipe is written synchronously)
