/**
 * Expired jobs: a 404 for a crawl or batch scrape whose `expiresAt` has passed, or
 * that this client started more than 24 h earlier, or whose `/errors` says "Job expired", is
 * `JobExpiredError` (`jobId`, `expiresAt`), a subclass of `NotFoundError`; a 404 of a job this client
 * knows nothing about stays a plain `NotFoundError`. Status reads, document iterators, waiters and the
 * watcher alike. Against the fake, whose job routes answer 404 past the job's `expiresAt` (24 h), on fake timers.
 */
import { describe, expect, it, vi } from "vitest";
import { JobExpiredError, NotFoundError, WebData } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();
const HOUR = 3_600_000;

function settled<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

describe("expired jobs", () => {
  it("a status read after the expiresAt this client saw is JobExpiredError, a NotFoundError with that expiresAt", async () => {
    const s = await open("fetch");
    const started = await s.client.startCrawl("https://acme.test/", { limit: 2 });
    fakeJobs(s.fake).finish(started.id);
    const first = await s.client.getCrawlStatus(started.id);
    expect(first.expiresAt).not.toBe("");
    vi.setSystemTime(Date.now() + 25 * HOUR);
    const err = await s.client.getCrawlStatus(started.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobExpiredError);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ name: "JobExpiredError", status: 404, jobId: started.id, expiresAt: first.expiresAt });
    expect((err as Error).message).toContain(`Job ${started.id} has expired`);
    expect((err as Error).message).toContain("Start the job again");
  });

  it("a job this client started more than 24 h ago is expired without a status read; a job it never saw stays NotFoundError", async () => {
    const s = await open("fetch");
    const started = await s.client.startBatchScrape(["https://acme.test/about"]);
    vi.setSystemTime(Date.now() + 24 * HOUR + 1_000);
    const err = await s.client.getBatchScrapeStatus(started.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobExpiredError);
    expect(err).toMatchObject({ jobId: started.id, expiresAt: undefined });
    expect((err as Error).message).toContain("more than 24 h ago");

    const unknown = await s.client.getCrawlStatus("00000000-0000-7000-8000-00000000abcd").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).not.toBeInstanceOf(JobExpiredError);
  });

  it("/errors answering 'Job expired' is JobExpiredError even for another client's job", async () => {
    const s = await open("fetch");
    const started = await s.client.startCrawl("https://acme.test/", { limit: 1 });
    vi.setSystemTime(Date.now() + 25 * HOUR);
    const other = new WebData({ apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
    const err = await other.getCrawlErrors(started.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobExpiredError);
    expect(err).toMatchObject({ jobId: started.id, serverMessage: "Job expired" });
    const status = await other.getCrawlStatus(started.id).catch((e: unknown) => e);
    expect(status).toBeInstanceOf(NotFoundError); // "Job not found", and this client knows nothing of the job
    expect(status).not.toBeInstanceOf(JobExpiredError);
  });

  it("another client's job that the service says expired: the message says what is known, not that this client started it", async () => {
    const s = await open("fetch");
    fakeJobs(s.fake).configure({ ttlMs: 1_000 }); // a team's own TTL, far below 24 h
    const started = await s.client.startCrawl("https://acme.test/", { limit: 1 });
    vi.setSystemTime(Date.now() + 1_500);
    const other = new WebData({ apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
    const err = await other.getCrawlErrors(started.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobExpiredError);
    expect(err).toMatchObject({ jobId: started.id, expiresAt: undefined });
    const message = (err as Error).message;
    expect(message).not.toMatch(/this client started it|more than 24 h ago/);
    expect(message).toMatch(/the service answered that it expired/);
    expect(message).toContain("Server: Job expired");
  });

  it("the waiter, the documents iterator and the watcher end with JobExpiredError when the job expires under them", async () => {
    const s = await open("fetch");
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const waited = await drive(settled(s.client.crawl("https://acme.test/", { limit: 3, pollIntervalMs: HOUR })), HOUR, 100, 0);
    expect(waited.error).toBeInstanceOf(JobExpiredError);

    const started = await s.client.startBatchScrape(["https://acme.test/about", "https://acme.test/contact"]);
    const read = await drive(
      settled(
        (async () => {
          for await (const _ of s.client.batchScrapeDocuments(started.id, { pollIntervalMs: HOUR })) void _;
        })(),
      ),
      HOUR,
      100,
      0,
    );
    expect(read.error).toBeInstanceOf(JobExpiredError);
    expect(read.error).toMatchObject({ jobId: started.id });

    const crawl = await s.client.startCrawl("https://acme.test/", { limit: 3 });
    const watcher = s.client.watcher(crawl.id, { transports: ["poll"], pollIntervalMs: HOUR });
    const watched = await drive(
      settled(
        (async () => {
          for await (const _ of watcher) void _;
        })(),
      ),
      HOUR,
      100,
      0,
    );
    expect(watched.error).toBeInstanceOf(JobExpiredError);
    expect(watched.error).toMatchObject({ jobId: crawl.id });
  });
});
