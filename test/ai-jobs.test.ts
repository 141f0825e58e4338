/**
 * `webdata/ai` job tools at their edges: a failed crawl, extract or agent job
 * is a result saying so (with the server's reason), not a throw; the URLs of a
 * job start are checked against `allowedDomains` before anything is sent; the
 * fixed scrape options reach batch scrapes; invalid batch URLs are named.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createTools } from "../src/ai/index.js";
import { WebData } from "../src/index.js";
import { createFakeService, fakeJobs, fakeTasks, type FakeService } from "../src/testing/node.js";

let fake: FakeService;
let client: WebData;

beforeEach(() => {
  fake = createFakeService();
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
  fakeTasks(fake).configure({ pollsToFinish: 0 }); // extract and agent end at the first status read: nothing waits
});

describe("failed jobs are results that say why", () => {
  it("a failed crawl: crawl_status and crawl_wait are error results naming the state and the server's reason", async () => {
    const tools = createTools(client);
    const id = /id (\S+) \(/.exec((await tools.call("crawl_start", { url: "https://acme.test", limit: 3 })).content)![1]!;
    fakeJobs(fake).fail(id, "Crawl failed: robots.txt disallows everything");
    for (const tool of ["crawl_status", "crawl_wait"]) {
      const r = await tools.call(tool, { id });
      expect(r.isError, tool).toBe(true);
      expect(r.content, tool).toMatch(new RegExp(`^crawl ${id}: failed \\(Crawl failed: robots\\.txt disallows everything\\), \\d+ of \\d+ pages done`));
    }
  });

  it("a failed extract and a failed agent: error results that say failed, with the reason", async () => {
    fakeTasks(fake).configure({ outcome: "failed", error: "No content could be extracted" });
    const tools = createTools(client);
    const extract = await tools.call("extract", { urls: ["https://acme.test/about"], prompt: "the year" });
    expect(extract).toEqual({ isError: true, content: expect.stringMatching(/^extract \S+: failed \(No content could be extracted\)$/) as string });
    const agent = await tools.call("agent", { prompt: "the year" });
    expect(agent).toEqual({ isError: true, content: expect.stringMatching(/^agent \S+: failed \(No content could be extracted\)$/) as string });
    const id = /^extract (\S+):/.exec(extract.content)![1]!;
    expect(await tools.call("extract_status", { id })).toEqual(extract);
  });
});

describe("job starts keep to the application's rules", () => {
  it("URLs outside allowedDomains are refused before sending: batch_scrape, extract, agent, crawl_start", async () => {
    const tools = createTools(client, { fixed: { allowedDomains: ["acme.test"] } });
    const calls: [string, Record<string, unknown>][] = [
      ["batch_scrape", { urls: ["https://acme.test/about", "https://evil.example/"] }],
      ["extract", { urls: ["https://evil.example/"], prompt: "x" }],
      ["agent", { prompt: "x", urls: ["https://evil.example/"] }],
      ["crawl_start", { url: "https://evil.example/" }],
    ];
    for (const [name, args] of calls) {
      const r = await tools.call(name, args);
      expect(r, name).toEqual({ isError: true, content: expect.stringMatching(/evil\.example\/ is not on an allowed domain \(acme\.test\)/) as string });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("batch_scrape sends the fixed onlyMainContent and names the URLs the service skipped as invalid", async () => {
    const tools = createTools(client, { fixed: { onlyMainContent: false } });
    fakeJobs(fake).configure({ pagesPerPoll: 10 });
    const r = await tools.call("batch_scrape", { urls: ["https://acme.test/about", "https://acme.test/contact"], onlyMainContent: true });
    expect(r.content).toMatch(/^batch scrape \S+: completed, 2 of 2 pages done, 2 shown below/);
    expect(fake.requests.find((q) => q.pathname === "/v2/batch/scrape")!.body).toMatchObject({ onlyMainContent: false, ignoreInvalidURLs: true });
  });
});

describe("a job's status read is the one page walk (jobs/pages.ts)", () => {
  const ID = "0f6e3c1a-2b4d-4e8f-9a1b-3c5d7e9f1a2b";
  const doc = (n: number) => ({ markdown: `# Page ${n}`, metadata: { title: `Page ${n}`, sourceURL: `https://acme.test/p${n}`, url: `https://acme.test/p${n}`, statusCode: 200, scrapeId: `s${n}` } });
  const page = (docs: number[], next?: string) => ({ success: true, status: "scraping", completed: 3, total: 5, creditsUsed: 3, expiresAt: "2026-12-01T00:00:00.000Z", data: docs.map(doc), ...(next ? { next } : {}) });

  it("crawl_status follows next and shows a document the server lists on two pages once", async () => {
    fake.inject({ match: new RegExp(`^GET /v2/crawl/${ID}$`), status: 200, body: page([1, 2], `https://fake.webdata.test/v2/crawl/${ID}?skip=2`) });
    fake.inject({ match: new RegExp(`^GET /v2/crawl/${ID}\\?skip=2$`), status: 200, body: page([2, 3]) });
    const r = await createTools(client, { maxChars: 100_000 }).call("crawl_status", { id: ID });
    expect(r.isError).toBeFalsy();
    expect(r.content.match(/^## Page \d/gm)).toEqual(["## Page 1", "## Page 2", "## Page 3"]);
    expect(fake.requests.map((q) => q.path)).toEqual([`/v2/crawl/${ID}`, `/v2/crawl/${ID}?skip=2`]);
  });

  it("batch_status of a finished job whose next points back to a page already read is an error result, not a loop", async () => {
    const finished = (docs: number[], next: string) => ({ ...page(docs, next), status: "completed" });
    fake.inject({ match: new RegExp(`^GET /v2/batch/scrape/${ID}`), status: 200, body: finished([1, 2], `https://fake.webdata.test/v2/batch/scrape/${ID}?skip=2`), times: 10 });
    const r = await createTools(client, { maxChars: 100_000 }).call("batch_status", { id: ID });
    expect(r.isError).toBe(true);
    expect(r.content).toBe(`PaginationError: Pagination of job ${ID} stopped: the job has finished and the server sent the same page again`);
    expect(fake.requests.length).toBeLessThanOrEqual(3);
  });
});

describe("waiting tools poll on the waiters' ramp", () => {
  /** The gaps between a running crawl's status reads during one `crawl_wait` of 5 s, on a fake clock. */
  async function gaps(options: { pollIntervalMs?: number }): Promise<number[]> {
    vi.useFakeTimers();
    try {
      fakeJobs(fake).configure({ pagesPerPoll: 0 }); // the crawl never ends: the wait runs out
      const tools = createTools(client, options);
      const id = /id (\S+) \(/.exec((await tools.call("crawl_start", { url: "https://acme.test", limit: 3 })).content)![1]!;
      const done = tools.call("crawl_wait", { id, waitSeconds: 5 });
      await vi.advanceTimersByTimeAsync(6_000);
      expect((await done).content).toMatch(/still running/);
      const at = fake.requests.filter((q) => q.method === "GET" && q.pathname === `/v2/crawl/${id}`).map((q) => q.at);
      return at.slice(1).map((t, i) => t - at[i]!);
    } finally {
      vi.useRealTimers();
    }
  }

  it("without pollIntervalMs: 500, 750, 1125, 1687.5 ms, then 2000 ms (a short job answers sooner)", async () => {
    const g = await gaps({});
    expect(g.slice(0, 3)).toEqual([500, 750, 1125]);
    expect(Math.abs(g[3]! - 1687.5)).toBeLessThanOrEqual(0.5); // the clock counts whole ms
  });

  it("with pollIntervalMs: that interval from the first pause", async () => {
    expect((await gaps({ pollIntervalMs: 2000 })).slice(0, 2)).toEqual([2000, 2000]);
  });
});
