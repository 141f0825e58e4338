/**
 * `webdata/firecrawl`, the drop-in entry: where the official client's
 * semantics differ from `WebData`'s, `Firecrawl` follows the official ones
 * (issue "Coming from the official client, part two"), over both transports,
 * against the fake service. `WebData` keeps its own (the last block).
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { APIError, JobFailedError, JobTimeoutError, NotFoundError, ValidationError, WebData } from "../src/index.js";
import { Firecrawl as PortableFirecrawl, FirecrawlAppV1 as PortableFirecrawlAppV1, FirecrawlClient, JobTimeoutError as OfficialJobTimeoutError, SdkError } from "../src/firecrawl/index.js";
import DefaultFirecrawl from "../src/firecrawl/index.js";
import type { ClickAction, Document, ErrorDetails, FirecrawlClientInput, MenuSection, PDFParser, ProductPrice, ScrapeAction, WaitAction, Watcher, WatcherOptions } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl, FirecrawlAppV1 as NodeFirecrawlAppV1 } from "../src/firecrawl/node.js";
import { fakeJobs, fakeTasks } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";

const SITE = "https://acme.test";
const { open } = jobTestSetups();

function app(s: Setup, kind: string): PortableFirecrawl {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9 };
  return kind === "fetch" ? new PortableFirecrawl({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawl(options);
}

function appV1(s: Setup, kind: string): PortableFirecrawlAppV1 {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9, silenceDeprecationWarnings: true };
  return kind === "fetch" ? new PortableFirecrawlAppV1({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawlAppV1(options);
}

/** Starts a batch scrape of the fixture site's `/many/N` pages and finishes it on the server. */
async function finishedBatch(s: Setup, a: PortableFirecrawl, pages = 150): Promise<string> {
  const { id } = await drive(a.startBatchScrape(Array.from({ length: pages }, (_, i) => `${SITE}/many/${i + 1}`)));
  fakeJobs(s.fake).finish(id);
  return id;
}

describe("the entry's names", () => {
  it("default export, FirecrawlClient and Firecrawl are one class; SdkError is the base of every SDK error", () => {
    expect(DefaultFirecrawl).toBe(PortableFirecrawl);
    expect(FirecrawlClient).toBe(PortableFirecrawl);
    expect(new NotFoundError({ status: 404, message: "x" })).toBeInstanceOf(SdkError);
  });

  it("backoffFactor is accepted (a positive number) and anything else is a ValidationError", () => {
    expect(() => new PortableFirecrawl({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1", backoffFactor: 0.5 })).not.toThrow();
    expect(() => new PortableFirecrawl({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1", backoffFactor: -1 })).toThrow(ValidationError);
  });

  it("the official type names compile as official code uses them (Watcher is the official watcher)", () => {
    const input: FirecrawlClientInput = "fc-x";
    const actions: (ClickAction | WaitAction | ScrapeAction)[] = [{ type: "wait", milliseconds: 500 }, { type: "click", selector: "a" }, { type: "scrape" }];
    const parser: PDFParser = { type: "pdf", mode: "fast" };
    const details: ErrorDetails = { message: "x", status: 400 };
    const options: WatcherOptions = { kind: "crawl", pollInterval: 2, timeout: 60 };
    const watcher: Watcher = new PortableFirecrawl({ apiKey: input, apiUrl: "http://127.0.0.1:1" }).watcher("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9", options);
    expect(watcher.on("snapshot", () => undefined)).toBe(watcher);
    expect([actions.length, parser.type, details.status]).toEqual([3, "pdf", 400]);
    // The branding, product and menu profiles are typed as the official client types them (they were `Record<string, unknown>`).
    const doc: Document = { metadata: { statusCode: 200 }, branding: { colors: { primary: "#f00" } }, product: { title: "Mug", url: "https://a.test/mug", variants: [{ availability: { inStock: true }, price: { amount: 12, formatted: "$12" } }] } };
    const price: ProductPrice | undefined = doc.product?.variants[0]?.price;
    const sections: MenuSection[] = doc.menu?.sections ?? [];
    expect([doc.branding?.colors?.primary, price?.formatted, sections.length]).toEqual(["#f00", "$12", 0]);
  });

  it("never shows the key (inspect, JSON)", () => {
    const a = new PortableFirecrawl({ apiKey: "fc-secret-key-123", apiUrl: "http://127.0.0.1:1" });
    expect(inspect(a)).not.toContain("fc-secret");
    expect(JSON.stringify(a)).not.toContain("fc-secret");
  });
});

describe.each(TRANSPORTS)("Firecrawl over %s", (kind) => {
  describe("getCrawlStatus / getBatchScrapeStatus read every page (PaginationConfig)", () => {
    it("a finished 150-page batch scrape: all 150 documents, each once, no next (WebData: one page of 100)", async () => {
      const s = await open(kind, { manyPages: 150 });
      const a = app(s, kind);
      const id = await finishedBatch(s, a);
      const job = await drive(a.getBatchScrapeStatus(id));
      expect(job.status).toBe("completed");
      expect(job.data).toHaveLength(150);
      expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(150);
      expect(job.next).toBeUndefined();
      expect((await drive(s.client.getBatchScrapeStatus(id))).data).toHaveLength(100);
    });

    it("a crawl read over several pages: every document", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).configure({ defaultPageSize: 2 });
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 7 }));
      fakeJobs(s.fake).finish(id);
      const all = await drive(a.getCrawlStatus(id));
      expect(all.data.length).toBeGreaterThan(2);
      expect(all.data).toHaveLength(all.completed);
      expect((await drive(s.client.getCrawlStatus(id))).data).toHaveLength(2);
    });

    it("autoPaginate: false is the first page with its next", async () => {
      const s = await open(kind, { manyPages: 150 });
      const a = app(s, kind);
      const id = await finishedBatch(s, a);
      const job = await drive(a.getBatchScrapeStatus(id, { autoPaginate: false }));
      expect(job.data).toHaveLength(100);
      expect(job.next).toMatch(/skip=100/);
    });

    it("maxResults and maxPages stop the walk, and next says where to read on", async () => {
      const s = await open(kind, { manyPages: 150 });
      fakeJobs(s.fake).configure({ defaultPageSize: 10 });
      const a = app(s, kind);
      const id = await finishedBatch(s, a);
      const capped = await drive(a.getBatchScrapeStatus(id, { maxResults: 25 }));
      expect(capped.data).toHaveLength(25);
      expect(capped.next).toMatch(/skip=30/);
      const paged = await drive(a.getBatchScrapeStatus(id, { maxPages: 2 }));
      expect(paged.data).toHaveLength(30); // the first page and two more
      expect(paged.next).toMatch(/skip=30/);
    });

    it("a bad PaginationConfig is a ValidationError before anything is sent", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const before = s.fake.requests.length;
      await expect(drive(a.getCrawlStatus("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9", { maxPages: -1 }))).rejects.toBeInstanceOf(ValidationError);
      expect(s.fake.requests.length - before).toBeLessThanOrEqual(1); // the first page may be in flight; nothing follows
    });

  });

  describe("the waiters: seconds, and a failed job is a result", () => {
    it("crawl takes pollInterval and timeout in seconds; past timeout, JobTimeoutError with timeoutSeconds", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
      const a = app(s, kind);
      const err = await drive(a.crawl(SITE, { limit: 3, pollInterval: 1, timeout: 5 }).catch((e: unknown) => e));
      expect(err).toBeInstanceOf(JobTimeoutError);
      expect(err).toMatchObject({ timeoutMs: 5000, timeoutSeconds: 5, jobType: "crawl" });
      // Official code compiles as written: the entry's JobTimeoutError is the same class, with the official fields typed.
      if (!(err instanceof OfficialJobTimeoutError)) throw new Error("not a JobTimeoutError");
      const seconds: number = err.timeoutSeconds;
      expect(seconds).toBe(5);
    });

    it("crawl: a failed crawl is returned with status failed and its error, not thrown", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).failNext({ error: "Crawl failed: the start URL could not be scraped." });
      const a = app(s, kind);
      const job = await drive(a.crawl(SITE, { limit: 3, pollInterval: 1 }));
      expect(job).toMatchObject({ status: "failed" });
      // WebData throws for the same job.
      fakeJobs(s.fake).failNext({});
      await expect(drive(s.client.crawl(SITE, { limit: 3 }))).rejects.toBeInstanceOf(JobFailedError);
    });

    it("batchScrape: timeout is the wait in seconds (not the server's per-page timeout); idempotencyKey is sent as the header", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const key = "5b1b0c0a-7f3e-4b7e-9d0e-3f0c2c7a1b2d";
      const job = await drive(a.batchScrape([`${SITE}/`, `${SITE}/about`], { options: { formats: ["markdown"] }, idempotencyKey: key, pollInterval: 1, timeout: 120 }));
      expect(job.status).toBe("completed");
      expect(job.data).toHaveLength(2);
      const start = s.fake.requests.find((r) => r.method === "POST" && r.path === "/v2/batch/scrape")!;
      expect(start.headers["x-idempotency-key"]).toBe(key);
      expect(JSON.stringify(start.body)).not.toContain("timeout");
    });

    it("extract: a failed job is returned with status failed; timeout (seconds) is never sent to the server", async () => {
      const s = await open(kind);
      fakeTasks(s.fake).configure({ outcome: "failed", error: "No data extracted" });
      const a = app(s, kind);
      const res = await drive(a.extract({ urls: [`${SITE}/products`], prompt: "Products", pollInterval: 1, timeout: 1800 }));
      expect(res).toMatchObject({ status: "failed", error: "No data extracted" });
      const start = s.fake.requests.find((r) => r.method === "POST" && r.path === "/v2/extract")!;
      expect(start.body).not.toHaveProperty("timeout");
      expect(start.body).not.toHaveProperty("pollInterval");
    });

    it("extract and agent: at timeout the last status is returned, as the official client does", async () => {
      const s = await open(kind);
      fakeTasks(s.fake).configure({ pollsToFinish: 1_000 });
      const a = app(s, kind);
      const res = await drive(a.extract({ urls: [`${SITE}/products`], prompt: "Products", pollInterval: 1, timeout: 3 }));
      expect(res.status).toBe("processing");
      const run = await drive(a.agent({ prompt: "Find the widget price", pollInterval: 1, timeout: 3 }));
      expect(run.status).toBe("processing");
    });

    it("pollInterval and pollIntervalMs together are a ValidationError naming both units", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const err = await drive(a.crawl(SITE, { pollInterval: 2, pollIntervalMs: 2000 }).catch((e: unknown) => e));
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toMatch(/pollInterval \(seconds\) or pollIntervalMs \(milliseconds\)/);
      expect(s.fake.requests).toHaveLength(0);
    });
  });

  describe("the official watcher", () => {
    it("document (the document plus the job id), snapshot (counters and the documents so far), done (the final status and every document)", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 4 }));
      const w = a.watcher(id, { kind: "crawl", pollInterval: 1 });
      const docs: { id: string; url?: string }[] = [];
      const snapshots: number[] = [];
      let done: { status: string; data: unknown[]; id: string } | undefined;
      w.on("document", (d) => docs.push({ id: d.id, url: d.metadata?.sourceURL }));
      w.on("snapshot", (snap) => snapshots.push(snap.data.length));
      w.on("done", (d) => (done = d));
      await drive(w.start());
      expect(done).toMatchObject({ status: "completed", id });
      expect(done!.data).toHaveLength(docs.length);
      expect(docs.length).toBeGreaterThan(0);
      expect(docs.every((d) => d.id === id)).toBe(true);
      expect(new Set(docs.map((d) => d.url)).size).toBe(docs.length);
      expect(snapshots.length).toBeGreaterThan(0);
    });

    it("done carries a failed job's real status (the official one says completed)", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 4 }));
      fakeJobs(s.fake).fail(id, "boom");
      let status = "";
      await drive(a.watcher(id, { pollInterval: 1 }).on("done", (d) => (status = d.status)).start());
      expect(status).toBe("failed");
    });

    it("timeout (seconds) ends it with an error event, Watcher timeout; start() resolves", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 4 }));
      const errors: string[] = [];
      // A long stream from the fake sleeps many times: none of its sleeps may leave an abort listener behind.
      const warnings: string[] = [];
      const onWarning = (w: Error) => void warnings.push(w.name);
      process.on("warning", onWarning);
      await drive(a.watcher(id, { pollInterval: 1, timeout: 3 }).on("error", (e) => errors.push(e.error)).start());
      await new Promise((r) => setImmediate(r));
      process.off("warning", onWarning);
      expect(errors).toEqual(["Watcher timeout"]);
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    });

    it("an event name it never emits is a ValidationError at on()", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      expect(() => a.watcher("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9").on("progress" as never, () => undefined)).toThrow(ValidationError);
    });
  });

  describe("the v1 class", () => {
    it("getCreditUsage / getTokenUsage answer { success, data } as the official v1 class does", async () => {
      const s = await open(kind);
      const v1 = appV1(s, kind);
      const credits = await drive(v1.getCreditUsage());
      expect(credits.success).toBe(true);
      expect(typeof credits.data.remaining_credits).toBe("number");
      const tokens = await drive(app(s, kind).v1.getTokenUsage());
      expect(typeof tokens.data.remaining_tokens).toBe("number");
    });

    it("an HTTP error carries statusCode (the official FirecrawlError's field) beside status", async () => {
      const s = await open(kind);
      const v1 = appV1(s, kind);
      const err = await drive(v1.checkCrawlStatus("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9").then(() => undefined, (e: unknown) => e));
      expect(err).toBeInstanceOf(APIError);
      expect(err).toMatchObject({ status: 404, statusCode: 404 });
    });
  });
});

describe("WebData keeps its own semantics", () => {
  it("the official waiter keys are refused with the fix, and status reads are one page", async () => {
    const s = await open("fetch");
    await expect(drive(s.client.crawl(SITE, { pollInterval: 2 } as never))).rejects.toThrow(/pollIntervalMs/);
    expect(s.client).toBeInstanceOf(WebData);
  });
});
