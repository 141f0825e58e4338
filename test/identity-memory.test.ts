/**
 * The document iterators' identity memory is bounded by what the server can repeat: iterating a finished job keeps
 * the identities of two pages, not one per document, and still never yields a document twice, pages read
 * while the job was scraping (which can shift as results land) included.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { setup, type Setup } from "./helpers.js";

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe("the identity memory of crawlDocuments", () => {
  it("a finished crawl's documents are not all remembered: heap growth over 600 documents with 20 KB identities stays under 4 MB", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const SIZE = 10;
    const TOTAL = 600;
    // Each document's identity is its sourceURL (no scrapeId), 20 KB long: remembering every one holds 12 MB.
    const url = (n: number) => `https://acme.test/${n}/${"x".repeat(20 * 1024)}`;
    s = await setup("fetch");
    s.fake.addHook((req, u) => {
      if (req.method !== "GET" || u.pathname !== "/v2/crawl/job-big") return undefined;
      const skip = Number(u.searchParams.get("skip") ?? 0);
      const data = Array.from({ length: Math.min(SIZE, TOTAL - skip) }, (_, i) => ({ markdown: "# d", metadata: { sourceURL: url(skip + i), statusCode: 200 } }));
      const next = skip + SIZE < TOTAL ? `${u.origin}/v2/crawl/job-big?skip=${skip + SIZE}` : undefined;
      return json({ success: true, status: "completed", completed: TOTAL, total: TOTAL, creditsUsed: TOTAL, expiresAt: "2026-11-24T00:00:00.000Z", data, ...(next ? { next } : {}) });
    });
    let n = 0;
    let base = 0;
    let growth = 0;
    for await (const _ of s.client.crawlDocuments("job-big")) {
      n++;
      if (n === 50 || n === TOTAL - 10) {
        gc();
        const used = process.memoryUsage().heapUsed;
        if (n === 50) base = used;
        else growth = used - base;
      }
    }
    expect(n).toBe(TOTAL);
    expect(growth / 1024 / 1024).toBeLessThan(4);
  });

  it("pages re-read while the job was scraping and a finished page that repeats the page before: every document once", async () => {
    // The server's list shifts while the job runs (2 comes again two pages later), then the finished job's
    // next steps back one (7 again on the page after).
    const pages: Record<number, { status: string; docs: number[]; next?: number }> = {
      0: { status: "scraping", docs: [1, 2, 3], next: 3 },
      3: { status: "scraping", docs: [4, 5, 6], next: 6 },
      6: { status: "scraping", docs: [2, 7], next: 8 },
      8: { status: "completed", docs: [8, 7, 9], next: 11 },
      11: { status: "completed", docs: [9, 10, 4] },
    };
    s = await setup("fetch");
    s.fake.addHook((req, u) => {
      if (req.method !== "GET" || u.pathname !== "/v2/crawl/job-shift") return undefined;
      const p = pages[Number(u.searchParams.get("skip") ?? 0)]!;
      const data = p.docs.map((n) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, sourceURL: `https://acme.test/${n}`, statusCode: 200 } }));
      return json({ success: true, status: p.status, completed: 10, total: 10, creditsUsed: 10, expiresAt: "2026-11-24T00:00:00.000Z", data, ...(p.next ? { next: `${u.origin}/v2/crawl/job-shift?skip=${p.next}` } : {}) });
    });
    const ids: string[] = [];
    for await (const d of s.client.crawlDocuments("job-shift")) ids.push(String(d.metadata.scrapeId));
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `scrape-${i + 1}`));
  });

  it("a finished job's next that leads back three pages: the documents at offsets already read are not yielded again", async () => {
    const pages: Record<string, { docs: number[]; next?: string }> = {
      "0": { docs: [1, 2], next: "skip=2" },
      "2": { docs: [3, 4], next: "skip=4" },
      "4": { docs: [5, 6], next: "skip=0&x=again" },
      "0again": { docs: [1, 2], next: "skip=6" },
      "6": { docs: [7] },
    };
    s = await setup("fetch");
    s.fake.addHook((req, u) => {
      if (req.method !== "GET" || u.pathname !== "/v2/crawl/job-back") return undefined;
      const p = pages[(u.searchParams.get("skip") ?? "0") + (u.searchParams.get("x") ?? "")]!;
      const data = p.docs.map((n) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, statusCode: 200 } }));
      return json({ success: true, status: "completed", completed: 7, total: 7, creditsUsed: 7, expiresAt: "2026-11-24T00:00:00.000Z", data, ...(p.next ? { next: `${u.origin}/v2/crawl/job-back?${p.next}` } : {}) });
    });
    const ids: string[] = [];
    for await (const d of s.client.crawlDocuments("job-back")) ids.push(String(d.metadata.scrapeId));
    expect(ids).toEqual(Array.from({ length: 7 }, (_, i) => `scrape-${i + 1}`));
  });
});
