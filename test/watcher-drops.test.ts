/**
 * The no-loss, no-duplicate property of the watcher: across many seeded runs
 * the live stream (WebSocket or SSE) is cut at random points, the job
 * progresses at random speeds and finishes with a random lag; the watcher must
 * deliver every document of the job exactly once and say `done` only after a
 * REST status read.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchEvent } from "../src/jobs/watch-types.js";
import { dropStream, fakeJobs, streamLog } from "../src/testing/node.js";
import { collect, docIds, jobDocIds, NodeWebSocket, servedSetup } from "./watch-helpers.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

/** mulberry32: a small deterministic PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = Array.from({ length: 30 }, (_, i) => i + 1);

describe("watcher under random transport drops", () => {
  let totalDrops = 0;
  let fallbacks = 0;
  afterEach(() => void vi.useRealTimers());

  it.each(SEEDS)("seed %i: every document exactly once, done after REST confirmation", async (seed) => {
    const rand = rng(seed);
    const mode = seed % 3 === 0 ? "sse" : "ws";
    const kind = seed % 2 === 0 ? "fetch" : "undici";
    const { fake, client, close } = await servedSetup(kind, { sse: mode === "sse" || rand() < 0.5, manyPages: 24 });
    try {
      fakeJobs(fake).configure({ pagesPerPoll: 1 + Math.floor(rand() * 3), settlePolls: Math.floor(rand() * 3) });
      const job = await client.startCrawl("https://acme.test/", { limit: 8 + Math.floor(rand() * 10) });
      const drops = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < drops; i++) dropStream(fake, { transport: mode, afterFrames: Math.floor(rand() * 6) });

      const watcher = client.watcher(job.id, {
        webSocket: mode === "ws" ? NodeWebSocket : undefined,
        transports: mode === "ws" ? undefined : ["sse", "poll"], // Node 22+ has a global WebSocket
        ...FAST_WATCH,
        maxReconnects: rand() < 0.3 ? 0 : 2,
      });
      let requestBeforeDone: { method: string; path: string; accept: string } | undefined;
      let jobStateAtDone: string | undefined;
      watcher.on("done", () => {
        const r = fake.requests.at(-1);
        requestBeforeDone = r && { method: r.method, path: r.pathname, accept: r.headers.accept ?? "" };
        jobStateAtDone = fakeJobs(fake).get(job.id).status;
      });
      // The polls, the reconnect backoff and the fake's frame pacing run on the fake clock, 10 ms a step between real I/O turns.
      useJobTimers();
      const { events, thrown } = await drive(collect(watcher), 10);

      expect(thrown).toBeUndefined();
      const got = docIds(events);
      const expected = jobDocIds(fake, job.id);
      expect(got.length).toBe(new Set(got).size); // zero duplicated
      expect([...got].sort()).toEqual([...expected].sort()); // zero lost
      expect(expected.length).toBeGreaterThanOrEqual(8);
      const dones = events.filter((e): e is Extract<WatchEvent, { type: "done" }> => e.type === "done");
      expect(dones).toHaveLength(1);
      expect(events.at(-1)).toBe(dones[0]);
      expect(dones[0]).toMatchObject({ status: "completed", completed: expected.length });
      // `done` came right after a plain REST status read that saw the job terminal.
      expect(requestBeforeDone).toMatchObject({ method: "GET", path: `/v2/crawl/${job.id}` });
      expect(requestBeforeDone?.accept).not.toContain("event-stream");
      expect(jobStateAtDone).toBe("completed");
      // Every drop surfaced as a non-fatal error event.
      const dropped = streamLog(fake).filter((c) => c.dropped).length;
      expect(events.filter((e) => e.type === "error" && !e.fatal).length).toBeGreaterThanOrEqual(dropped);
      expect(events.some((e) => e.type === "error" && e.fatal)).toBe(false);
      totalDrops += dropped;
      if (fake.requests.some((r) => r.method === "GET" && /skip=0/.test(r.path))) fallbacks += 1;
    } finally {
      await close();
    }
  });

  it("actually dropped streams and fell back to polling in many of the runs", () => {
    expect(totalDrops).toBeGreaterThanOrEqual(30);
    expect(fallbacks).toBeGreaterThanOrEqual(5);
  });
});
