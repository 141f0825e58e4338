/**
 * What the official client's shapes put on the wire here, and what its
 * seconds-based keys are told before anything is sent (api/official-keys.ts,
 * api/official-shapes.ts). The compile-and-run test (official-compat) checks
 * that each call site runs; this file checks the requests and the messages.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BadRequestError, ValidationError } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { TRANSPORTS, recorded, type Setup } from "./helpers.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();
const SITE = "https://acme.test";
type Rec = Record<string, unknown>;

function sent(s: Setup, method: string, path: string | RegExp): { path: string; body: Rec }[] {
  return s.fake.requests
    .filter((r) => r.method === method && (typeof path === "string" ? r.pathname === path : path.test(r.path)))
    .map((r) => ({ path: r.path, body: r.body as Rec }));
}

async function rejection(p: Promise<unknown>): Promise<ValidationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return err as ValidationError;
}

describe.each(TRANSPORTS)("official client shapes over %s", (kind) => {
  it("the README's crawl with pollInterval (seconds) fails before POST /v2/crawl, naming pollIntervalMs", async () => {
    const s = await open(kind);
    const err = await rejection(s.client.crawl(SITE, { limit: 100, scrapeOptions: { formats: ["markdown"] }, pollInterval: 2 } as never));
    expect(err.issues).toEqual([{ path: "pollInterval", message: expect.stringContaining("pollIntervalMs: 2000") }]);
    expect(err.message).toMatch(/^Invalid crawl options: pollInterval: is the official client's, in seconds: write pollIntervalMs: 2000 \(milliseconds\); or import Firecrawl from "webdata\/firecrawl"/);
    // What the server would have answered (recorded): 400 "Unrecognized key".
    const rec = await recorded("crawl-v2-400-unknown-key.json");
    expect(rec.response.status).toBe(400);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("startCrawl and startAgent reject pollInterval and timeout (not fields of their requests) before sending", async () => {
    const s = await open(kind);
    const crawl = await rejection(s.client.startCrawl(SITE, { limit: 2, pollInterval: 2, timeout: 60 } as never));
    expect(crawl.issues.map((i) => i.path)).toEqual(["pollInterval", "timeout"]);
    expect(crawl.message).toMatch(/startCrawl\(\) does not wait: remove it/);
    const agent = await rejection(s.client.startAgent({ prompt: "x", timeout: 60 } as never));
    expect(agent.message).toMatch(/timeout: is not a field of startAgent\(\)/);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("batch and extract: a timeout below 1000 (or next to a nested options) reads as seconds and is explained both ways; 1000 and up is the server's per-page timeout", async () => {
    const s = await open(kind);
    const small = await rejection(s.client.startBatchScrape([`${SITE}/`], { timeout: 120 }));
    expect(small.message).toMatch(/timeout: 120 is below 1000, so it reads as the official client's deadline in seconds; here it is the server's per-page timeout in milliseconds \(>= 1000\)\. For a deadline write timeoutMs: 120000; or import Firecrawl from "webdata\/firecrawl"/);
    const nested = await rejection(s.client.batchScrape([`${SITE}/`], { options: { formats: ["markdown"] }, timeout: 5000 }));
    expect(nested.message).toMatch(/timeout: 5000 is next to the official nested `options`/);
    const extract = await rejection(s.client.startExtract({ urls: [`${SITE}/`], timeout: 30 }));
    expect(extract.issues[0]?.path).toBe("timeout");
    expect(s.fake.requests).toHaveLength(0);
    await s.client.startBatchScrape([`${SITE}/`], { formats: ["markdown"], timeout: 30_000 });
    expect(sent(s, "POST", "/v2/batch/scrape")[0]?.body).toEqual({ urls: [`${SITE}/`], formats: ["markdown"], timeout: 30_000 });
  });

  it("batch scrape's nested options are sent flattened; its idempotencyKey is refused (the v2 route ignores it)", async () => {
    const s = await open(kind);
    await s.client.startBatchScrape([`${SITE}/`], { options: { formats: ["markdown"], onlyMainContent: false }, maxConcurrency: 2 });
    expect(sent(s, "POST", "/v2/batch/scrape")[0]?.body).toEqual({ urls: [`${SITE}/`], formats: ["markdown"], onlyMainContent: false, maxConcurrency: 2 });
    const err = await rejection(s.client.startBatchScrape([`${SITE}/`], { idempotencyKey: "5b1b0c0a-7f3e-4b7e-9d0e-3f0c2c7a1b2d" } as never));
    expect(err.message).toMatch(/idempotencyKey: the v2 batch scrape route does not honour idempotency keys/);
    const rec = await recorded("batch-scrape-v2-start-idempotency-key-ignored.json");
    expect(rec.note).toMatch(/does not read the header/);
    expect(sent(s, "POST", "/v2/batch/scrape")).toHaveLength(1);
  });

  it("agent({ prompt, schema }) sends the same request as agent(prompt, { schema }), and its result says success", async () => {
    const s = await open(kind, {}, { timeoutMs: 1e9 });
    const schema = z.object({ price: z.number() });
    const started = await s.client.startAgent({ prompt: "Find the price", schema, maxCredits: 100 });
    await s.client.startAgent("Find the price", { schema, maxCredits: 100 });
    const [a, b] = sent(s, "POST", "/v2/agent");
    expect(a?.body).toEqual(b?.body);
    expect(a?.body).toMatchObject({ prompt: "Find the price", maxCredits: 100, schema: { type: "object", properties: { price: { type: "number" } } } });
    expect(started.success).toBe(true);
    expect(JSON.parse(JSON.stringify(started))).not.toHaveProperty("success");
    const done = await drive(s.client.agent({ prompt: "Find the price", schema, pollIntervalMs: 500 }));
    expect(done.status).toBe("completed");
    expect(done.success).toBe(true);
    const bad = await rejection(s.client.agent({ prompt: "", schema }));
    expect(bad.issues[0]?.path).toBe("prompt");
  });

  it("status reads: autoPaginate false is one page (nothing extra sent); true and the page limits point to crawlDocuments", async () => {
    const s = await open(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 5 });
    const { id } = await s.client.startCrawl(SITE, { limit: 3 });
    await s.client.getCrawlStatus(id, { autoPaginate: false });
    expect(sent(s, "GET", /^\/v2\/crawl\/[^/]+/).map((r) => r.path)).toEqual([`/v2/crawl/${id}`]);
    const err = await rejection(s.client.getBatchScrapeStatus(id, { autoPaginate: true, maxResults: 10 } as never));
    expect(err.issues.map((i) => i.path)).toEqual(["autoPaginate", "maxResults"]);
    expect(err.message).toMatch(/batchScrapeDocuments\(id\)/);
    expect(sent(s, "GET", /^\/v2\/batch/)).toHaveLength(0);
  });

  it("historical usage takes the official boolean; lists answer to .periods / .sessions and success, none of them enumerable", async () => {
    const s = await open(kind);
    const periods = await s.client.getCreditUsageHistorical(true);
    expect(sent(s, "GET", "/v2/team/credit-usage/historical")[0]?.path).toBe("/v2/team/credit-usage/historical?byApiKey=true");
    expect(periods.periods).toBe(periods);
    expect(periods.success).toBe(true);
    expect(Object.keys(periods).every((k) => /^\d+$/.test(k))).toBe(true);
    await s.client.getTokenUsageHistorical(false);
    expect(sent(s, "GET", "/v2/team/token-usage/historical")[0]?.path).toBe("/v2/team/token-usage/historical");
    const v1 = await s.client.v1.getCreditUsageHistorical(true);
    expect(sent(s, "GET", "/v1/team/credit-usage/historical")[0]?.path).toBe("/v1/team/credit-usage/historical?byApiKey=true");
    expect(v1).toEqual({ success: true, periods: JSON.parse(JSON.stringify(periods)) });
    const session = await s.client.browser();
    const list = await s.client.listBrowsers({ status: "active" });
    expect(list.sessions.map((x) => x.id)).toEqual([session.id]);
    expect(JSON.stringify(list)).toBe(JSON.stringify([...list]));
  });

  it("formats the SDK does not know are sent as given; v1 names and field-needing names get what to write instead", async () => {
    const s = await open(kind);
    const doc = await s.client.scrape(`${SITE}/`, { formats: ["markdown", "audio", { type: "question", question: "What?" }] });
    expect(sent(s, "POST", "/v2/scrape")[0]?.body.formats).toEqual(["markdown", "audio", { type: "question", question: "What?" }]);
    expect(doc.audio).toMatch(/^https:/);
    // The server is the judge of names the SDK does not know (this fake knows none beyond §14: it answers 400).
    const judged = await s.client.scrape(`${SITE}/`, { formats: ["rawBase64" as never, { type: "future", depth: 2 } as never] }).catch((e: unknown) => e);
    expect(judged).toBeInstanceOf(BadRequestError);
    expect(sent(s, "POST", "/v2/scrape")[1]?.body.formats).toEqual(["rawBase64", { type: "future", depth: 2 }]);
    const err = await rejection(s.client.scrape(`${SITE}/`, { formats: ["extract" as never, "attributes"] as never }));
    expect(err.issues).toEqual([
      { path: "formats.0", message: 'the "extract" format must be written { type: "json", prompt, schema }' },
      { path: "formats.1", message: 'the "attributes" format must be written { type: "attributes", selectors }' },
    ]);
    expect(sent(s, "POST", "/v2/scrape")).toHaveLength(2);
  });

  it("watcher: start() resolves once done; pollInterval and on('snapshot') fail it before anything is read", async () => {
    const s = await open(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 5 });
    const { id } = await s.client.startCrawl(SITE, { limit: 3 });
    const w = s.client.watcher(id, { pollIntervalMs: 50 });
    const docs: string[] = [];
    w.on("document", (ev) => docs.push(String(ev.document.metadata.sourceURL)));
    await drive(w.start(), 50);
    expect(docs).toHaveLength(3);
    const before = s.fake.requests.length;
    const bad = s.client.watcher(id, { pollInterval: 2 } as never);
    const errors: unknown[] = [];
    bad.on("error", (ev) => errors.push(ev.error));
    await drive(bad.start(), 50);
    expect(errors[0]).toBeInstanceOf(ValidationError);
    expect(String(errors[0])).toMatch(/pollIntervalMs: 2000/);
    const snap = s.client.watcher(id);
    expect(() => snap.on("snapshot" as never, () => undefined)).toThrow(/"snapshot" is the official client's event; webdata's is "status"/);
    await drive(snap.start(), 50);
    expect(s.fake.requests.length).toBe(before);
  });
});
