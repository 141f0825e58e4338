/**
 * `crawlUrlAndWatch` / `batchScrapeUrlsAndWatch`: a v1-compatible watcher
 * (`addEventListener("document" | "done" | "error", (ev) => ev.detail ...)`)
 * fed by the shared v2 watcher, so every document arrives exactly once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { V1DocumentDetail, V1DoneDetail, V1ErrorDetail } from "../src/v1/index.js";
import { fakeJobs, FIXTURE_ORIGIN } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";
import { v1BodyProblems } from "./support/openapi.js";

const HOME = `${FIXTURE_ORIGIN}/`;
let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

function listen(w: EventTarget): { docs: V1DocumentDetail[]; done: Promise<V1DoneDetail | V1ErrorDetail>; events: string[] } {
  const docs: V1DocumentDetail[] = [];
  const events: string[] = [];
  const done = new Promise<V1DoneDetail | V1ErrorDetail>((resolve) => {
    w.addEventListener("document", (ev) => {
      events.push("document");
      docs.push((ev as CustomEvent<V1DocumentDetail>).detail);
    });
    w.addEventListener("done", (ev) => {
      events.push("done");
      resolve((ev as CustomEvent<V1DoneDetail>).detail);
    });
    w.addEventListener("error", (ev) => {
      events.push("error");
      resolve((ev as CustomEvent<V1ErrorDetail>).detail);
    });
  });
  return { docs, done, events };
}

describe.each(TRANSPORTS)("v1 watchers over %s", (kind) => {
  it("crawlUrlAndWatch(url, params, key): POST /v1/crawl, then document events and one done with every document", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 2, defaultPageSize: 2 });
    const watcher = await drive(s.client.v1.crawlUrlAndWatch(HOME, { limit: 5, ignoreSitemap: true }, "0195f0a8-3c1e-7a1b-9c2d-3e4f5a6b7c8d"));
    const post = s.fake.requests.find((r) => r.method === "POST")!;
    expect(post.pathname).toBe("/v1/crawl");
    expect(post.headers["x-idempotency-key"]).toBe("0195f0a8-3c1e-7a1b-9c2d-3e4f5a6b7c8d");
    expect(v1BodyProblems("POST", "/v1/crawl", post.body)).toEqual([]);
    const { docs, done, events } = listen(watcher);
    const detail = (await drive(done)) as V1DoneDetail;
    expect(events.at(-1)).toBe("done");
    expect(events.filter((e) => e === "done")).toHaveLength(1);
    expect(detail).toMatchObject({ status: "completed", id: watcher.id });
    expect(docs).toHaveLength(5);
    expect(new Set(docs.map((d) => d.metadata.sourceURL)).size).toBe(5);
    expect(docs.every((d) => d.id === watcher.id)).toBe(true);
    expect(detail.data).toHaveLength(5);
    expect(watcher.status).toBe("completed");
    expect(watcher.data).toHaveLength(5);
    // The shared watcher reads the v1 routes only (no WebSocket on Node 20: REST polling).
    expect(s.fake.requests.every((r) => r.pathname.startsWith("/v1/"))).toBe(true);
    expect(s.fake.requests.filter((r) => r.method === "GET").length).toBeGreaterThan(0);
  });

  it("a failed crawl dispatches one error event with the server's text", async () => {
    useJobTimers();
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const watcher = await drive(s.client.v1.crawlUrlAndWatch(HOME, { limit: 3 }));
    jobs.fail(watcher.id, "Crawl failed: boom");
    const { done, events } = listen(watcher);
    const detail = (await drive(done)) as V1ErrorDetail;
    expect(events).toEqual(["error"]);
    expect(detail).toMatchObject({ status: "failed", error: "Crawl failed: boom", id: watcher.id, data: [] });
  });

  it("close() stops the watcher: no events after it", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const watcher = await drive(s.client.v1.crawlUrlAndWatch(HOME, { limit: 3 }));
    const { events } = listen(watcher);
    watcher.close();
    fakeJobs(s.fake).finish(watcher.id);
    await drive(new Promise((r) => setTimeout(r, 10_000)));
    expect(events).toEqual([]);
  });

  it("batchScrapeUrlsAndWatch(urls, params, key, webhook, ignoreInvalidURLs): POST /v1/batch/scrape, then the same events", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 1 });
    const urls = [HOME, `${FIXTURE_ORIGIN}/about`];
    const watcher = await drive(s.client.v1.batchScrapeUrlsAndWatch(urls, { formats: ["markdown"] }, undefined, undefined, true));
    const post = s.fake.requests.find((r) => r.method === "POST")!;
    expect(post.pathname).toBe("/v1/batch/scrape");
    expect(post.body).toEqual({ urls, ignoreInvalidURLs: true, formats: ["markdown"] });
    const { docs, done } = listen(watcher);
    expect(await drive(done)).toMatchObject({ status: "completed" });
    expect(docs.map((d) => d.metadata.sourceURL)).toEqual(urls);
  });
});
