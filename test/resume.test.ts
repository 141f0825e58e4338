/**
 * Resumable document streams: `crawlDocuments` and `batchScrapeDocuments` expose
 * `position`, a string to persist after each document; `resumeFrom: position` continues with the next
 * document, none lost and none repeated, across pages, mid-page and in another client (a new process's
 * `ClientState`). Another job's position, or a string that is not one, is a `ValidationError` before any
 * request. The scripted jobs here are finished: the guarantee is exact for them (their pages do not change).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError, WebData as PortableWebData, type Document } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { fakeJobs, serveFake } from "../src/testing/node.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { team } from "../src/team.js";

const doc = (n: number) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, sourceURL: `https://acme.test/${n}`, statusCode: 200 } });
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/**
 * A finished job of `kind` whose status reads are answered from `pages(skip)` (the documents from that
 * server offset), `size` a page, with `next` links stating `skip` while documents remain.
 */
async function scripted(transport: (typeof TRANSPORTS)[number], kind: "crawl" | "batch", id: string, docsAt: (skip: number) => number[], total: number, size = 3): Promise<Setup> {
  s = await setup(transport);
  const route = kind === "crawl" ? `/v2/crawl/${id}` : `/v2/batch/scrape/${id}`;
  s.fake.addHook((req, url) => {
    if (req.method !== "GET" || url.pathname !== route) return undefined;
    const skip = Number(url.searchParams.get("skip") ?? 0);
    const data = docsAt(skip).slice(0, Math.max(0, Math.min(size, total - skip)));
    const next = skip + data.length < total ? `${url.origin}${route}?skip=${skip + data.length}` : undefined;
    return json({ success: true, status: "completed", completed: total, total, creditsUsed: total, expiresAt: "2026-11-24T00:00:00.000Z", data: data.map(doc), ...(next ? { next } : {}) });
  });
  return s;
}

/** Documents 1..total in order, `skip` the offset of the first. */
const straight = (skip: number) => Array.from({ length: 100 }, (_, i) => skip + i + 1);

/** A client of its own (its own `ClientState`), as a restarted process makes, on the same fake. */
function freshClient(s: Setup): PortableWebData {
  return new PortableWebData({ plugins: [team], apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
}

/** Reads `n` documents, then stops; returns their ids and the position after the last. */
async function readSome(stream: AsyncGenerator<Document> & { readonly position: string }, n: number): Promise<{ ids: string[]; position: string }> {
  const ids: string[] = [];
  let position = stream.position;
  for await (const d of stream) {
    ids.push(String(d.metadata.scrapeId));
    position = stream.position;
    if (ids.length === n) break;
  }
  return { ids, position };
}

async function all(stream: AsyncIterable<Document>): Promise<string[]> {
  const ids: string[] = [];
  for await (const d of stream) ids.push(String(d.metadata.scrapeId));
  return ids;
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `scrape-${from + i}`);
const reads = (s: Setup) => s.fake.requests.filter((r) => r.method === "GET").length;

describe.each(TRANSPORTS)("resumable document streams over %s", (transport) => {
  it("position after the last document of a page resumes with the first of the next page, in a new client", async () => {
    await scripted(transport, "crawl", "job-r1", straight, 10);
    const first = await readSome(s!.client.crawlDocuments("job-r1"), 3);
    expect(first.ids).toEqual(ids(1, 3));
    const rest = await all(freshClient(s!).crawlDocuments("job-r1", { resumeFrom: first.position }));
    expect(rest).toEqual(ids(4, 10));
  });

  it("position mid-page resumes with the next document of that page, none lost, none repeated", async () => {
    await scripted(transport, "crawl", "job-r2", straight, 10);
    const first = await readSome(s!.client.crawlDocuments("job-r2"), 5);
    expect(first.ids).toEqual(ids(1, 5));
    const rest = await all(freshClient(s!).crawlDocuments("job-r2", { resumeFrom: first.position }));
    expect(rest).toEqual(ids(6, 10));
    // Resuming each position in turn gives the documents after it, whichever document it was taken at.
    const stream = s!.client.crawlDocuments("job-r2");
    const positions = [stream.position];
    for await (const _ of stream) positions.push(stream.position);
    expect(positions).toHaveLength(11);
    for (const [k, position] of positions.entries()) expect(await all(freshClient(s!).crawlDocuments("job-r2", { resumeFrom: position }))).toEqual(ids(k + 1, 10));
  });

  it("a resumed stream's position resumes too (a second restart)", async () => {
    await scripted(transport, "crawl", "job-r3", straight, 10);
    const a = await readSome(s!.client.crawlDocuments("job-r3"), 2);
    const b = await readSome(freshClient(s!).crawlDocuments("job-r3", { resumeFrom: a.position }), 4);
    const c = await all(freshClient(s!).crawlDocuments("job-r3", { resumeFrom: b.position }));
    expect([...a.ids, ...b.ids, ...c]).toEqual(ids(1, 10));
  });

  it("a document the server repeats on the page after the position is not yielded again after the resume", async () => {
    // Page 1 is [1, 2, 3]; the server's next steps back one, so page 2 is [3, 4, 5] (3 repeated), then [6, 7].
    const layout: Record<number, number[]> = { 0: [1, 2, 3], 2: [3, 4, 5], 5: [6, 7] };
    s = await setup(transport);
    s.fake.addHook((req, url) => {
      if (req.method !== "GET" || url.pathname !== "/v2/crawl/job-rep") return undefined;
      const skip = Number(url.searchParams.get("skip") ?? 0);
      const next = { 0: 2, 2: 5 }[skip];
      return json({ success: true, status: "completed", completed: 7, total: 7, creditsUsed: 7, expiresAt: "2026-11-24T00:00:00.000Z", data: (layout[skip] ?? []).map(doc), ...(next ? { next: `${url.origin}/v2/crawl/job-rep?skip=${next}` } : {}) });
    });
    expect(await all(s.client.crawlDocuments("job-rep"))).toEqual(ids(1, 7));
    for (let n = 1; n <= 6; n++) {
      const first = await readSome(s.client.crawlDocuments("job-rep"), n);
      const rest = await all(freshClient(s).crawlDocuments("job-rep", { resumeFrom: first.position }));
      expect([...first.ids, ...rest], `stopped after ${n}`).toEqual(ids(1, 7));
    }
  });

  it("batchScrapeDocuments: the same position and resumeFrom", async () => {
    await scripted(transport, "batch", "batch-r", straight, 8);
    const first = await readSome(s!.client.batchScrapeDocuments("batch-r"), 4);
    expect(first.ids).toEqual(ids(1, 4));
    expect(await all(freshClient(s!).batchScrapeDocuments("batch-r", { resumeFrom: first.position }))).toEqual(ids(5, 8));
  });

  it("another job's position, or the same job's position of the other method, is a ValidationError before anything is sent", async () => {
    await scripted(transport, "crawl", "job-a", straight, 6);
    const { position } = await readSome(s!.client.crawlDocuments("job-a"), 2);
    const before = reads(s!);
    const other = await all(s!.client.crawlDocuments("job-b", { resumeFrom: position })).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ValidationError);
    expect(String((other as Error).message)).toMatch(/resumeFrom.*crawl job-a.*not of crawl job-b/);
    const batch = await all(s!.client.batchScrapeDocuments("job-a", { resumeFrom: position })).catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(ValidationError);
    expect(String((batch as Error).message)).toMatch(/not of batch scrape job-a/);
    expect(reads(s!)).toBe(before);
  });

  it.each([
    ["not base64url", "not a position!"],
    ["empty", ""],
    ["base64url of text that is not JSON", "aGVsbG8"],
    ["a number", 42],
    ["a position with a negative offset", btoa(JSON.stringify({ v: 1, job: "job-m", kind: "crawl", skip: -1, index: 0 })).replace(/=+$/, "")],
    ["a position of another version", btoa(JSON.stringify({ v: 2, job: "job-m", kind: "crawl", skip: 0, index: 0 })).replace(/=+$/, "")],
  ])("a malformed position (%s) is a ValidationError naming resumeFrom before anything is sent", async (_, resumeFrom) => {
    await scripted(transport, "crawl", "job-m", straight, 6);
    const thrown = await all(s!.client.crawlDocuments("job-m", { resumeFrom: resumeFrom as string })).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).issues.map((i) => i.path)).toEqual(["resumeFrom"]);
    expect(reads(s!)).toBe(0);
  });
});

describe("resuming a crawl of the fake after a restart", () => {
  it("a stream stopped after 4 documents and resumed by a new Node client over undici gives every document once", async () => {
    const fake = (await import("../src/testing/index.js")).createFakeService();
    const served = await serveFake(fake, { webSocket: false });
    try {
      const jobs = fakeJobs(fake);
      jobs.configure({ defaultPageSize: 3 });
      const make = () => new NodeWebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
      const { id } = await make().startCrawl("https://acme.test/", { limit: 10 });
      jobs.finish(id);
      const expected = jobs.get(id).docs.map((d) => (d.metadata as { sourceURL: string }).sourceURL);
      expect(expected.length).toBeGreaterThan(6);
      const stream = make().crawlDocuments(id);
      const got: string[] = [];
      let saved = stream.position;
      for await (const d of stream) {
        got.push(String(d.metadata.sourceURL));
        saved = stream.position; // persisted after each document
        if (got.length === 4) break; // the process dies here
      }
      for await (const d of make().crawlDocuments(id, { resumeFrom: saved })) got.push(String(d.metadata.sourceURL));
      expect(got).toEqual(expected);
    } finally {
      await served.close();
    }
  });
});

describe("a resumed batch stream and byUrl()", () => {
  it("a resumed stream's byUrl() rejects (it has not seen the documents before its position) and reads no /errors", async () => {
    await scripted("fetch", "batch", "batch-u", straight, 8);
    const urls = Array.from({ length: 8 }, (_, i) => `https://acme.test/p${i + 1}`);
    const first = await readSome(s!.client.batchScrapeDocuments("batch-u", { urls }), 3);
    const resumed = freshClient(s!).batchScrapeDocuments("batch-u", { urls, resumeFrom: first.position });
    expect(await all(resumed)).toEqual(ids(4, 8));
    await expect(resumed.byUrl()).rejects.toThrow(ValidationError);
    await expect(resumed.byUrl()).rejects.toThrow(/resumeFrom.*every document/);
    expect(s!.fake.requests.filter((r) => r.pathname.endsWith("/errors"))).toHaveLength(0);
  });
});
