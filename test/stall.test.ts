/**
 * Stalled jobs: with `stallTimeoutMs`, the crawl and batch waiters, the documents
 * iterators and the watcher give up with `JobStalledError` (job id, last counters, time since the last
 * progress) when a job's `status`, `completed` and `total` stop changing, and cancel it with
 * `cancelOnStall`. Against the fake, whose jobs stop progressing with `pagesPerPoll: 0` (a test moves
 * them with `fakeJobs(fake).advance`), on fake timers.
 */
import { describe, expect, it, vi } from "vitest";
import { JobTimeoutError, ValidationError, type Document, type WatchEvent } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { drive, jobTestSetups, tick } from "./jobs-helpers.js";
import { JobStalledError, team } from "../src/team.js";

const { open } = jobTestSetups();

/** Passes `ms` of fake time in 500 ms steps, letting the in-process fake answer between them. */
async function pass(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 500) {
    await tick();
    await vi.advanceTimersByTimeAsync(500);
  }
}

/** Settles `p` (so a rejection is not unhandled while time passes). */
function settled<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

describe("stalled jobs", () => {
  it("crawl() throws JobStalledError once the counters have not changed for stallTimeoutMs, counted from the last progress", async () => {
    const s = await open("fetch", {}, { plugins: [team] });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const t0 = Date.now();
    const out = settled(s.client.crawl("https://acme.test/", { limit: 5, stallTimeoutMs: 60_000, pollIntervalMs: 2_000 }));
    await pass(40_000);
    const [job] = [...fakeJobs(s.fake).all.values()];
    fakeJobs(s.fake).advance(job!.id, 1); // progress at about 40 s: the 60 s count starts again
    const { error } = await drive(out);
    expect(error).toBeInstanceOf(JobStalledError);
    const err = error as JobStalledError;
    expect(err).toMatchObject({ jobId: job!.id, status: "scraping", completed: 1, cancelled: false });
    expect(err.total).toBeGreaterThan(1);
    expect(err.sinceProgressMs).toBeGreaterThanOrEqual(60_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100_000);
    expect(err.message).toContain("made no progress");
    expect(err.message).toContain("cancelOnStall");
    expect(fakeJobs(s.fake).get(job!.id).status).toBe("scraping"); // not cancelled
  });

  it("batchScrape() with cancelOnStall cancels the job, and says so", async () => {
    const s = await open("fetch", {}, { plugins: [team] });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const { error } = await drive(settled(s.client.batchScrape(["https://acme.test/about", "https://acme.test/contact"], { stallTimeoutMs: 30_000, cancelOnStall: true })));
    expect(error).toBeInstanceOf(JobStalledError);
    expect(error).toMatchObject({ cancelled: true, completed: 0, total: 2 });
    const [job] = [...fakeJobs(s.fake).all.values()];
    expect(job!.status).toBe("cancelled");
    expect(s.fake.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("a job that keeps progressing, however slowly, is not stalled; without stallTimeoutMs nothing stalls (the deadline still holds)", async () => {
    const s = await open("fetch", {}, { plugins: [team] });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const slow = settled(s.client.batchScrape(["https://acme.test/about", "https://acme.test/contact"], { stallTimeoutMs: 60_000 }));
    await pass(1_000);
    const [job] = [...fakeJobs(s.fake).all.values()];
    for (let i = 0; i < 3; i++) {
      await pass(50_000);
      fakeJobs(s.fake).advance(job!.id, 1); // a page every 50 s, then the end
    }
    const { value, error } = await drive(slow);
    expect(error).toBeUndefined();
    expect(value?.data).toHaveLength(2);

    const forever = await drive(settled(s.client.crawl("https://acme.test/", { timeoutMs: 300_000 })));
    expect(forever.error).toBeInstanceOf(JobTimeoutError);
  });

  it("crawlDocuments delivers the documents read, then throws JobStalledError", async () => {
    const s = await open("fetch", {}, { plugins: [team] });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const started = await s.client.startCrawl("https://acme.test/", { limit: 5 });
    fakeJobs(s.fake).advance(started.id, 2);
    const seen: Document[] = [];
    const { error } = await drive(
      settled(
        (async () => {
          for await (const d of s.client.crawlDocuments(started.id, { stallTimeoutMs: 45_000 })) seen.push(d);
        })(),
      ),
    );
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(JobStalledError);
    expect(error).toMatchObject({ jobId: started.id, completed: 2 });
  });

  it("the watcher stops with a fatal JobStalledError (iteration and on('error')), and cancels with cancelOnStall", async () => {
    const s = await open("fetch", {}, { plugins: [team] });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const started = await s.client.startCrawl("https://acme.test/", { limit: 5 });
    fakeJobs(s.fake).advance(started.id, 1);
    const watcher = s.client.watcher(started.id, { transports: ["poll"], stallTimeoutMs: 30_000, cancelOnStall: true });
    const fatal: WatchEvent[] = [];
    watcher.on("error", (e) => fatal.push(e));
    const events: WatchEvent[] = [];
    const { error } = await drive(
      settled(
        (async () => {
          for await (const e of watcher) events.push(e);
        })(),
      ),
    );
    expect(error).toBeInstanceOf(JobStalledError);
    expect(error).toMatchObject({ jobId: started.id, completed: 1, cancelled: true });
    expect(events.filter((e) => e.type === "document")).toHaveLength(1);
    expect(fatal).toEqual([expect.objectContaining({ type: "error", fatal: true, error })]);
    expect(fakeJobs(s.fake).get(started.id).status).toBe("cancelled");
  });

  it("stallTimeoutMs is checked once, as timeoutMs: whole milliseconds a timer holds", async () => {
    const s = await open("fetch", {}, { plugins: [team] });
    await expect(s.client.crawl("https://acme.test/", { stallTimeoutMs: 1.5 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.batchScrape(["https://acme.test/"], { stallTimeoutMs: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.crawl("https://acme.test/", { cancelOnStall: "yes" as never })).rejects.toBeInstanceOf(ValidationError);
    const it = s.client.crawlDocuments("00000000-0000-7000-8000-000000000001", { stallTimeoutMs: -1 });
    await expect(it.next()).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });
});
