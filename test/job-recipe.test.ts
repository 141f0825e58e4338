/**
 * The one job recipe (`src/jobs/waiters.ts`): every waiter, v2's and v1's, runs start -> budget -> observe -> poll ->
 * finish by one composition. So each of them tells the `onJob` hooks of its start and its end, each v2 waiter calls
 * `onStatus` at each status read (and a throw there ends the wait), and a v1 waiter's running crawl is cancelled
 * once the client's budget is passed, as a v2 one is.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { BudgetExceededError, team } from "../src/team.js";
import type { JobHookEvent, WaitStatus } from "../src/types.js";
import { fakeJobs, FIXTURE_ORIGIN } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

const HOME = `${FIXTURE_ORIGIN}/`;

describe.each(TRANSPORTS)("the job recipe over %s", (kind) => {
  it("every waiter, v2 and v1, gives one onJob start and one end, with its kind and its final status", async () => {
    const events: JobHookEvent[] = [];
    s = await setup(kind, {}, { hooks: { onJob: (e) => void events.push(e) } });
    const { client } = s;
    await client.crawl(HOME, { limit: 2, sitemap: "skip", pollIntervalMs: 500 });
    await client.batchScrape([`${FIXTURE_ORIGIN}/about`], { pollIntervalMs: 500 });
    await client.extract({ urls: [HOME], prompt: "the title", pollIntervalMs: 500 });
    await client.agent("find the title", { pollIntervalMs: 500 });
    await client.v1.crawlUrl(HOME, { limit: 2 }, 1);
    await client.v1.batchScrapeUrls([`${FIXTURE_ORIGIN}/about`], {}, 1);
    await client.v1.extract([HOME], { prompt: "the title" });
    await client.v1.generateLLMsText(HOME, { maxUrls: 1 });
    await client.v1.deepResearch("widgets", { maxDepth: 1 });
    const ends = events.filter((e) => e.phase === "end").map((e) => `${e.kind} ${e.status}`);
    expect(ends).toEqual(["crawl", "batch", "extract", "agent", "crawl", "batch", "extract", "llmsText", "deepResearch"].map((k) => `${k} completed`));
    expect(events.filter((e) => e.phase === "start")).toHaveLength(9);
  });

  it("onStatus sees each status read (id, state, pages, credits), is never sent, and a throw ends the wait with it", async () => {
    s = await setup(kind);
    const { client, fake } = s;
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const seen: WaitStatus[] = [];
    const job = await client.crawl(HOME, { limit: 3, sitemap: "skip", pollIntervalMs: 500, onStatus: (st) => void seen.push(st) });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((st) => st.id === job.id)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ id: job.id, status: "completed", completed: 3, total: 3 });
    expect(seen.map((st) => st.completed)).toEqual([...seen.map((st) => st.completed)].sort());
    expect(fake.requests.find((r) => r.method === "POST")?.body).not.toHaveProperty("onStatus");

    const tasks: WaitStatus[] = [];
    const done = await client.agent("find the title", { pollIntervalMs: 500, onStatus: (st) => void tasks.push(st) });
    expect(tasks.at(-1)).toMatchObject({ id: done.id, status: "completed" });

    const boom = new Error("display gone");
    const err = await client
      .extract({ urls: [HOME], prompt: "x", pollIntervalMs: 500, onStatus: () => { throw boom; } })
      .catch((e: unknown) => e);
    expect(err).toBe(boom);
  });

  it("a v1 crawl waited on is cancelled once the client's budget is passed (the fake saw DELETE /v1/crawl/<id>)", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 12 } });
    const { client, fake } = s;
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    useJobTimers();
    const err = await drive(client.v1.crawlUrl(HOME, { limit: 10, scrapeOptions: { formats: ["json"], jsonOptions: { prompt: "the title" } } }, 1).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(BudgetExceededError);
    const id = (err as BudgetExceededError).jobId!;
    expect(err).toMatchObject({ budget: 12, cancelled: true, operation: "crawl", requested: 10 });
    expect(fake.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([`/v1/crawl/${id}`]);
  });
});
