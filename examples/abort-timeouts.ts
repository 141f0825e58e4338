/**
 * Aborting and timeouts: a per-attempt `timeoutMs`, your own `AbortSignal`
 * (also while waiting for a job), and a waiter's whole-job deadline.
 *
 *   npm run build && npx tsx examples/abort-timeouts.ts
 */
import { AbortError, JobTimeoutError, TimeoutError, WebDataError } from "webdata";
import { fakeJobs } from "webdata/testing";
import { runIfMain, type Connection } from "./connect.js";

/** Returns the error class each way of giving up threw. */
export async function main({ client, site, fake }: Connection): Promise<string[]> {
  const seen: string[] = [];
  const name = (err: unknown) => (err instanceof WebDataError ? err.name : String(err));

  // 1. Per attempt: a request slower than timeoutMs is a TimeoutError (retried up to maxRetries first).
  fake?.delay(2_000);
  await client.map(site, {}, { timeoutMs: fake ? 100 : 1, maxRetries: 0 }).catch((err: unknown) => {
    if (err instanceof TimeoutError) seen.push(name(err));
  });

  // 2. Your signal: abort whenever you like; the call rejects with AbortError and nothing is retried.
  const ac = new AbortController();
  const pending = client.scrape(`${site}/about`, {}, { signal: ac.signal });
  ac.abort();
  await pending.catch((err: unknown) => {
    if (err instanceof AbortError) seen.push(name(err));
  });

  // 3. A waiter's deadline: JobTimeoutError with the last status (the job keeps running on the server).
  if (fake) fakeJobs(fake).configure({ pagesPerPoll: 0 }); // the fake's crawl makes no progress
  await client.crawl(site, { limit: 50, pollIntervalMs: 500, timeoutMs: 1_200 }).catch((err: unknown) => {
    if (err instanceof JobTimeoutError) {
      seen.push(name(err));
      console.log(`gave up on crawl ${err.jobId} after ${err.timeoutMs} ms; cancelling it`);
      return client.cancelCrawl(err.jobId);
    }
  });
  console.log(seen.join(", "));
  return seen;
}

runIfMain(import.meta.url, main);
