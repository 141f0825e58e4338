/**
 * Every batch input has an outcome: `byUrl` on the `batchScrape` waiter's result
 * and `byUrl()` at the end of `batchScrapeDocuments`, a `Map` from each input URL as given to its
 * document or its `BatchFailure`. Against the fake (a redirect whose `sourceURL` differs from its
 * `url`, a host that does not resolve, an invalid URL) and, where the recorded shape matters, msw
 * serving the recorded exchanges of `test/fixtures/recorded/` (copied from the service spec's
 * recordings: `batch-scrape-v2-status-completed-with-failure.json`, `batch-scrape-v2-errors-nonempty.json`,
 * `batch-scrape-v2-errors.json`, `batch-scrape-v2-status-completed.json`).
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError, WebData, type BatchFailure, type Document } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { recorded, TRANSPORTS } from "./helpers.js";
import { team } from "../src/team.js";
import { drivePaced as drive, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();

const failed = (o: Document | BatchFailure | undefined): BatchFailure => {
  expect(o).toMatchObject({ failed: true });
  return o as BatchFailure;
};
const doc = (o: Document | BatchFailure | undefined): Document => {
  expect(o && "failed" in o).toBe(false);
  return o as Document;
};

describe.each(TRANSPORTS)("byUrl over %s", (kind) => {
  it("gives each input its document or its failure, a redirect staying with the URL requested, a repeated input one key", async () => {
    const s = await open(kind, {}, { plugins: [team] });
    s.fake.addPage({ url: "https://acme.test/old-about", redirectTo: "/about" });
    const inputs = ["https://acme.test/old-about", "https://acme.test/about", "http://nowhere.invalid/", "https://acme.test/about", "not a url"];
    const job = await drive(s.client.batchScrape(inputs, { ignoreInvalidURLs: true }));
    expect([...job.byUrl.keys()]).toEqual(["https://acme.test/old-about", "https://acme.test/about", "http://nowhere.invalid/", "not a url"]);
    // The URL given twice is two inputs: all() gives each its own document, none lost.
    const twice = job.byUrl.all("https://acme.test/about").map(doc);
    expect(twice).toHaveLength(2);
    expect(twice[0]).toBe(job.byUrl.get("https://acme.test/about"));
    expect(twice[1]).not.toBe(twice[0]);
    expect(new Set(job.data)).toEqual(new Set([doc(job.byUrl.get("https://acme.test/old-about")), ...twice]));
    expect(job.byUrl.all("https://acme.test/old-about")).toHaveLength(1);
    expect(job.byUrl.all("https://elsewhere.test/")).toEqual([]);
    const moved = doc(job.byUrl.get("https://acme.test/old-about"));
    expect(moved.metadata).toMatchObject({ sourceURL: "https://acme.test/old-about", url: "https://acme.test/about" });
    expect(doc(job.byUrl.get("https://acme.test/about")).metadata).toMatchObject({ sourceURL: "https://acme.test/about" });
    expect(job.byUrl.get("https://acme.test/about")).not.toBe(moved);
    expect(failed(job.byUrl.get("http://nowhere.invalid/"))).toMatchObject({ reason: "error", code: "SCRAPE_ALL_ENGINES_FAILED", url: "http://nowhere.invalid/" });
    expect(failed(job.byUrl.get("not a url"))).toMatchObject({ reason: "invalid", url: "not a url" });
    // /errors was read once, because an input had no document; byUrl is not part of the result's JSON.
    expect(s.fake.requests.filter((r) => r.pathname.endsWith("/errors"))).toHaveLength(1);
    expect(Object.keys(job)).not.toContain("byUrl");
  });

  it("a page that answered 404 is a failure (reason http) carrying its document, not a document; /errors is not read for it", async () => {
    const s = await open(kind, {}, { plugins: [team] });
    const job = await drive(s.client.batchScrape(["https://acme.test/about", "https://acme.test/no-such-page"]));
    const gone = failed(job.byUrl.get("https://acme.test/no-such-page"));
    expect(gone).toMatchObject({ reason: "http", statusCode: 404, url: "https://acme.test/no-such-page", error: "the page answered HTTP 404" });
    expect(gone.document?.metadata).toMatchObject({ statusCode: 404 });
    expect(job.data).toContain(gone.document); // still among the job's documents
    expect(doc(job.byUrl.get("https://acme.test/about")).metadata).toMatchObject({ statusCode: 200 });
    expect(s.fake.requests.filter((r) => r.pathname.endsWith("/errors"))).toHaveLength(0);
  });

  it("does not read /errors when every input has a document", async () => {
    const s = await open(kind, {}, { plugins: [team] });
    const job = await drive(s.client.batchScrape(["https://acme.test/about", "https://acme.test/contact"]));
    expect([...job.byUrl.values()].every((o) => !("failed" in o))).toBe(true);
    expect(s.fake.requests.filter((r) => r.pathname.endsWith("/errors"))).toHaveLength(0);
  });

  it("batchScrapeDocuments with urls: byUrl() after the last document; without urls it says what it needs", async () => {
    const s = await open(kind, {}, { plugins: [team] });
    const started = await s.client.startBatchScrape(["https://acme.test/about", "http://nowhere.invalid/"]);
    fakeJobs(s.fake).finish(started.id);
    const docs = s.client.batchScrapeDocuments(started.id, { urls: ["https://acme.test/about", "http://nowhere.invalid/"] });
    const seen: Document[] = [];
    await drive((async () => {
      for await (const d of docs) seen.push(d);
    })());
    expect(seen).toHaveLength(1);
    const byUrl = await drive(docs.byUrl());
    expect(byUrl.get("https://acme.test/about")).toBe(seen[0]);
    expect(failed(byUrl.get("http://nowhere.invalid/"))).toMatchObject({ reason: "error" });

    const plain = s.client.batchScrapeDocuments(started.id);
    for await (const _ of plain) void _;
    await expect(plain.byUrl()).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("byUrl on the recorded server's answers (msw)", () => {
  const API = "http://127.0.0.1:3002";
  let errorsBody: unknown;
  let errorsStatus = 200;
  let statusBody: unknown;
  const server = setupServer(
    http.post(`${API}/v2/batch/scrape`, async () => HttpResponse.json((await recorded("batch-scrape-v2-start-with-failing-url.json")).response.body as object)),
    http.get(`${API}/v2/batch/scrape/:id/errors`, () => HttpResponse.json(errorsBody as object, { status: errorsStatus })),
    http.get(`${API}/v2/batch/scrape/:id`, () => HttpResponse.json(statusBody as object)),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());
  const client = () => new WebData({ plugins: [team], apiKey: "fc-selfhost-test", apiUrl: API, maxRetries: 0, logLevel: "off" });

  it("a failed URL found only in /errors (completed 1 of 1) is that input's failure; the document is matched by sourceURL", async () => {
    statusBody = (await recorded("batch-scrape-v2-status-completed-with-failure.json")).response.body;
    errorsBody = (await recorded("batch-scrape-v2-errors-nonempty.json")).response.body;
    const job = await drive(client().batchScrape(["http://127.0.0.1:8080/about.html", "http://nonexistent-host.invalid/"]));
    expect(doc(job.byUrl.get("http://127.0.0.1:8080/about.html")).metadata?.scrapeId).toBe("01a200ea-f704-703a-8210-1924faaa558f");
    expect(failed(job.byUrl.get("http://nonexistent-host.invalid/"))).toMatchObject({ reason: "error", code: "SCRAPE_ALL_ENGINES_FAILED", entry: { id: "01a200ea-f704-703a-8210-1d59500d1f03" } });
  });

  it("an input given without the server's trailing slash or host case still gets its document; one with nothing reported says so", async () => {
    statusBody = (await recorded("batch-scrape-v2-status-completed.json")).response.body; // sourceURLs http://127.0.0.1:8080/ and .../products.html
    errorsBody = (await recorded("batch-scrape-v2-errors.json")).response.body; // no errors
    const inputs = ["http://127.0.0.1:8080", "HTTP://127.0.0.1:8080/products.html", "http://127.0.0.1:8080/contact.html"];
    const job = await drive(client().batchScrape(inputs));
    expect(doc(job.byUrl.get("http://127.0.0.1:8080")).metadata?.sourceURL).toBe("http://127.0.0.1:8080/");
    expect(doc(job.byUrl.get("HTTP://127.0.0.1:8080/products.html")).metadata?.sourceURL).toBe("http://127.0.0.1:8080/products.html");
    expect(failed(job.byUrl.get("http://127.0.0.1:8080/contact.html"))).toMatchObject({ reason: "missing", error: expect.stringContaining("no document and no error reported") });
    expect(job.byUrl.size).toBe(3);
  });

  it("a failed /errors read does not fail the finished batch: the inputs without a document say why", async () => {
    statusBody = (await recorded("batch-scrape-v2-status-completed-with-failure.json")).response.body;
    errorsBody = { success: false, error: "An error occurred. Please check your logs for more details." };
    errorsStatus = 500;
    try {
      const job = await drive(client().batchScrape(["http://127.0.0.1:8080/about.html", "http://nonexistent-host.invalid/"]));
      expect(job.data).toHaveLength(1);
      expect(failed(job.byUrl.get("http://nonexistent-host.invalid/"))).toMatchObject({ reason: "missing", error: expect.stringContaining("/errors could not be read") });
    } finally {
      errorsStatus = 200;
    }
  });
});
