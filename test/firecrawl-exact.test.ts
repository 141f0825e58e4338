/**
 * The drop-in against the official client itself (`@mendable/firecrawl-js`, a devDependency), both
 * pointed at the same fake service served over HTTP, comparing what code can read (the
 * drop-in is exact where code can tell): the fields of an error, the words of an argument the official
 * client refuses itself, the requests a status read sends, what a legacy alias does with extra
 * positional arguments, and what `app.v1.*` prints. Real timers: no call here waits for a job.
 */
import OfficialFirecrawl from "@mendable/firecrawl-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, NotFoundError } from "../src/index.js";
import { Firecrawl, SdkError } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl } from "../src/firecrawl/node.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, type Setup } from "./helpers.js";

const SITE = "https://acme.test";
const JOB = "0190f2a4-0000-7000-8000-000000000001";
let s: Setup | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await s?.close();
  s = undefined;
});

/** The official client and the drop-in (default options, as official code constructs it), over the same served fake. */
async function both(): Promise<{ official: OfficialFirecrawl; ours: Firecrawl; fake: Setup["fake"] }> {
  s = await setup("undici");
  const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
  const ours: Firecrawl = new NodeFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
  return { official, ours, fake: s.fake };
}

/** What official code reads off an error. */
async function failure(p: Promise<unknown>): Promise<{ status?: unknown; code?: unknown; details?: unknown; message: string }> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { status?: unknown; code?: unknown; details?: unknown; message: string } | undefined;
  expect(err).toBeInstanceOf(Error);
  return { status: err!.status, code: err!.code, details: err!.details, message: err!.message };
}

describe("the drop-in and the official client against the same fake", () => {
  it("a 404 (an unknown job): status, code and details as the official client's; the message holds its words", async () => {
    const { official, ours } = await both();
    const want = await failure(official.getCrawlStatus(JOB));
    const got = await failure(ours.getCrawlStatus(JOB));
    expect(want).toMatchObject({ status: 404, code: "ERR_BAD_REQUEST", details: { success: false, error: "Job not found" } });
    expect({ status: got.status, code: got.code, details: got.details }).toEqual({ status: want.status, code: want.code, details: want.details });
    expect(got.message).toContain(want.message);
  });

  it("an invalid batch URL: the official client's request is answered 400 BAD_REQUEST; the drop-in's refusal before sending has status 400 and that code, details naming the URL", async () => {
    const { official, ours, fake } = await both();
    const want = await failure(official.startBatchScrape(["not a url"]));
    const got = await failure(ours.startBatchScrape(["not a url"]));
    expect(want).toMatchObject({ status: 400, code: "BAD_REQUEST" });
    expect({ status: got.status, code: got.code }).toEqual({ status: want.status, code: want.code });
    expect(got.details).toEqual([expect.objectContaining({ path: ["urls", 0], message: expect.stringContaining("http(s) URL") })]);
    expect(fake.requests.filter((r) => r.pathname === "/v2/batch/scrape")).toHaveLength(1); // the official one only
  });

  it("a 500 without a code: status, code and details as the official client's", async () => {
    const { official, fake } = await both();
    const ours: Firecrawl = new NodeFirecrawl({ apiKey: fake.apiKey, apiUrl: s!.url, logLevel: "off", maxRetries: 0 });
    const body = { success: false, error: "Something broke" };
    fake.inject({ match: "/v2/scrape", status: 500, body, times: 2 });
    const want = await failure(official.scrape(`${SITE}/`));
    const got = await failure(ours.scrape(`${SITE}/`));
    expect(want).toMatchObject({ status: 500, code: "ERR_BAD_RESPONSE", details: body });
    expect({ status: got.status, code: got.code, details: got.details }).toEqual({ status: want.status, code: want.code, details: want.details });
    expect(got.message).toContain(want.message);
  });

  it("a 400 the server sends (a format the SDK does not know at all): the same status, code and details", async () => {
    const { official, ours } = await both();
    const want = await failure(official.scrape(`${SITE}/`, { formats: ["bogus" as never] }));
    const got = await failure(ours.scrape(`${SITE}/`, { formats: ["bogus" as never] }));
    expect({ status: got.status, code: got.code, details: got.details }).toEqual({ status: want.status, code: want.code, details: want.details });
  });

  it("err.name is the official SdkError's (FirecrawlSdkError) wherever the official client throws an SdkError; the class stays webdata's", async () => {
    const { official, ours, fake } = await both();
    const nameOf = (p: Promise<unknown>) => p.then(() => { throw new Error("resolved"); }, (e: unknown) => e as Error);
    // A 404, a server 400, a refusal before sending that the server would refuse with 400, a 500.
    const calls: [() => Promise<unknown>, () => Promise<unknown>][] = [
      [() => official.getCrawlStatus(JOB), () => ours.getCrawlStatus(JOB)],
      [() => official.scrape(`${SITE}/`, { formats: ["bogus" as never] }), () => ours.scrape(`${SITE}/`, { formats: ["bogus" as never] })],
      [() => official.startBatchScrape(["not a url"]), () => ours.startBatchScrape(["not a url"])],
    ];
    for (const [theirs, mine] of calls) {
      const [want, got] = [await nameOf(theirs()), await nameOf(mine())];
      expect(want.name).toBe("FirecrawlSdkError");
      expect(got.name).toBe(want.name);
      expect(String(got)).toMatch(/^FirecrawlSdkError: /);
      expect(got).toBeInstanceOf(SdkError);
    }
    fake.inject({ match: "/v2/scrape", status: 500, body: { success: false, error: "Something broke" }, times: 2 });
    const quick: Firecrawl = new NodeFirecrawl({ apiKey: fake.apiKey, apiUrl: s!.url, logLevel: "off", maxRetries: 0 });
    const [want, got] = [await nameOf(official.scrape(`${SITE}/`)), await nameOf(quick.scrape(`${SITE}/`))];
    expect(got.name).toBe(want.name);
    // The drop-in's instanceof mapping is unchanged: the typed class, its name on the constructor.
    const missing = await nameOf(ours.getCrawlStatus(JOB));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.constructor.name).toBe("NotFoundError");
    expect(missing.name).toBe("FirecrawlSdkError");
    // A network failure: the official client's is an SdkError too.
    const down = "http://127.0.0.1:9";
    const [offline, ourOffline] = [await nameOf(new OfficialFirecrawl({ apiKey: "fc-x", apiUrl: down, maxRetries: 1 }).getCrawlStatus(JOB)), await nameOf(new NodeFirecrawl({ apiKey: "fc-x", apiUrl: down, logLevel: "off", maxRetries: 0 }).getCrawlStatus(JOB))];
    expect(ourOffline.name).toBe(offline.name);
    // An aborted call keeps the platform's name (the official client takes no signal).
    const aborted = await nameOf(ours.getCrawlStatus(JOB, undefined, { signal: AbortSignal.abort() }));
    expect(aborted).toBeInstanceOf(AbortError);
    expect(aborted.name).toBe("AbortError");
  });

  it("v1 scrapeUrl with actions: screenshots, scrapes and javascriptReturns are lists, as the official v1 type has them", async () => {
    const { ours } = await both();
    const res = await ours.v1.scrapeUrl(`${SITE}/`, { formats: ["markdown"], actions: [{ type: "screenshot" }] });
    if (!res.success) throw new Error(res.error);
    expect(res.actions).toMatchObject({ screenshots: expect.any(Array), scrapes: expect.any(Array), javascriptReturns: expect.any(Array) });
    const plain = await ours.v1.scrapeUrl(`${SITE}/`, { formats: ["markdown"] });
    expect(plain.success && "actions" in plain).toBe(false);
  });

  it("a misspelt format (markdwn) is refused before sending, as WebData refuses it, where the official client sends it", async () => {
    const { official, ours, fake } = await both();
    await failure(official.scrape(`${SITE}/`, { formats: ["markdwn" as never] }));
    const sent = fake.requests.length;
    const got = await failure(ours.scrape(`${SITE}/`, { formats: ["markdwn" as never] }));
    expect(got.message).toContain('unknown format "markdwn": did you mean "markdown"?');
    expect(fake.requests).toHaveLength(sent);
  });

  it("an empty or blank URL: the official words (URL cannot be empty), no status, nothing sent", async () => {
    const { official, ours, fake } = await both();
    for (const url of ["", "   "]) {
      const want = await failure(official.scrape(url));
      expect(want.message).toBe("URL cannot be empty");
      for (const call of [ours.scrape(url), ours.map(url), ours.startCrawl(url), ours.crawl(url), ours.scrapeUrl(url), ours.mapUrl(url), ours.crawlUrl(url), ours.asyncCrawlUrl(url)]) {
        const got = await failure(call);
        expect(got.message).toContain("URL cannot be empty");
        expect(got.status).toBeUndefined();
      }
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("getCrawlStatus reads each page once: the same requests as the official client, the same documents", async () => {
    const { official, ours, fake } = await both();
    fakeJobs(fake).configure({ defaultPageSize: 2 });
    const { id } = await ours.startCrawl(SITE, { limit: 7 });
    fakeJobs(fake).finish(id);
    const reads = () => fake.requests.filter((r) => r.method === "GET" && r.pathname.startsWith(`/v2/crawl/${id}`)).map((r) => r.path);
    const want = await official.getCrawlStatus(id);
    const officialReads = reads();
    const got = await ours.getCrawlStatus(id);
    const ourReads = reads().slice(officialReads.length);
    expect(officialReads.length).toBeGreaterThan(1);
    expect(ourReads).toEqual(officialReads);
    expect(got.data.map((d) => d.metadata?.sourceURL)).toEqual(want.data.map((d) => d.metadata?.sourceURL));
  });

  it("getBatchScrapeStatus reads each page once too", async () => {
    const { official, ours, fake } = await both();
    fakeJobs(fake).configure({ defaultPageSize: 2 });
    const { id } = await ours.startBatchScrape([1, 2, 3, 4, 5].map((i) => `${SITE}/many/${i}`));
    fakeJobs(fake).finish(id);
    const reads = () => fake.requests.filter((r) => r.method === "GET" && r.pathname.startsWith(`/v2/batch/scrape/${id}`)).map((r) => r.path);
    await official.getBatchScrapeStatus(id);
    const officialReads = reads();
    const got = await ours.getBatchScrapeStatus(id);
    expect(reads().slice(officialReads.length)).toEqual(officialReads);
    expect(got.data).toHaveLength(5);
  });

  it("the v1-style aliases drop extra positional arguments as the official client does", async () => {
    const { official, ours, fake } = await both();
    const key = "5b1b0c0a-7f3e-4b7e-9d0e-3f0c2c7a1b2d";
    const started = await ours.asyncCrawlUrl(SITE, { limit: 2 }, key as never);
    // v1-era code (JavaScript, or typed loosely) passes what the v1 library took after the options.
    const loose = <F>(f: F) => f as unknown as (...args: unknown[]) => Promise<{ id: string; status?: string }>;
    const officialStarted = await loose(official.asyncCrawlUrl.bind(official))(SITE, { limit: 2 }, key);
    expect(started.id).toMatch(/-/);
    expect(officialStarted.id).toMatch(/-/);
    const starts = fake.requests.filter((r) => r.method === "POST" && r.pathname === "/v2/crawl");
    expect(starts).toHaveLength(2);
    for (const start of starts) expect(start.body).toMatchObject({ url: SITE, limit: 2 });
    expect(starts.map((r) => r.headers["x-idempotency-key"])).toEqual([undefined, undefined]); // dropped by both
    await expect(ours.scrapeUrl(`${SITE}/`, { formats: ["markdown"] }, 30 as never)).resolves.toMatchObject({ markdown: expect.any(String) });
    await expect(ours.mapUrl(SITE, {}, "x" as never)).resolves.toMatchObject({ links: expect.any(Array) });
    await expect(ours.checkCrawlStatus(started.id, { autoPaginate: false }, 2 as never)).resolves.toMatchObject({ id: started.id });
    fakeJobs(fake).finish(started.id);
    await expect(loose(ours.crawlUrl.bind(ours))(SITE, { limit: 2, pollInterval: 1 }, 2, key)).resolves.toMatchObject({ status: "completed" });
  });

  it("app.v1.* prints nothing (the official client prints no deprecation line)", async () => {
    const { official, ours } = await both();
    const out: unknown[] = [];
    for (const m of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void out.push(a));
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => (out.push(chunk), true));
    await official.v1.scrapeUrl(`${SITE}/`, { formats: ["markdown"] });
    const quiet = new NodeFirecrawl({ apiKey: s!.fake.apiKey, apiUrl: s!.url });
    await quiet.v1.scrapeUrl(`${SITE}/`);
    await quiet.v1.mapUrl(SITE);
    await ours.v1.getCreditUsage();
    write.mockRestore();
    expect(out).toEqual([]);
  });
});
