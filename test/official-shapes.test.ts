/**
 * What the official client's shapes put on the wire here, and what its
 * seconds-based keys are told before anything is sent (api/endpoint.ts).
 * `WebData` reads none of the official shapes (it refuses them with a hint);
 * the drop-in adapts them (src/firecrawl/official-shapes.ts). The
 * compile-and-run test (official-compat) checks that each call site runs; this
 * file checks the requests and the messages.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BadRequestError, ValidationError } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { TRANSPORTS, recorded, type Setup } from "./helpers.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl } from "../src/firecrawl/node.js";

/** The drop-in over the same fake and transport as `s.client`. */
function dropIn(s: Setup, kind: string): Firecrawl {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9 };
  return kind === "fetch" ? new Firecrawl({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawl(options);
}

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
    const agent = await rejection(s.client.startAgent("x", { timeout: 60 } as never));
    expect(agent.message).toMatch(/timeout: is not a field of startAgent\(\)/);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("batch and extract: a timeout below 1000 (or next to a nested options) reads as seconds and is explained both ways; 1000 and up is the server's per-page timeout", async () => {
    const s = await open(kind);
    const small = await rejection(s.client.startBatchScrape([`${SITE}/`], { timeout: 120 }));
    expect(small.message).toMatch(/timeout: 120 is below 1000, so it reads as the official client's deadline in seconds; here it is the server's per-page timeout in milliseconds \(>= 1000\)\. For a deadline write timeoutMs: 120000; or import Firecrawl from "webdata\/firecrawl"/);
    const nested = await rejection(s.client.batchScrape([`${SITE}/`], { options: { formats: ["markdown"] }, timeout: 5000 } as never));
    expect(nested.message).toMatch(/timeout: 5000 is next to the official nested `options`/);
    const extract = await rejection(s.client.startExtract({ urls: [`${SITE}/`], timeout: 30 }));
    expect(extract.issues[0]?.path).toBe("timeout");
    expect(s.fake.requests).toHaveLength(0);
    await s.client.startBatchScrape([`${SITE}/`], { formats: ["markdown"], timeout: 30_000 });
    expect(sent(s, "POST", "/v2/batch/scrape")[0]?.body).toEqual({ urls: [`${SITE}/`], formats: ["markdown"], timeout: 30_000 });
  });

  it("batch scrape's nested options: WebData refuses them naming the top level and the drop-in; the drop-in sends them flattened; idempotencyKey is refused (the v2 route ignores it)", async () => {
    const s = await open(kind);
    const refused = await rejection(s.client.startBatchScrape([`${SITE}/`], { options: { formats: ["markdown"] }, maxConcurrency: 2 } as never));
    expect(refused.issues).toEqual([{ path: "options", message: expect.stringMatching(/^is the official client's nesting of the scrape options: write them at the top level \(\{ formats, \.\.\. \}\); or import Firecrawl from "webdata\/firecrawl"/) }]);
    expect(sent(s, "POST", "/v2/batch/scrape")).toHaveLength(0);
    await dropIn(s, kind).startBatchScrape([`${SITE}/`], { options: { formats: ["markdown"], onlyMainContent: false }, maxConcurrency: 2 });
    expect(sent(s, "POST", "/v2/batch/scrape")[0]?.body).toEqual({ urls: [`${SITE}/`], formats: ["markdown"], onlyMainContent: false, maxConcurrency: 2 });
    const err = await rejection(s.client.startBatchScrape([`${SITE}/`], { idempotencyKey: "5b1b0c0a-7f3e-4b7e-9d0e-3f0c2c7a1b2d" } as never));
    expect(err.message).toMatch(/idempotencyKey: the v2 batch scrape route does not honour idempotency keys/);
    const rec = await recorded("batch-scrape-v2-start-idempotency-key-ignored.json");
    expect(rec.note).toMatch(/does not read the header/);
    expect(sent(s, "POST", "/v2/batch/scrape")).toHaveLength(1);
  });

  it("agent({ prompt, schema }): WebData refuses it before sending, naming agent(prompt, options) and the drop-in; the drop-in sends what agent(prompt, { schema }) sends, and only its results say success", async () => {
    const s = await open(kind, {}, { timeoutMs: 1e9 });
    const app = dropIn(s, kind);
    const schema = z.object({ price: z.number() });
    const refused = await rejection(s.client.startAgent({ prompt: "Find the price", schema } as never));
    expect(refused.issues).toEqual([{ path: "prompt", message: expect.stringMatching(/takes the prompt as a string: write agent\(prompt, \{ \.\.\.options \}\).*; or import Firecrawl from "webdata\/firecrawl"/) }]);
    await expect(s.client.agent({ prompt: "Find the price", schema } as never)).rejects.toThrow(/or import Firecrawl from "webdata\/firecrawl"/);
    expect(sent(s, "POST", "/v2/agent")).toHaveLength(0);
    const started = await app.startAgent({ prompt: "Find the price", schema, maxCredits: 100 });
    const own = await s.client.startAgent("Find the price", { schema, maxCredits: 100 });
    const [a, b] = sent(s, "POST", "/v2/agent");
    expect(a?.body).toEqual(b?.body);
    expect(a?.body).toMatchObject({ prompt: "Find the price", maxCredits: 100, schema: { type: "object", properties: { price: { type: "number" } } } });
    expect(started.success).toBe(true);
    expect(JSON.parse(JSON.stringify(started))).not.toHaveProperty("success");
    expect("success" in own).toBe(false);
    const done = await drive(app.agent({ prompt: "Find the price", schema, pollInterval: 1 }));
    expect(done.status).toBe("completed");
    expect(done.success).toBe(true);
    const ownDone = await drive(s.client.agent("Find the price", { schema, pollIntervalMs: 500 }));
    expect(ownDone.status).toBe("completed");
    expect("success" in ownDone).toBe(false);
    expect("success" in (await s.client.getAgentStatus(own.id))).toBe(false);
    expect((await app.getAgentStatus(own.id)).success).toBe(true);
    const bad = await rejection(app.agent({ prompt: "", schema }));
    expect(bad.issues[0]?.path).toBe("prompt");
  });

  it("status reads: WebData refuses autoPaginate (true or false) and the page limits, pointing to crawlDocuments; the drop-in's autoPaginate false is one page", async () => {
    const s = await open(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 5 });
    const { id } = await s.client.startCrawl(SITE, { limit: 3 });
    await dropIn(s, kind).getCrawlStatus(id, { autoPaginate: false });
    expect(sent(s, "GET", /^\/v2\/crawl\/[^/]+/).map((r) => r.path)).toEqual([`/v2/crawl/${id}`]);
    const off = await rejection(s.client.getCrawlStatus(id, { autoPaginate: false } as never));
    expect(off.issues.map((i) => i.path)).toEqual(["autoPaginate"]);
    expect(off.message).toMatch(/crawlDocuments\(id\) reads every page; or import Firecrawl from "webdata\/firecrawl"/);
    const err = await rejection(s.client.getBatchScrapeStatus(id, { autoPaginate: true, maxResults: 10 } as never));
    expect(err.issues.map((i) => i.path)).toEqual(["autoPaginate", "maxResults"]);
    expect(err.message).toMatch(/batchScrapeDocuments\(id\)/);
    expect(sent(s, "GET", /^\/v2\/batch/)).toHaveLength(0);
    expect(sent(s, "GET", /^\/v2\/crawl\/[^/]+/)).toHaveLength(1);
  });

  it("historical usage: WebData takes { byApiKey } and returns a plain list; the official boolean is refused with a hint; the drop-in takes it, and its lists answer to .periods / .sessions and success, none enumerable", async () => {
    const s = await open(kind);
    const app = dropIn(s, kind);
    const refused = await rejection(s.client.getCreditUsageHistorical(true as never));
    expect(refused.message).toMatch(/is the official client's form: write getCreditUsageHistorical\(\{ byApiKey: true \}\); or import Firecrawl from "webdata\/firecrawl"/);
    await expect(s.client.getTokenUsageHistorical(false as never)).rejects.toThrow(/getTokenUsageHistorical\(\{ byApiKey: false \}\)/);
    expect(sent(s, "GET", /historical/)).toHaveLength(0);
    const own = await s.client.getCreditUsageHistorical({ byApiKey: true });
    expect("periods" in own || "success" in own).toBe(false);
    const periods = await app.getCreditUsageHistorical(true);
    expect(sent(s, "GET", "/v2/team/credit-usage/historical").map((r) => r.path)).toEqual(["/v2/team/credit-usage/historical?byApiKey=true", "/v2/team/credit-usage/historical?byApiKey=true"]);
    expect(periods).toEqual(own);
    expect(periods.periods).toBe(periods);
    expect(periods.success).toBe(true);
    expect(Object.keys(periods).every((k) => /^\d+$/.test(k))).toBe(true);
    await app.getTokenUsageHistorical(false);
    expect(sent(s, "GET", "/v2/team/token-usage/historical")[0]?.path).toBe("/v2/team/token-usage/historical");
    const v1 = await s.client.v1.getCreditUsageHistorical(true);
    expect(sent(s, "GET", "/v1/team/credit-usage/historical")[0]?.path).toBe("/v1/team/credit-usage/historical?byApiKey=true");
    expect(v1).toEqual({ success: true, periods: JSON.parse(JSON.stringify(periods)) });
    const session = await s.client.browser();
    const own2 = await s.client.listBrowsers({ status: "active" });
    expect("sessions" in own2 || "success" in own2).toBe(false);
    const list = await app.listBrowsers({ status: "active" });
    expect(list.sessions.map((x) => x.id)).toEqual([session.id]);
    expect(list.success).toBe(true);
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

describe.each(TRANSPORTS)("WebData's own shapes, the drop-in's official ones, over %s", (kind) => {
  it("no WebData result carries success (enumerable or not) or a list alias; the same calls on the drop-in carry success: true", async () => {
    const s = await open(kind, {}, { timeoutMs: 1e9 });
    const app = dropIn(s, kind);
    const doc = await s.client.scrape(`${SITE}/`);
    const search = await s.client.search("widgets", { limit: 1 });
    type Calls = Record<string, (c: typeof s.client | Firecrawl) => Promise<object>>;
    const browserId = async (c: typeof s.client | Firecrawl) => (await c.browser()).id;
    const calls: Calls = {
      getActiveCrawls: (c) => c.getActiveCrawls(),
      getQueueStatus: (c) => c.getQueueStatus(),
      browser: (c) => c.browser(),
      browserExecute: async (c) => c.browserExecute(await browserId(c), { code: "print(1)", language: "python" }),
      deleteBrowser: async (c) => c.deleteBrowser(await browserId(c)),
      listBrowsers: (c) => c.listBrowsers(),
      interact: (c) => c.interact(doc.metadata.scrapeId!, { code: "1", language: "node" }),
      stopInteraction: async (c) => {
        const page = (await s.client.scrape(`${SITE}/`)).metadata.scrapeId!;
        await s.client.interact(page, { code: "1", language: "node" });
        return c.stopInteraction(page);
      },
      listAgents: (c) => c.listAgents(),
      getAgentTrace: async (c) => c.getAgentTrace((await s.client.startAgent("x")).id),
      searchFeedback: (c) => c.searchFeedback(search.id!, { rating: "good" }),
      feedback: (c) => c.feedback({ endpoint: "scrape", jobId: doc.metadata.scrapeId!, rating: "good", note: "ok" }),
      startExtract: (c) => c.startExtract({ urls: [`${SITE}/`], prompt: "Title" }),
      getExtractStatus: async (c) => c.getExtractStatus((await s.client.startExtract({ urls: [`${SITE}/`], prompt: "Title" })).id),
      getAgentStatus: async (c) => c.getAgentStatus((await s.client.startAgent("x")).id),
      getCreditUsageHistorical: (c) => c.getCreditUsageHistorical(),
      getTokenUsageHistorical: (c) => c.getTokenUsageHistorical(),
    };
    const own: Record<string, boolean> = {};
    const official: Record<string, unknown> = {};
    for (const [name, call] of Object.entries(calls)) {
      const mine = await call(s.client);
      own[name] = "success" in mine || "periods" in mine || "sessions" in mine;
      official[name] = ((await call(app)) as { success?: unknown }).success;
    }
    own.startAgent = "success" in (await s.client.startAgent("x"));
    official.startAgent = (await app.startAgent({ prompt: "x" })).success;
    own.extract = "success" in (await drive(s.client.extract({ urls: [`${SITE}/`], prompt: "Title", pollIntervalMs: 500 })));
    official.extract = (await drive(app.extract({ urls: [`${SITE}/`], prompt: "Title", pollInterval: 1 }))).success;
    own.agent = "success" in (await drive(s.client.agent("x", { pollIntervalMs: 500 })));
    official.agent = (await drive(app.agent({ prompt: "x", pollInterval: 1 }))).success;
    expect(own).toEqual(Object.fromEntries(Object.keys(own).map((k) => [k, false])));
    expect(official).toEqual(Object.fromEntries(Object.keys(own).map((k) => [k, true])));
  });

  it("a task status the server sends with success: false reads status failed on WebData (no success flag), and success: false on the drop-in", async () => {
    const s = await open(kind);
    const app = dropIn(s, kind);
    const { id } = await s.client.startExtract({ urls: [`${SITE}/`], prompt: "Title" });
    s.fake.inject({ match: /^GET \/v2\/extract\//, status: 200, times: 2, body: { success: false, status: "completed", data: [], error: "partial failure" } });
    const own = await s.client.getExtractStatus(id);
    expect(own).toEqual({ id, status: "failed", data: [], error: "partial failure" });
    expect("success" in own).toBe(false);
    const official = await app.getExtractStatus(id);
    expect(official.success).toBe(false);
    expect(official.status).toBe("failed");
  });
});
