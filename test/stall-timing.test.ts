/**
 * When a stall is declared: for each user of `stallTimeoutMs` (the `crawl()` and `batchScrape()` waiters, the
 * `crawlDocuments()` and `batchScrapeDocuments()` iterators, the watcher), a job that stops progressing gets its
 * `JobStalledError` not before `stallTimeoutMs` has passed since the last progress the client saw, and no later than
 * one poll interval after `stallTimeoutMs` from the progress the service made; its `sinceProgressMs` lies in that
 * window too. Against the fake, whose jobs stop with `pagesPerPoll: 0` and move with `fakeJobs(fake).advance`, on fake
 * timers stepped 100 ms at a time so the moment is read to within a step.
 */
import { describe, expect, it, vi } from "vitest";
import type { WebData } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { jobTestSetups, tick } from "./jobs-helpers.js";
import type { Setup } from "./helpers.js";
import { JobStalledError, team } from "../src/team.js";

const { open } = jobTestSetups();

/** `stallTimeoutMs` of every case. */
const STALL_MS = 10_000;
/** `pollIntervalMs` of every case (a whole divisor of {@link STALL_MS}, so the reads fall on the stall's moment). */
const POLL_MS = 1_000;
/** The fake clock's step. */
const STEP_MS = 100;
/** When the job makes its one progress, after the call began: between two reads (they come every {@link POLL_MS}). */
const MOVE_AT_MS = 3_500;

/** Lets the in-process fake answer (a few turns of real I/O and microtasks) without moving the clock. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await tick();
}

/** Runs the fake clock to `at` (a `Date.now()` value) in {@link STEP_MS} steps, letting the fake answer between them. */
async function runTo(at: number): Promise<void> {
  await settle();
  while (Date.now() < at) {
    await vi.advanceTimersByTimeAsync(Math.min(STEP_MS, at - Date.now()));
    await settle();
  }
}

/** How a call ended, and when (by the fake clock). */
interface Outcome {
  at?: number;
  error?: unknown;
}

/** Notes when and how `p` settles (so a rejection is not unhandled while time passes). */
function track(p: Promise<unknown>): Outcome {
  const out: Outcome = {};
  p.then(
    () => (out.at = Date.now()),
    (error: unknown) => {
      out.at = Date.now();
      out.error = error;
    },
  );
  return out;
}

/** Reads an async iterable to its end (or its error). */
async function drain(it: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of it) void _;
}

type Kind = "crawl" | "batch";

/** One user of `stallTimeoutMs`: it starts its job (or is given one started) and waits on it until it ends. */
interface Case {
  name: string;
  kind: Kind;
  run: (client: WebData, id: () => Promise<string>) => Promise<unknown>;
}

const opts = { stallTimeoutMs: STALL_MS, pollIntervalMs: POLL_MS };
const URLS = ["https://acme.test/about", "https://acme.test/contact", "https://acme.test/"];

const CASES: Case[] = [
  { name: "crawl() (the waiter)", kind: "crawl", run: (c) => c.crawl("https://acme.test/", { limit: 5, ...opts }) },
  { name: "batchScrape() (the waiter)", kind: "batch", run: (c) => c.batchScrape(URLS, opts) },
  { name: "crawlDocuments()", kind: "crawl", run: async (c, id) => drain(c.crawlDocuments(await id(), opts)) },
  { name: "batchScrapeDocuments()", kind: "batch", run: async (c, id) => drain(c.batchScrapeDocuments(await id(), opts)) },
  { name: "watcher() (polling)", kind: "crawl", run: async (c, id) => drain(c.watcher(await id(), { transports: ["poll"], ...opts })) },
];

/** The status reads of job `id` (every read of its status route: a poll, a page of the walk, the watcher's read). */
function statusReads(s: Setup, kind: Kind, id: string): number[] {
  const path = kind === "crawl" ? `/v2/crawl/${id}` : `/v2/batch/scrape/${id}`;
  return s.fake.requests.filter((r) => r.method === "GET" && r.pathname === path).map((r) => r.at);
}

describe("when a stall is declared: not before stallTimeoutMs without progress, no later than one poll after it", () => {
  it.each(CASES)("$name", async ({ kind, run }) => {
    const s = await open("fetch", {}, { plugins: [team] });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 }); // the job moves only when the test moves it
    // The iterators and the watcher are given a job started here; the waiters start their own (the only job of the fake).
    const start = (): Promise<string> => (kind === "crawl" ? s.client.startCrawl("https://acme.test/", { limit: 5 }) : s.client.startBatchScrape(URLS)).then((r) => r.id);
    let given: string | undefined;
    const t0 = Date.now();
    const out = track(run(s.client, async () => (given = await start())));
    await runTo(t0 + MOVE_AT_MS);
    expect(out, "the call ended before its job stalled").toEqual({});
    const all = [...jobs.all.keys()];
    expect(all).toHaveLength(1);
    const id = all[0]!;
    if (given !== undefined) expect(id).toBe(given);
    expect(statusReads(s, kind, id).length, "the job's status is read every pollIntervalMs").toBeGreaterThanOrEqual(3);

    // The job makes progress (one more page), then none.
    jobs.advance(id, 1);
    const moved = Date.now();
    const completed = jobs.get(id).docs.length;
    await runTo(moved + POLL_MS);
    // The client sees it at its next read, at most one poll interval later.
    const seen = statusReads(s, kind, id).find((at) => at >= moved);
    expect(seen, "no status read within one poll interval of the progress").toBeDefined();
    expect(seen!).toBeLessThanOrEqual(moved + POLL_MS);

    // (1) Not before stallTimeoutMs has passed since the progress the client saw.
    await runTo(seen! + STALL_MS - 1);
    expect(out.at === undefined ? undefined : `declared ${out.at - seen!} ms after the last progress seen`, `before stallTimeoutMs (${STALL_MS} ms)`).toBeUndefined();

    // (2) No later than stallTimeoutMs plus one poll interval after the progress the job made.
    await runTo(moved + STALL_MS + POLL_MS);
    expect(out.error, `not declared by ${Date.now() - moved} ms after the last progress (stallTimeoutMs ${STALL_MS} + pollIntervalMs ${POLL_MS})`).toBeInstanceOf(JobStalledError);
    const err = out.error as JobStalledError;
    expect(err).toMatchObject({ jobId: id, status: "scraping", completed, cancelled: false });
    expect(out.at!).toBeGreaterThanOrEqual(seen! + STALL_MS);
    expect(out.at!).toBeLessThanOrEqual(moved + STALL_MS + POLL_MS);
    expect(err.sinceProgressMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(err.sinceProgressMs).toBeLessThanOrEqual(STALL_MS + POLL_MS);
    expect(jobs.get(id).status).toBe("scraping"); // not cancelled: no cancelOnStall
  });
});
