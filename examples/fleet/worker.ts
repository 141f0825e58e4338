/**
 * One worker of the fleet (examples/fleet/run.ts starts several, each its own process): a WebData client that scrapes
 * its URLs, bounded either by its own `maxConcurrency` (each process alone keeps to the team's figure, as a per-process
 * semaphore does) or by a `redisLimiter` shared by the whole fleet, and with `credits`, by one `redisBudget` shared by
 * the fleet too. It says "ready" on stdout, starts when it reads a line on stdin (so the workers start together; a
 * worker started to replace a dead one is told at once), prints one JSON line per URL as it ends (`{ url, outcome }`:
 * `done`, `refused` by the budget, or `failed: ...`), then one with its totals.
 * A call refused because Redis is away (`RedisUnavailableError`: nothing was sent) is tried again after 100 ms.
 *
 * argv: apiUrl apiKey teamLimit urls(comma-separated) [redisUrl redisKey [credits leaseMs]]
 */
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { WebData } from "webdata";
import { redisBudget, redisLimiter, RedisUnavailableError } from "webdata/redis";
import { BudgetExceededError, team } from "webdata/team";

const [apiUrl, apiKey, teamLimit, urls, redisUrl, redisKey, credits, leaseMs] = process.argv.slice(2);
const limit = Number(teamLimit);
const lease = leaseMs ? Number(leaseMs) : undefined;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
redis?.on("error", () => undefined); // a Redis restart: ioredis reconnects by itself; the calls meanwhile are refused (RedisUnavailableError)
const client = new WebData({
  apiUrl,
  apiKey,
  maxRetries: 10, // a 429 is retried when the service says (after 1 s): the 429s cost time, not pages
  logLevel: "off",
  plugins: [team],
  ...(redis ? { limiter: redisLimiter({ redis, key: redisKey!, limit, retryMs: 10, leaseMs: lease }) } : { maxConcurrency: limit }),
  ...(redis && credits ? { budget: redisBudget({ redis, key: redisKey!, credits: Number(credits), leaseMs: lease }) } : {}),
});

/** One URL's outcome: scraped, refused by the budget, or failed. */
async function scrapeOne(url: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    try {
      await client.scrape(url);
      return "done";
    } catch (err) {
      if (err instanceof BudgetExceededError) return "refused";
      if (err instanceof RedisUnavailableError && tries < 300) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      return `failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once("line", resolve));
lines.close();

const outcomes = await Promise.all(
  urls!.split(",").map(async (url) => {
    const outcome = await scrapeOne(url);
    process.stdout.write(`${JSON.stringify({ url, outcome })}\n`);
    return outcome;
  }),
);
const scraped = outcomes.filter((o) => o === "done").length;
const refused = outcomes.filter((o) => o === "refused").length;
process.stdout.write(`${JSON.stringify({ scraped, refused, failed: outcomes.length - scraped - refused })}\n`);
await redis?.quit();
