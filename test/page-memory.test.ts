/**
 * What iterating a finished crawl holds at once: one page's documents, as a raw page
 * loop does. Nothing of a page (its documents, its text, the status object) is alive while the next page
 * is read, and nothing but its documents while it is iterated: no second page, no page text kept beside
 * the parsed body. Measured as the live heap after a full GC, which does not depend on GC timing.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe.each(TRANSPORTS)("crawlDocuments holds one page at a time (%s)", (kind) => {
  it("while the next page is read nothing of the page before is alive, and while a page is iterated only its documents are", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const SIZE = 10;
    const TOTAL = 80;
    // 10 documents of 200 KB a page: a page's documents are 2 MB on the heap, its text 2 MB more.
    const PAGE_MB = (SIZE * 200 * 1024) / 1024 / 1024;
    const liveMB = () => {
      gc();
      return process.memoryUsage().heapUsed / 1024 / 1024;
    };
    s = await setup(kind);
    const atRead: number[] = [];
    s.fake.addHook((req, u) => {
      const m = /^\/v2\/crawl\/(job-warm|job-measured)$/.exec(u.pathname);
      if (req.method !== "GET" || !m) return undefined;
      const skip = Number(u.searchParams.get("skip") ?? 0);
      // The server is asked for the next page: what the client holds now is what it holds during the read.
      if (m[1] === "job-measured") atRead.push(liveMB());
      const data = Array.from({ length: Math.min(SIZE, TOTAL - skip) }, (_, i) => ({
        markdown: `# ${skip + i}\n${"y".repeat(200 * 1024)}`,
        metadata: { sourceURL: `https://acme.test/${skip + i}`, statusCode: 200 },
      }));
      const next = skip + SIZE < TOTAL ? `${u.origin}${u.pathname}?skip=${skip + SIZE}` : undefined;
      return json({ success: true, status: "completed", completed: TOTAL, total: TOTAL, creditsUsed: TOTAL, expiresAt: "2026-11-24T00:00:00.000Z", data, ...(next ? { next } : {}) });
    });
    // A first crawl, so the code the walk compiles on first use is not counted.
    let n = 0;
    for await (const d of s.client.crawlDocuments("job-warm")) n += d.markdown ? 1 : 0;
    const midPage: number[] = [];
    const seen = new Set<string>();
    for await (const d of s.client.crawlDocuments("job-measured")) {
      seen.add(String(d.metadata?.sourceURL));
      if (++n % SIZE === 5) midPage.push(liveMB());
    }
    expect(n).toBe(2 * TOTAL);
    expect(seen.size).toBe(TOTAL); // every document once
    expect(atRead).toHaveLength(TOTAL / SIZE);
    // Above the heap at the first read (before any page of the job): under half a page while each next page is
    // read (the page before held would be 2 MB), under one and a half pages mid-page (its text kept, or the
    // page before, would be two).
    const before = atRead[0]!;
    for (const x of atRead.slice(1)) expect(x - before).toBeLessThan(PAGE_MB / 2);
    for (const x of midPage) expect(x - before).toBeLessThan(PAGE_MB * 1.5);
  });
});
