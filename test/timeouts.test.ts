/**
 * The two `timeoutMs` of the README's "Two timeouts" section: the one in
 * `RequestOptions` (and the client options) limits each HTTP attempt of a
 * waiter's polls (`TimeoutError`); the one in a waiter's options is the
 * deadline of the whole job (`JobTimeoutError`, the job left running).
 */
import { describe, expect, it } from "vitest";
import { JobTimeoutError, TimeoutError, WebData } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { drive, jobTestSetups, tick } from "./jobs-helpers.js";

const { open } = jobTestSetups();

describe.each(TRANSPORTS)("per-request and per-job timeoutMs over %s", (kind) => {
  let s: Setup;

  it("RequestOptions.timeoutMs limits each poll of a waiter: a slow status read is a TimeoutError", async () => {
    s = await open(kind, {}, { maxRetries: 0 });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    s.fake.inject({ match: /^GET \/v2\/crawl\/[^/?]+\?limit=1$/, delayMs: 5_000 });
    const settled = s.client.crawl("https://acme.test/", { limit: 3, pollIntervalMs: 500, timeoutMs: 60_000 }, { timeoutMs: 1_000 }).catch((e: unknown) => e);
    const err = await drive(settled, 250);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).timeoutMs).toBe(1_000);
  });

  it("WaitOptions.timeoutMs is the whole job's deadline: JobTimeoutError with the last status, the job not cancelled", async () => {
    s = await open(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const settled = s.client.crawl("https://acme.test/", { limit: 3, pollIntervalMs: 500, timeoutMs: 3_000 }, { timeoutMs: 1_000 }).catch((e: unknown) => e);
    for (let i = 0; i < 5; i++) await tick();
    const err = await drive(settled, 250);
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect(err).toMatchObject({ timeoutMs: 3_000, lastStatus: { status: "scraping" } });
    // Several polls fit in the job's 3 s: the per-request 1 s did not end the wait.
    expect(s.fake.requests.filter((r) => r.method === "GET" && r.path.endsWith("?limit=1")).length).toBeGreaterThan(2);
    expect(s.fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });
});

it("the client's timeoutMs is per attempt: an integer of at least 1 (0 is rejected, unlike maxRetries 0)", () => {
  expect(() => new WebData({ apiKey: "k", timeoutMs: 0 })).toThrow(/timeoutMs: must be >= 1/);
  expect(() => new WebData({ apiKey: "k", timeoutMs: 1.5 })).toThrow(/timeoutMs/);
  expect(() => new WebData({ apiKey: "k", maxRetries: 0, maxRetryAfterMs: 0 })).not.toThrow();
  expect(() => new WebData({ apiKey: "k", maxRetryAfterMs: -1 })).toThrow(/maxRetryAfterMs: must be >= 0/);
});
