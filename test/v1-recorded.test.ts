/**
 * The real server's recorded v1 exchanges (test/fixtures/recorded/*-v1-*.json)
 * replayed through the v1 methods: each request the method sends matches the
 * recorded one, and each answer becomes the v1 result or the typed error.
 */
import { describe, expect, it } from "vitest";
import { BadRequestError, ConflictError, InternalServerError, NotFoundError, WebData } from "../src/index.js";
import { recorded } from "./helpers.js";
import { checkRequestOptions } from "../src/core/options.js";
import { v1 as v1Face } from "../src/v1/index.js";

type Exchange = Awaited<ReturnType<typeof recorded>>;

function replay(ex: Exchange): { client: WebData; sent: { method: string; path: string; body: unknown }[] } {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const text = await req.text();
    const u = new URL(req.url);
    sent.push({ method: req.method, path: u.pathname + u.search, body: text ? JSON.parse(text) : undefined });
    const body = ex.response.body;
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status: ex.response.status, headers: ex.response.headers });
  };
  const client = new WebData({ plugins: [v1Face], apiKey: "fc-selfhost-test", apiUrl: "http://127.0.0.1:3002", fetch, maxRetries: 0, logLevel: "off" });
  return { client, sent };
}

async function run(file: string, call: (c: WebData, ex: Exchange) => Promise<unknown>) {
  const ex = await recorded(file);
  const { client, sent } = replay(ex);
  const outcome = await call(client, ex).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  expect(sent[0]).toMatchObject({ method: ex.request.method, path: ex.request.path });
  if (ex.request.body !== null && typeof ex.request.body === "object") expect(sent[0]!.body).toEqual(ex.request.body);
  return { ...outcome, ex };
}

const ID_CRAWL = "01a200ea-764f-704e-87bc-bebf8114ff06";
const ID_BATCH = "01a200ec-ac6f-76df-a96c-452729d8801e";

describe("recorded v1 exchanges through the v1 methods", () => {
  it("scrape-v1-markdown / multi-formats: { success: true, ...document }", async () => {
    for (const [file, url, formats] of [
      ["scrape-v1-markdown.json", "http://127.0.0.1:8080/", ["markdown"]],
      ["scrape-v1-multi-formats.json", "http://127.0.0.1:8080/products.html", ["markdown", "html", "rawHtml", "links"]],
    ] as const) {
      const { value, ex } = await run(file, (c) => c.v1.scrapeUrl(url, { formats: [...formats] }));
      const data = (ex.response.body as { data: Record<string, unknown> }).data;
      expect(value).toEqual({ success: true, ...data });
    }
  });

  it("scrape-v1-400-unknown-key: BadRequestError with the server's text", async () => {
    const ex = await recorded("scrape-v1-400-unknown-key.json");
    const { url, ...rest } = ex.request.body as { url: string };
    const { error } = await run("scrape-v1-400-unknown-key.json", (c) => c.v1.scrapeUrl(url, rest as never));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain("Unrecognized key");
  });

  it("search-v1-no-search-provider: flat data [] with the warning", async () => {
    const { value } = await run("search-v1-no-search-provider.json", (c) => c.v1.search("firecrawl", { limit: 3 }));
    expect(value).toEqual({ success: true, data: [], warning: "No search results found" });
  });

  it("search-v1-500-missing-query: the server's 500 is InternalServerError (the SDK itself refuses an empty query)", async () => {
    const ex = await recorded("search-v1-500-missing-query.json");
    const { client } = replay(ex);
    const err = await client.http.request({ op: "recorded", method: "POST", path: ex.request.path, body: ex.request.body }, checkRequestOptions({ maxRetries: 0 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
  });

  it("crawl-v1-start: { success, id, url }", async () => {
    const { value, ex } = await run("crawl-v1-start.json", (c) => c.v1.asyncCrawlUrl("http://127.0.0.1:8080/", { limit: 10 }));
    expect(value).toEqual(ex.response.body);
  });

  it("crawl-v1-400-invalid-url: BadRequestError", async () => {
    const ex = await recorded("crawl-v1-400-invalid-url.json");
    const { client, sent } = replay(ex);
    // The SDK refuses the invalid URL itself; the server's 400 (for anything it lets through) maps to BadRequestError.
    await expect(client.v1.asyncCrawlUrl("not a url")).rejects.toMatchObject({ name: "ValidationError" });
    expect(sent).toHaveLength(0);
    const err = await client.http.request({ op: "recorded", method: "POST", path: "/v1/crawl", body: ex.request.body }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
  });

  it("crawl-v1-status-scraping / completed: v1 status records (expiresAt as Date, next kept)", async () => {
    const scraping = await run("crawl-v1-status-scraping.json", (c) => c.v1.checkCrawlStatus(ID_CRAWL));
    const b = scraping.ex.response.body as Record<string, unknown>;
    expect(scraping.value).toMatchObject({ success: true, status: b.status, completed: b.completed, total: b.total, expiresAt: new Date(String(b.expiresAt)) });
    const done = await run("crawl-v1-status-completed.json", (c) => c.v1.checkCrawlStatus(ID_CRAWL));
    const d = done.ex.response.body as { data: unknown[]; status: string };
    expect(done.value).toMatchObject({ success: true, status: "completed", data: d.data });
  });

  it("crawl-v1-status-completed-page1-limit1 / page2-via-next: paging arguments map to the recorded URLs", async () => {
    const p1 = await run("crawl-v1-status-completed-page1-limit1.json", (c) => c.v1.checkCrawlStatus(ID_CRAWL, false, undefined, undefined, 1));
    const next = (p1.ex.response.body as { next: string }).next;
    expect(p1.value).toMatchObject({ success: true, next });
    const p2 = await run("crawl-v1-status-completed-page2-via-next.json", (c) => c.v1.checkCrawlStatus(ID_CRAWL, false, next));
    expect((p2.value as { data: unknown[] }).data).toHaveLength(1);
  });

  it("crawl-v1-status-404 / 500-non-uuid: NotFoundError / InternalServerError", async () => {
    const nf = await run("crawl-v1-status-404-unknown-id.json", (c) => c.v1.checkCrawlStatus("00000000-0000-4000-8000-000000000000"));
    expect(nf.error).toBeInstanceOf(NotFoundError);
    const bad = await run("crawl-v1-status-500-non-uuid.json", (c) => c.v1.checkCrawlStatus("not-a-uuid"));
    expect(bad.error).toBeInstanceOf(InternalServerError);
  });

  it("crawl-v1-errors: { errors, robotsBlocked }", async () => {
    const { value, ex } = await run("crawl-v1-errors.json", (c) => c.v1.checkCrawlErrors(ID_CRAWL));
    expect(value).toEqual(ex.response.body);
  });

  it("crawl-v1-cancel-finished-409: ConflictError with the server's text", async () => {
    const { error } = await run("crawl-v1-cancel-finished-409.json", (c) => c.v1.cancelCrawl(ID_CRAWL));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).message).toContain("Crawl is already completed");
  });

  it("batch-scrape-v1-start: invalidURLs kept; status completed in the v1 shape", async () => {
    const start = await run("batch-scrape-v1-start.json", (c) =>
      c.v1.asyncBatchScrapeUrls(["http://127.0.0.1:8080/", "http://127.0.0.1:8080/contact.html", "not a valid url"], { formats: ["markdown"] }, undefined, undefined, true),
    );
    expect(start.value).toEqual(start.ex.response.body);
    const status = await run("batch-scrape-v1-status-completed.json", (c) => c.v1.checkBatchScrapeStatus(ID_BATCH));
    expect(status.value).toMatchObject({ success: true, status: "completed", data: (status.ex.response.body as { data: unknown[] }).data });
  });

  it("batch-scrape-v1-400-invalid-url-default-ignore: the SDK refuses it before sending; the server's answer is BadRequestError", async () => {
    const ex = await recorded("batch-scrape-v1-400-invalid-url-default-ignore.json");
    const { client, sent } = replay(ex);
    const urls = (ex.request.body as { urls: string[] }).urls;
    await expect(client.v1.asyncBatchScrapeUrls(urls, { formats: ["markdown"] })).rejects.toMatchObject({ name: "ValidationError" });
    expect(sent).toHaveLength(0);
    await expect(client.http.request({ op: "recorded", method: "POST", path: "/v1/batch/scrape", body: ex.request.body })).rejects.toBeInstanceOf(BadRequestError);
  });

  it("extract-v1-400-no-urls-no-prompt: the SDK refuses it before sending; the server's answer is BadRequestError", async () => {
    const ex = await recorded("extract-v1-400-no-urls-no-prompt.json");
    const { client, sent } = replay(ex);
    await expect(client.v1.asyncExtract(undefined as never, ex.request.body as never)).rejects.toMatchObject({ name: "ValidationError" });
    expect(sent).toHaveLength(0);
    await expect(client.http.request({ op: "recorded", method: "POST", path: "/v1/extract", body: ex.request.body })).rejects.toBeInstanceOf(BadRequestError);
  });

  it("extract-v1-500-no-ai-key: InternalServerError with the server's text, not retried (extract starts are not idempotent)", async () => {
    const ex = await recorded("extract-v1-500-no-ai-key.json");
    const { client, sent } = replay(ex);
    const { urls, ...params } = ex.request.body as { urls: string[] };
    const err = await client.v1.asyncExtract(urls, params as never, undefined, { maxRetries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as Error).message).toContain("OpenAI API key is missing");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual(ex.request.body);
  });

  it("extract-v1-status-404-unknown-id: NotFoundError", async () => {
    const { error } = await run("extract-v1-status-404-unknown-id.json", (c) => c.v1.getExtractStatus("00000000-0000-4000-8000-000000000000"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain("Extract job not found");
  });

  it("team-v1-queue-status: the record as sent", async () => {
    const { value, ex } = await run("team-v1-queue-status.json", (c) => c.v1.getQueueStatus());
    expect(value).toEqual(ex.response.body);
  });
});
