/**
 * Every recorded crawl, batch-scrape, extract and agent exchange (v2) of the
 * real server, served to the client by a fetch stub, parsed into the right
 * result or typed error. Where the recorded request is bad input, the client
 * must also refuse it before sending.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  ValidationError,
  WebData,
} from "../src/index.js";
import { recorded } from "./helpers.js";
import { collect, drive, useJobTimers } from "./jobs-helpers.js";

const API = "http://127.0.0.1:3002";
type Rec = Awaited<ReturnType<typeof recorded>>;
interface Sent {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

/** A client whose fetch answers each request with the next recorded response (or by path from `byPath`). */
function stub(responses: Rec[], byPath?: Record<string, Rec>) {
  const sent: Sent[] = [];
  const queue = [...responses];
  const client = new WebData({
    apiKey: "fc-selfhost-test",
    apiUrl: API,
    maxRetries: 0,
    logLevel: "off",
    fetch: async (input, init) => {
      const req = new Request(input, init);
      const u = new URL(req.url);
      const text = req.method === "GET" || req.method === "DELETE" ? "" : await req.text();
      sent.push({ method: req.method, path: u.pathname + u.search, body: text ? JSON.parse(text) : undefined, headers: req.headers });
      const rec = byPath?.[u.pathname + u.search] ?? queue.shift() ?? responses.at(-1);
      if (!rec) throw new Error("no recorded response left");
      const body = rec.response.body;
      return new Response(typeof body === "string" ? body : JSON.stringify(body), {
        status: rec.response.status,
        headers: { "content-type": typeof body === "string" ? "text/html" : "application/json" },
      });
    },
  });
  return { client, sent };
}

const rec = (name: string) => recorded(name);
const crawlId = "01a200de-0266-76d8-8503-80a52f44f4b3";
const cancelledId = "01a200e0-09e9-7306-9a85-add104a22bc0";
const batchId = "01a200eb-e67a-754b-92cf-d423f5be08a7";
const unknown = "00000000-0000-4000-8000-000000000000";

describe("recorded crawl exchanges", () => {
  it.each(["crawl-v2-start.json", "crawl-v2-start-large.json", "crawl-v2-start-unresolvable.json"])("%s: start result, same request, no idempotency key on a self-hosted URL", async (name) => {
    const r = await rec(name);
    const { url, ...opts } = r.request.body as { url: string };
    const { client, sent } = stub([r]);
    const res = await client.startCrawl(url, opts);
    const body = r.response.body as { id: string; url: string };
    expect(res).toEqual({ id: body.id, url: body.url });
    expect(sent[0]).toMatchObject({ method: "POST", path: "/v2/crawl", body: r.request.body });
    expect(sent[0]?.headers.get("x-idempotency-key")).toBeNull();
  });

  it("crawl-v2-400-invalid-url: refused before sending; the server's 400 is BadRequestError with details", async () => {
    const r = await rec("crawl-v2-400-invalid-url.json");
    const a = stub([r]);
    await expect(a.client.startCrawl((r.request.body as { url: string }).url)).rejects.toBeInstanceOf(ValidationError);
    expect(a.sent).toHaveLength(0);
    const err = await a.client.startCrawl("https://acme.test/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, code: "BAD_REQUEST", serverMessage: "Bad Request" });
    expect((err as BadRequestError).details).toEqual((r.response.body as { details: unknown }).details);
  });

  it("crawl-v2-400-unknown-key: the unknown key is sent (not dropped) and the 400 is BadRequestError", async () => {
    const r = await rec("crawl-v2-400-unknown-key.json");
    const { url, ...opts } = r.request.body as { url: string };
    const { client, sent } = stub([r]);
    const err = await client.startCrawl(url, opts as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).serverMessage).toMatch(/^Unrecognized key in body/);
    expect(sent[0]?.body).toEqual(r.request.body);
  });

  it.each(["crawl-v2-active.json", "crawl-v2-active-none.json", "crawl-v2-ongoing.json"])("%s: active crawls", async (name) => {
    const r = await rec(name);
    const { client, sent } = stub([r]);
    const res = await client.getActiveCrawls();
    expect(res.crawls).toEqual((r.response.body as { crawls: unknown[] }).crawls);
    expect(sent[0]?.path).toBe("/v2/crawl/active");
  });

  it.each([
    ["crawl-v2-cancel-running.json", cancelledId],
    ["crawl-v2-cancel-cancelled-again.json", cancelledId],
  ])("%s: cancel resolves true", async (name, id) => {
    const { client, sent } = stub([await rec(name)]);
    expect(await client.cancelCrawl(id)).toBe(true);
    expect(sent[0]).toMatchObject({ method: "DELETE", path: `/v2/crawl/${id}` });
  });

  it("crawl-v2-cancel-finished-409 / -404: ConflictError and NotFoundError with the server's text", async () => {
    const a = stub([await rec("crawl-v2-cancel-finished-409.json")]);
    await expect(a.client.cancelCrawl(crawlId)).rejects.toMatchObject({ name: "ConflictError", serverMessage: "Crawl is already completed" });
    const b = stub([await rec("crawl-v2-cancel-404-unknown-id.json")]);
    const err = await b.client.cancelCrawl(unknown).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).serverMessage).toBe("Job not found");
  });

  it.each(["crawl-v2-errors.json", "crawl-v2-errors-nonempty.json", "crawl-v2-errors-cancelled.json"])("%s: errors", async (name) => {
    const r = await rec(name);
    const { client } = stub([r]);
    const res = await client.getCrawlErrors(crawlId);
    expect(res).toEqual(r.response.body);
  });

  it("crawl-v2-errors-404-unknown-id / status 404 / status 400 non-uuid: typed errors", async () => {
    await expect(stub([await rec("crawl-v2-errors-404-unknown-id.json")]).client.getCrawlErrors(unknown)).rejects.toBeInstanceOf(NotFoundError);
    await expect(stub([await rec("crawl-v2-status-404-unknown-id.json")]).client.getCrawlStatus(unknown)).rejects.toBeInstanceOf(NotFoundError);
    const err = await stub([await rec("crawl-v2-status-400-non-uuid.json")]).client.getCrawlStatus("not-a-uuid").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).serverMessage).toBe("Invalid job ID format. Job ID must be a valid UUID.");
  });

  it.each([
    "crawl-v2-status-scraping.json",
    "crawl-v2-status-scraping-partial.json",
    "crawl-v2-status-scraping-page1-limit1.json",
    "crawl-v2-status-scraping-page2-via-next.json",
    "crawl-v2-status-cancelled.json",
    "crawl-v2-status-cancelled-finalized.json",
    "crawl-v2-status-completed.json",
    "crawl-v2-status-completed-page1-limit1.json",
    "crawl-v2-status-completed-page2-via-next.json",
    "crawl-v2-status-completed-last-page.json",
    "crawl-v2-status-unresolvable.json",
  ])("%s: one status page, fields as sent", async (name) => {
    const r = await rec(name);
    const { client, sent } = stub([r]);
    const id = r.request.path.split("/")[3]?.split("?")[0] as string;
    const q = new URL(r.request.path, API).searchParams;
    const page = await client.getCrawlStatus(id, { skip: q.has("skip") ? Number(q.get("skip")) : undefined, limit: q.has("limit") ? Number(q.get("limit")) : undefined });
    expect(sent[0]?.path).toBe(r.request.path);
    const { success: _s, ...body } = r.response.body as Record<string, unknown>;
    expect(page).toEqual({ ...body, id, next: body.next });
    expect(page.data).toHaveLength((body.data as unknown[]).length);
  });
});

describe("recorded batch-scrape exchanges", () => {
  it.each(["batch-scrape-v2-start.json", "batch-scrape-v2-start-with-failing-url.json"])("%s: start result with invalidURLs", async (name) => {
    const r = await rec(name);
    const { urls, ...opts } = r.request.body as { urls: string[] };
    const { client, sent } = stub([r]);
    const res = await client.startBatchScrape(urls, opts);
    const { success: _s, ...body } = r.response.body as Record<string, unknown>;
    expect(res).toEqual(body);
    expect(sent[0]?.body).toEqual(r.request.body);
    expect(sent[0]?.headers.get("x-idempotency-key")).toBeNull();
  });

  it.each(["batch-scrape-v2-400-all-invalid.json", "batch-scrape-v2-400-strict-invalid.json", "batch-scrape-v2-400-invalid-url-default-ignore.json"])(
    "%s: refused before sending; the server's 400 is BadRequestError",
    async (name) => {
      const r = await rec(name);
      const { urls, ...opts } = r.request.body as { urls: string[] };
      const a = stub([r]);
      await expect(a.client.startBatchScrape(urls, opts)).rejects.toBeInstanceOf(ValidationError);
      expect(a.sent).toHaveLength(0);
      await expect(a.client.startBatchScrape(["https://acme.test/"])).rejects.toMatchObject({ name: "BadRequestError", code: "BAD_REQUEST" });
    },
  );

  it("batch-scrape-v2-cancel-finished: ConflictError", async () => {
    const err = await stub([await rec("batch-scrape-v2-cancel-finished.json")]).client.cancelBatchScrape(batchId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
  });

  it.each(["batch-scrape-v2-errors.json", "batch-scrape-v2-errors-nonempty.json"])("%s: errors", async (name) => {
    const r = await rec(name);
    expect(await stub([r]).client.getBatchScrapeErrors(batchId)).toEqual(r.response.body);
  });

  it("batch-scrape-v2-status-404-unknown-id: NotFoundError", async () => {
    await expect(stub([await rec("batch-scrape-v2-status-404-unknown-id.json")]).client.getBatchScrapeStatus(unknown)).rejects.toBeInstanceOf(NotFoundError);
  });

  it.each([
    "batch-scrape-v2-status-scraping.json",
    "batch-scrape-v2-status-completed.json",
    "batch-scrape-v2-status-completed-with-failure.json",
    "batch-scrape-v2-status-completed-page1-limit1.json",
    "batch-scrape-v2-status-completed-page2-via-next.json",
  ])("%s: one status page", async (name) => {
    const r = await rec(name);
    const { client, sent } = stub([r]);
    const id = r.request.path.split("/")[4]?.split("?")[0] as string;
    const q = new URL(r.request.path, API).searchParams;
    const page = await client.getBatchScrapeStatus(id, { skip: q.has("skip") ? Number(q.get("skip")) : undefined, limit: q.has("limit") ? Number(q.get("limit")) : undefined });
    expect(sent[0]?.path).toBe(r.request.path);
    const { success: _s, ...body } = r.response.body as Record<string, unknown>;
    expect(page).toEqual({ ...body, id, next: body.next });
  });

  it("batchScrapeDocuments follows the recorded next URL exactly, and stops at the last page", async () => {
    const p1 = await rec("batch-scrape-v2-status-completed-page1-limit1.json");
    const p2 = await rec("batch-scrape-v2-status-completed-page2-via-next.json");
    const { client, sent } = stub([], { [p1.request.path]: p1, [p2.request.path]: p2 });
    const docs = await collect(client.batchScrapeDocuments(batchId, { pageLimit: 1 }));
    expect(docs).toHaveLength(2);
    expect(sent.map((r) => r.path)).toEqual([p1.request.path, p2.request.path]);
  });
});

describe("recorded waits", () => {
  beforeEach(() => useJobTimers());
  afterEach(() => vi.useRealTimers());

  it("a crawl stays scraping with completed === total until the server finalizes it; the waiter waits", async () => {
    const start = await rec("crawl-v2-start-large.json");
    const polls = [
      await rec("crawl-v2-status-scraping-partial.json"),
      await rec("crawl-v2-status-cancelled.json"), // scraping, completed 2 === total 2
      await rec("crawl-v2-status-cancelled-finalized.json"),
    ];
    const final = await rec("crawl-v2-status-cancelled-finalized.json");
    const { client, sent } = stub([start, ...polls, final]);
    const job = await drive(client.crawl("http://127.0.0.1:8080/many/", { limit: 150, maxConcurrency: 1, pollIntervalMs: 500 }));
    expect(job.status).toBe("completed");
    expect(job.data).toHaveLength(2);
    expect(sent.filter((r) => r.method === "GET").map((r) => r.path)).toEqual([
      `/v2/crawl/${cancelledId}?limit=1`,
      `/v2/crawl/${cancelledId}?limit=1`,
      `/v2/crawl/${cancelledId}?limit=1`,
      `/v2/crawl/${cancelledId}`,
    ]);
  });
});

describe("recorded extract and agent exchanges", () => {
  it("extract-v2-start: start result, same request", async () => {
    const r = await rec("extract-v2-start.json");
    const { client, sent } = stub([r]);
    const res = await client.startExtract(r.request.body as never);
    expect(res).toEqual({ id: "01a200ed-ede7-7726-9b3b-1bc3e03e1424", urlTrace: [] });
    expect(sent[0]?.body).toEqual(r.request.body);
  });

  it("extract-v2-400-no-urls-no-prompt: refused before sending; the server's 400 is BadRequestError", async () => {
    const r = await rec("extract-v2-400-no-urls-no-prompt.json");
    const a = stub([r]);
    await expect(a.client.startExtract(r.request.body as never)).rejects.toBeInstanceOf(ValidationError);
    expect(a.sent).toHaveLength(0);
    await expect(a.client.startExtract({ prompt: "x" })).rejects.toMatchObject({ name: "BadRequestError", serverMessage: "Either 'urls' or 'prompt' must be provided." });
  });

  it("extract-v2-status-final: a failed job is a status; the waiter throws JobFailedError", async () => {
    const r = await rec("extract-v2-status-final.json");
    const id = "01a200ed-ede7-7726-9b3b-1bc3e03e1424";
    const status = await stub([r]).client.getExtractStatus(id);
    expect(status).toMatchObject({ id, status: "failed", data: [] });
    expect(status.error).toMatch(/OpenAI API key is missing/);
    const start = await rec("extract-v2-start.json");
    const err = await stub([start, r]).client.extract({ prompt: "x" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "JobFailedError", jobId: id, status: "failed" });
  });

  it("extract-v2-status-500-unknown-id: InternalServerError", async () => {
    await expect(stub([await rec("extract-v2-status-500-unknown-id.json")]).client.getExtractStatus(unknown)).rejects.toBeInstanceOf(InternalServerError);
  });

  it("agent-v2-no-ai-key: InternalServerError with the server's code, and the start is not retried", async () => {
    const r = await rec("agent-v2-no-ai-key.json");
    const sentAll: Sent[] = [];
    const { client, sent } = stub([r, r, r]);
    const err = await client.startAgent((r.request.body as { prompt: string }).prompt, {}, { maxRetries: 2 }).catch((e: unknown) => e);
    sentAll.push(...sent);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err).toMatchObject({ code: "UNKNOWN_ERROR" });
    expect(sentAll).toHaveLength(1);
    expect(sent[0]?.body).toEqual(r.request.body);
  });
});
