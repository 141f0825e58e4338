/**
 * One worker of the fleet (examples/fleet/run.ts starts several, each its own process): a WebData client
 * that scrapes its URLs, bounded either by its own `maxConcurrency` (each process alone keeps to the team's
 * figure, as a per-process semaphore does) or by a `redisLimiter` shared by the whole fleet. It says
 * "ready" on stdout, starts when it reads a line on stdin (so the workers start together), and prints
 * one JSON line: how many pages it scraped and how many calls failed.
 *
 * argv: apiUrl apiKey teamLimit urls(comma-separated) [redisUrl redisKey]
 */
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { WebData } from "webdata";
import { redisLimiter } from "webdata/redis";
import { team } from "webdata/team";

const [apiUrl, apiKey, teamLimit, urls, redisUrl, redisKey] = process.argv.slice(2);
const limit = Number(teamLimit);
const redis = redisUrl ? new Redis(redisUrl) : undefined;
const client = new WebData({
  apiUrl,
  apiKey,
  maxRetries: 10, // a 429 is retried when the service says (after 1 s): the 429s cost time, not pages
  logLevel: "off",
  plugins: [team],
  ...(redis ? { limiter: redisLimiter({ redis, key: redisKey!, limit, retryMs: 10 }) } : { maxConcurrency: limit }),
});

process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once("line", resolve));
lines.close();

const results = await Promise.allSettled(urls!.split(",").map((url) => client.scrape(url)));
const scraped = results.filter((r) => r.status === "fulfilled").length;
process.stdout.write(`${JSON.stringify({ scraped, failed: results.length - scraped })}\n`);
await redis?.quit();
