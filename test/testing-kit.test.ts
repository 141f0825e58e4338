/**
 * `webdata/testing` as users meet it: the fault controls (one-shot failure,
 * rate limit, delay, dropped and refused connections, corrupt body, stalled
 * stream) with the old `inject` flags still working, `fake.requests` with the
 * key redacted, the caller's own fixture pages, and planned job failures.
 * Over both transports (in-process `fetch` and loopback).
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, InternalServerError, JobFailedError, TimeoutError, WebDataError } from "../src/index.js";
import { createFakeService, fakeJobs } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

describe.each(TRANSPORTS)("fault controls over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("failNext(503) fails one request, which the client retries", async () => {
    s = await setup(kind, {}, { maxRetries: 1 });
    s.fake.failNext(503, { match: "/v2/scrape", headers: { "retry-after": "0" } });
    const doc = await s.client.scrape("https://acme.test/about");
    expect(doc.metadata.title).toBe("About Acme");
    expect(s.fake.requests.map((r) => r.pathname)).toEqual(["/v2/scrape", "/v2/scrape"]);
  });

  it("failNext with a body and times: every attempt fails with the server's words", async () => {
    s = await setup(kind, {}, { maxRetries: 1 });
    s.fake.failNext(500, { times: 2, body: { success: false, error: "boom", code: "UNKNOWN_ERROR" }, headers: { "retry-after": "0" } });
    const err = await s.client.map("https://acme.test").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err).toMatchObject({ status: 500, serverMessage: "boom" });
    expect(s.fake.requests).toHaveLength(2);
  });

  it("rateLimit answers 429 in the service's words; the client waits and retries", async () => {
    s = await setup(kind);
    s.fake.rateLimit({ retryAfterSeconds: 0 });
    expect((await s.client.getCreditUsage()).planCredits).toBe(100_000);
    expect(s.fake.requests).toHaveLength(2);
  });

  it("delay holds the answer; a client timeout ends the wait", async () => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.delay(5_000, { match: "/v2/map" });
    const err = await s.client.map("https://acme.test", {}, { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    s.fake.delay(5);
    expect((await s.client.map("https://acme.test")).links.length).toBeGreaterThan(0);
  });

  it("dropConnection and refuseConnection fail as the network does", async () => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.dropConnection();
    await expect(s.client.getCreditUsage()).rejects.toBeInstanceOf(ConnectionError);
    s.fake.refuseConnection();
    await expect(s.client.getCreditUsage()).rejects.toBeInstanceOf(ConnectionError);
    // afterServerActs: the crawl exists though its start's answer was lost.
    s.fake.dropConnection({ match: "/v2/crawl", afterServerActs: true });
    await expect(s.client.startCrawl("https://acme.test", { limit: 1 })).rejects.toBeInstanceOf(WebDataError);
    expect(fakeJobs(s.fake).all.size).toBe(1);
  });

  it("corruptBody sends truncated JSON or a proxy's HTML page instead of the answer", async () => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.corruptBody();
    await expect(s.client.getCreditUsage()).rejects.toBeInstanceOf(WebDataError);
    s.fake.corruptBody({ status: 502, body: "<html><body>Bad gateway</body></html>" });
    await expect(s.client.getCreditUsage()).rejects.toMatchObject({ status: 502 });
    s.fake.corruptBody({ body: "<p>portal</p>" });
    const raw = await s.fake.fetch(`${s.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${s.fake.apiKey}` } });
    expect(raw.headers.get("content-type")).toContain("text/html");
    expect(await raw.text()).toBe("<p>portal</p>");
  });

  it("stallStream sends the headers, then nothing; the client's timeout ends it", async () => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.stallStream({ match: "/v2/team/credit-usage", afterBytes: 5 });
    const err = await s.client.getCreditUsage({ timeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebDataError);
    expect((await s.client.getCreditUsage()).planCredits).toBe(100_000);
  });

  it("the low-level inject flags keep working (aliases of the controls)", async () => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.inject({ match: "/v2/scrape", status: 503 });
    await expect(s.client.scrape("https://acme.test")).rejects.toMatchObject({ status: 503 });
    s.fake.inject({ drop: true });
    await expect(s.client.scrape("https://acme.test")).rejects.toBeInstanceOf(ConnectionError);
    s.fake.inject({ badJson: true });
    await expect(s.client.scrape("https://acme.test")).rejects.toBeInstanceOf(WebDataError);
  });
});

describe.each(TRANSPORTS)("fake.requests over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("records method, path, query, headers and parsed body, with the key redacted", async () => {
    s = await setup(kind);
    await s.client.scrape("https://acme.test/about", { formats: ["markdown"] });
    const job = await s.client.startCrawl("https://acme.test", { limit: 2 });
    await s.client.getCrawlStatus(job.id, { limit: 1 });
    const [scrape, , status] = s.fake.requests;
    expect(scrape).toMatchObject({ method: "POST", path: "/v2/scrape", pathname: "/v2/scrape", query: {}, body: { url: "https://acme.test/about", formats: ["markdown"] } });
    expect(scrape!.headers.authorization).toBe("Bearer [redacted]");
    expect(scrape!.headers["content-type"]).toBe("application/json");
    expect(status).toMatchObject({ method: "GET", pathname: `/v2/crawl/${job.id}`, query: { limit: "1" } });
    expect(typeof status!.at).toBe("number");
    // Safe to print, serialise or snapshot: the key appears nowhere.
    const printed = [JSON.stringify(s.fake.requests), inspect(s.fake.requests, { depth: 10, showHidden: true })].join("\n");
    expect(printed).not.toContain(s.fake.apiKey);
    // The key that was sent is still known to the test.
    expect(s.fake.keyOf(scrape!)).toBe(s.fake.apiKey);
  });

  it("a request without a key records none", async () => {
    s = await setup(kind, { authDisabled: true }, { apiKey: "" });
    await s.client.getCreditUsage().catch(() => undefined);
    const req = s.fake.requests[0]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(s.fake.keyOf(req)).toBeUndefined();
  });
});

describe("redaction of odd authorization headers", () => {
  it("a bare key (no scheme) and an echo of the key in another header are redacted too", async () => {
    const fake = createFakeService();
    await fake.fetch("https://fake.test/v2/team/credit-usage", { headers: { authorization: "fc-test-key" } });
    await fake.fetch("https://fake.test/v2/team/credit-usage", { headers: { authorization: "Bearer fc-test-key", "x-debug": "key=fc-test-key" } });
    expect(fake.requests[0]!.headers.authorization).toBe("[redacted]");
    expect(fake.requests[1]!.headers["x-debug"]).toBe("key=[redacted]");
    expect(JSON.stringify(fake.requests)).not.toContain("fc-test-key");
  });
});

describe.each(TRANSPORTS)("the fixture web over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    vi.useRealTimers();
    await s?.close();
  });

  it("serves the caller's own pages: markdown, html, links, metadata, status", async () => {
    s = await setup(kind, {
      defaultSite: false,
      pages: [
        { url: "https://shop.test/", markdown: "# Shop\n\nSee the [mug](/mug).", links: ["/mug", "/gone"], metadata: { title: "Shop", description: "All mugs" } },
        { url: "https://shop.test/mug", markdown: "# Blue mug\n\n$12", html: "<h1>Blue mug</h1><p>$12</p>", metadata: { ogImage: "https://shop.test/mug.png" } },
        { url: "https://shop.test/gone", markdown: "# Gone", status: 410, inSitemap: false },
      ],
    });
    const mug = await s.client.scrape("https://shop.test/mug", { formats: ["markdown", "html"] });
    expect(mug.markdown).toBe("# Blue mug\n\n$12");
    expect(mug.html).toBe("<h1>Blue mug</h1><p>$12</p>");
    expect(mug.metadata).toMatchObject({ title: "Blue mug", ogImage: "https://shop.test/mug.png", statusCode: 200 });
    const home = await s.client.scrape("https://shop.test", { formats: ["links"] });
    expect(home.links).toEqual(["https://shop.test/mug", "https://shop.test/gone"]);
    expect(home.metadata.description).toBe("All mugs");
    expect((await s.client.scrape("https://shop.test/gone")).metadata.statusCode).toBe(410);
    const { links } = await s.client.map("https://shop.test");
    expect(links.map((l) => l.url)).toEqual(["https://shop.test/", "https://shop.test/mug", "https://shop.test/gone"]);
    useJobTimers(); // the crawl's 500 ms poll pauses run on the fake clock
    const crawl = await drive(s.client.crawl("https://shop.test", { pollIntervalMs: 500, sitemap: "skip" }));
    vi.useRealTimers();
    expect(crawl.data.map((d) => d.metadata.sourceURL).sort()).toEqual(["https://shop.test/", "https://shop.test/gone", "https://shop.test/mug"]);
    // The default site is gone.
    await expect(s.client.scrape("https://acme.test", {}, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
  });

  it("addPage adds to (or replaces a page of) the default site", async () => {
    s = await setup(kind);
    s.fake.addPage({ url: "https://acme.test/about", markdown: "# About us\n\nNew text." });
    expect((await s.client.scrape("https://acme.test/about")).markdown).toBe("# About us\n\nNew text.");
    expect((await s.client.scrape("https://acme.test/contact")).metadata.title).toBe("Contact Acme");
  });
});

describe.each(TRANSPORTS)("planned job failures over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("fakeJobs(fake).failNext fails the next crawl the code starts, with the stored error", async () => {
    s = await setup(kind);
    fakeJobs(s.fake).failNext({ kind: "crawl", error: "Crawl failed: robots.txt blocked" });
    const err = await s.client.crawl("https://acme.test", { pollIntervalMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ status: "failed", serverError: "Crawl failed: robots.txt blocked" });
    // Only the next one: the following crawl succeeds.
    expect((await s.client.crawl("https://acme.test", { limit: 2, pollIntervalMs: 500 })).status).toBe("completed");
  });

  it("afterPages lets some pages finish first", async () => {
    s = await setup(kind);
    fakeJobs(s.fake).failNext({ afterPages: 2 });
    const job = await s.client.startBatchScrape(["https://acme.test/about", "https://acme.test/contact", "https://acme.test/products"]);
    fakeJobs(s.fake).advance(job.id, 5);
    const status = await s.client.getBatchScrapeStatus(job.id);
    expect(status.status).toBe("failed");
    expect(status.data).toHaveLength(2);
  });
});

describe("packaging of the kit", () => {
  it("msw and ws are optional peers, never runtime dependencies of the client", async () => {
    const { readFile } = await import("node:fs/promises");
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as Record<string, Record<string, unknown> | undefined>;
    for (const name of ["msw", "ws"]) {
      expect(pkg.dependencies?.[name]).toBeUndefined();
      expect(pkg.peerDependencies?.[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta?.[name]).toEqual({ optional: true });
    }
  });
});
