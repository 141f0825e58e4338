/**
 * Regression tests of job pagination and status: pagination loops
 * (`PaginationError`) and (`{success:false}` without `error` on a status read).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { JobFailedError, PaginationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { collect, docIds } from "./watch-helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

const doc = (n: number) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, sourceURL: `https://acme.test/${n}`, statusCode: 200 } });
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const page = (status: string, docs: unknown[], next?: string) => ({ success: true, status, completed: 3, total: 3, creditsUsed: 3, expiresAt: "2026-11-24T00:00:00.000Z", data: docs, ...(next ? { next } : {}) });

describe.each(TRANSPORTS)("job pages over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    vi.useRealTimers();
    await s?.close();
  });

  /** Answers up to 50 times, then 404 (so code without the loop guard fails here instead of looping forever). */
  let answered = 0;
  const bounded = (answer: () => Response) => (++answered > 50 ? new Response(JSON.stringify({ success: false, error: "loop" }), { status: 404 }) : answer());
  afterEach(() => {
    answered = 0;
  });

  /** Counts GETs of the job's status route. */
  const statusReads = (id: string) => s.fake.requests.filter((r) => r.method === "GET" && r.pathname === `/v2/crawl/${id}`).length;

  it("a completed status whose next points to itself ends with PaginationError, no duplicates", async () => {
    s = await setup(kind);
    s.fake.addHook((req, url) => (req.method === "GET" && url.pathname === "/v2/crawl/job-self" ? bounded(() => json(page("completed", [doc(1), doc(2)], url.href))) : undefined));
    const seen: string[] = [];
    const err = await (async () => {
      for await (const d of s.client.crawlDocuments("job-self", { pollIntervalMs: 500 })) seen.push(String(d.metadata.scrapeId));
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaginationError);
    expect((err as PaginationError).reason).toBe("loop");
    expect(err).toMatchObject({ jobId: "job-self" });
    expect(seen).toEqual(["scrape-1", "scrape-2"]);
    expect(statusReads("job-self")).toBeLessThanOrEqual(3);
  });

  it("a next that leads back to a page already read (A -> B -> A) is a loop", async () => {
    s = await setup(kind);
    s.fake.addHook((req, url) => {
      if (req.method !== "GET" || url.pathname !== "/v2/crawl/job-ab") return undefined;
      const b = url.searchParams.get("skip") === "1";
      const other = new URL(url.href);
      other.search = b ? "?skip=0&x=a" : "?skip=1";
      return bounded(() => json(page("completed", [doc(b ? 2 : 1)], other.href)));
    });
    const ids: string[] = [];
    const loop = await (async () => {
      for await (const d of s.client.crawlDocuments("job-ab")) ids.push(String(d.metadata.scrapeId));
    })().catch((e: unknown) => e);
    expect(loop).toBeInstanceOf(PaginationError);
    expect((loop as PaginationError).reason).toBe("loop");
    expect(statusReads("job-ab")).toBeLessThanOrEqual(4);
  });

  it("crawl() against a self-referencing next fails fast instead of sending thousands of requests", async () => {
    s = await setup(kind);
    let id = "";
    s.fake.addHook((req, url) => {
      if (req.method === "POST" && url.pathname === "/v2/crawl") {
        id = "job-crawl-loop";
        return json({ success: true, id, url: `${url.origin}/v2/crawl/${id}` });
      }
      return req.method === "GET" && url.pathname === "/v2/crawl/job-crawl-loop" ? bounded(() => json(page("completed", [doc(1)], url.href))) : undefined;
    });
    const err = await s.client.crawl("https://example.com", { pollIntervalMs: 500, timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaginationError);
    expect((err as PaginationError).reason).toBe("loop");
    expect(statusReads(id)).toBeLessThanOrEqual(4);
  });

  it("while the job runs, re-reading the same empty next page is allowed (it is how new results are awaited)", async () => {
    s = await setup(kind);
    let reads = 0;
    s.fake.addHook((req, url) => {
      if (req.method !== "GET" || url.pathname !== "/v2/crawl/job-wait") return undefined;
      reads += 1;
      const next = `${url.origin}/v2/crawl/job-wait?skip=1`;
      if (reads === 1) return json(page("scraping", [doc(1)], next));
      if (reads < 3) return json(page("scraping", [], next));
      return json(page("completed", [doc(2)]));
    });
    // The wait between the reads (pollIntervalMs 1, raised to the public 500 ms floor) runs on the fake clock.
    useJobTimers();
    const ids: string[] = [];
    await drive(
      (async () => {
        for await (const d of s.client.crawlDocuments("job-wait", { pollIntervalMs: 1 })) ids.push(String(d.metadata.scrapeId));
      })(),
    );
    expect(ids).toEqual(["scrape-1", "scrape-2"]);
  });

  it("{success:false} without error is a failed job for getCrawlStatus, the waiter and the watcher alike", async () => {
    s = await setup(kind);
    s.fake.addHook((req, url) => (req.method === "GET" && url.pathname === "/v2/crawl/job-nosuccess" ? json({ success: false }) : undefined));
    await expect(s.client.getCrawlStatus("job-nosuccess")).resolves.toMatchObject({ status: "failed" });
    const { events } = await collect(s.client.watcher("job-nosuccess", { transports: ["poll"], pollIntervalMs: 50 }));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "failed" });
    expect(docIds(events)).toEqual([]);
    s.fake.addHook((req, url) => {
      if (req.method === "POST" && url.pathname === "/v2/crawl") return json({ success: true, id: "job-nosuccess", url: `${url.origin}/v2/crawl/job-nosuccess` });
      return undefined;
    });
    const err = await s.client.crawl("https://example.com", { pollIntervalMs: 500, timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
  });
});
