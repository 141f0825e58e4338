/**
 * `webdata/firecrawl`'s parse, monitor and feedback methods (the official
 * names over `WebData`'s), `getMonitorCheck`'s official pagination, and the
 * official methods of services outside the API server, which reject before
 * sending.
 */
import { afterEach, describe, expect, it } from "vitest";
import { APIError, PaginationError, ValidationError, WebData } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl } from "../src/firecrawl/node.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const SITE = "https://acme.test";

describe.each(TRANSPORTS)("webdata/firecrawl later methods over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const app = () => {
    const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const };
    return kind === "fetch" ? new Firecrawl({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawl(options);
  };
  const checkReads = () => s.fake.requests.filter((r) => r.method === "GET" && r.pathname.includes("/checks/"));

  /** A monitor over 8 pages of the fixture site, run once: its id and the check's. */
  async function checked(fc: Firecrawl): Promise<{ monitor: string; check: string }> {
    const m = await fc.createMonitor({ name: "site", schedule: { cron: "0 * * * *" }, targets: [{ type: "crawl", url: SITE, crawlOptions: { limit: 8 } }] });
    const run = await fc.runMonitor(m.id);
    return { monitor: m.id, check: run.id };
  }

  it("getMonitorCheck reads every page of pages by default, with the caller's limit and status on each read", async () => {
    s = await setup(kind);
    const fc = app();
    const { monitor, check } = await checked(fc);
    const all = await fc.getMonitorCheck(monitor, check, { limit: 3, status: "new" });
    expect(all.pages).toHaveLength(8);
    expect(new Set(all.pages.map((p) => p.url)).size).toBe(8);
    expect(all.next).toBeNull();
    expect(checkReads().map((r) => r.query)).toEqual([{ limit: "3", status: "new" }, { limit: "3", skip: "3", status: "new" }, { limit: "3", skip: "6", status: "new" }]);
  });

  it("autoPaginate: false reads one page; maxPages and maxResults stop early and keep next (the page to read on)", async () => {
    s = await setup(kind);
    const fc = app();
    const { monitor, check } = await checked(fc);
    const one = await fc.getMonitorCheck(monitor, check, { limit: 3, autoPaginate: false });
    expect(one.pages).toHaveLength(3);
    expect(new URL(one.next!).searchParams.get("skip")).toBe("3");
    const two = await fc.getMonitorCheck(monitor, check, { limit: 3, maxPages: 1 });
    expect(two.pages).toHaveLength(6);
    expect(new URL(two.next!).searchParams.get("skip")).toBe("6");
    const four = await fc.getMonitorCheck(monitor, check, { limit: 3, maxResults: 4 });
    expect(four.pages).toHaveLength(4);
    expect(four.next).toEqual(expect.any(String));
    await expect(fc.getMonitorCheck(monitor, check, { maxPages: -1 })).rejects.toBeInstanceOf(ValidationError);
  });

  it("a next link that does not move forward is a PaginationError, not an endless walk", async () => {
    s = await setup(kind);
    const fc = app();
    const { monitor, check } = await checked(fc);
    const looping = { success: true, data: { id: check, monitorId: monitor, status: "completed", pages: [], next: `${s.url}/v2/monitor/${monitor}/checks/${check}?skip=0&limit=3` } };
    s.fake.inject({ match: /\/checks\//, status: 200, body: looping });
    await expect(fc.getMonitorCheck(monitor, check)).rejects.toSatisfy((e: unknown) => e instanceof PaginationError && e.reason === "loop");
  });

  it("parse, feedback and the other monitor methods are WebData's, under the official names", async () => {
    s = await setup(kind);
    const fc = app();
    const doc = await fc.parse({ data: "<h1>Hi</h1>", filename: "hi.html" }, { formats: ["markdown"] });
    expect(doc.markdown).toBe("# Hi");
    const fb = await fc.feedback({ endpoint: "parse", jobId: doc.metadata.scrapeId!, rating: "good", note: "clean" });
    expect(fb.success).toBe(true);
    const m = await fc.createMonitor({ name: "p", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/`] }] });
    expect((await fc.listMonitors()).map((x) => x.id)).toEqual([m.id]);
    expect(await fc.deleteMonitor(m.id)).toBe(true);
  });

  it("getAgentThread, developerSearch, findTools and research send what the official client sends; the server's answer decides (the fake has none of the routes)", async () => {
    s = await setup(kind);
    const fc = app();
    const calls: [string, () => Promise<unknown>, number, string][] = [
      ["getAgentThread", () => fc.getAgentThread("0190f2a4-0000-7000-8000-000000000001"), 404, "GET /v2/agent/threads/0190f2a4-0000-7000-8000-000000000001"],
      ["developerSearch", () => fc.developerSearch("retry backoff"), 404, "POST /v2/search/developer"],
      ["findTools", () => fc.findTools({ limit: 1 }), 400, "POST /v2/scrape"],
      ["research", () => fc.research.searchPapers("CRISPR"), 404, "GET /v2/search/research/papers?query=CRISPR"],
      ["research", () => fc.research.getPaper("arxiv:1234", { query: "methods" }), 404, "GET /v2/search/research/papers/arxiv%3A1234?query=methods"],
      ["research", () => fc.research.similarPapers("arxiv:1234", { intent: "x" }), 404, "GET /v2/search/research/papers/arxiv%3A1234/similar?intent=x"],
      ["research", () => fc.research.searchGithub("x"), 404, "GET /v2/search/research/github?query=x"],
    ];
    for (const [name, call, status, request] of calls) {
      const err = await call().catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(APIError);
      expect((err as APIError).status, name).toBe(status);
      expect((err as Error).message, name).not.toMatch(/not supported/);
      const last = s.fake.requests.at(-1)!;
      expect(`${last.method} ${last.path}`, name).toBe(request);
    }
    expect(s.fake.requests).toHaveLength(calls.length);
  });
});

describe("WebData itself", () => {
  it("has no method for the services outside the API server", () => {
    for (const name of ["getAgentThread", "developerSearch", "findTools", "research"]) expect(name in WebData.prototype, name).toBe(false);
  });
});
