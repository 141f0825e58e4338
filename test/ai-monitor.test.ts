/**
 * `webdata/ai` tools for the endpoints the client gained after the baseline,
 * called through `Tools.call` against the fake: `parse` (a file as text or
 * base64, the 50 MB limit, the fixed scrape options), the monitor tools
 * (create with a schedule in words or cron and each kind of target, list, get
 * a monitor or one check's pages and diffs, run, delete) and `feedback` on a
 * job. Failures are `isError` results in words.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createTools } from "../src/ai/index.js";
import { WebData } from "../src/index.js";
import { createFakeService, type FakeService } from "../src/testing/node.js";

let fake: FakeService;
let client: WebData;

beforeEach(() => {
  fake = createFakeService();
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
});

const HTML = "<html><body><h1>Quarterly report</h1><p>Revenue grew.</p></body></html>";
const sent = (method: string, path: RegExp) => fake.requests.filter((r) => r.method === method && path.test(r.pathname));

describe("parse", () => {
  it("uploads text as the named file and answers the document as text; formats and onlyMainContent reach the options", async () => {
    const tools = createTools(client);
    const r = await tools.call("parse", { content: HTML, filename: "report.html", formats: ["markdown", "links"], onlyMainContent: false });
    expect(r.isError).toBe(false);
    expect(r.content).toMatch(/^## Quarterly report \(https:\/\/parse\.firecrawl\.dev\/uploads\/report\.html\)\n+scrape id: \S+ \(for feedback\)\n+# Quarterly report\n+Revenue grew\./);
    expect(sent("POST", /^\/v2\/parse$/)[0]!.body).toEqual({ options: JSON.stringify({ formats: ["markdown", "links"], onlyMainContent: false }), file: { filename: "report.html", type: "text/plain; charset=utf-8", size: HTML.length } });
  });

  it("decodes base64 bytes (encoding: base64); text that is not base64 is an error result naming content", async () => {
    const tools = createTools(client);
    const csv = "a,b\n1,2";
    const r = await tools.call("parse", { content: Buffer.from(csv).toString("base64"), encoding: "base64", filename: "table.csv" });
    expect(r).toEqual({ isError: false, content: expect.stringContaining("a,b\n1,2") as string });
    expect(sent("POST", /^\/v2\/parse$/)[0]!.body).toMatchObject({ file: { filename: "table.csv", size: csv.length } });
    const bad = await tools.call("parse", { content: "not base64!", encoding: "base64", filename: "table.csv" });
    expect(bad).toEqual({ isError: true, content: 'invalid arguments: content: is not base64 (give text with encoding "text", the default)' });
    expect(sent("POST", /^\/v2\/parse$/)).toHaveLength(1);
  });

  it("states the 50 MB limit and keeps it before sending; no screenshot format; the application's onlyMainContent wins", async () => {
    const tools = createTools(client, { fixed: { onlyMainContent: true } });
    const def = tools.definitions.find((d) => d.name === "parse")!;
    expect(def.description).toMatch(/at most 50 MB/);
    const props = def.parameters.properties as Record<string, { items?: { enum?: string[] } }>;
    expect(props.formats!.items!.enum).toEqual(["markdown", "summary", "links", "images", "html", "rawHtml"]);
    expect(props).not.toHaveProperty("onlyMainContent");
    expect((await tools.call("parse", { content: "a".repeat(50 * 1024 * 1024 + 1), filename: "big.html" })).content).toMatch(/^invalid arguments: data: is 52428801 bytes; the service takes at most 50 MB/);
    expect((await tools.call("parse", { content: HTML, filename: "r.html", formats: ["screenshot"] })).content).toMatch(/^invalid arguments: formats/);
    expect(fake.requests).toHaveLength(0);
    await tools.call("parse", { content: HTML, filename: "r.html" });
    expect(JSON.parse((sent("POST", /^\/v2\/parse$/)[0]!.body as { options: string }).options)).toEqual({ onlyMainContent: true });
    const unknown = await tools.call("parse", { content: "plain", filename: "notes.txt" });
    expect(unknown).toEqual({ isError: true, content: expect.stringMatching(/^the service answered 400: Unsupported upload type/) as string });
  });
});

describe("monitors", () => {
  it("monitor_create: a schedule in words or a cron; urls, site and queries become scrape, crawl (capped) and search targets", async () => {
    const tools = createTools(client, { fixed: { maxCrawlLimit: 20 } });
    const made = await tools.call("monitor_create", { name: "prices", schedule: "every 30 minutes", urls: ["https://acme.test/products"] });
    expect(made).toEqual({ isError: false, content: expect.stringMatching(/^monitor created: \S+ "prices" active, cron "\*\/30 \* \* \* \*" UTC, next run \S+; last check: no check yet$/) as string });
    expect(sent("POST", /^\/v2\/monitor$/)[0]!.body).toEqual({ name: "prices", schedule: { text: "every 30 minutes" }, targets: [{ type: "scrape", urls: ["https://acme.test/products"] }] });
    await tools.call("monitor_create", { name: "site", schedule: "0 9 * * 1-5", timezone: "Europe/Berlin", site: "https://acme.test", queries: ["acme widgets"], goal: "price changes" });
    expect(sent("POST", /^\/v2\/monitor$/)[1]!.body).toEqual({
      name: "site",
      schedule: { cron: "0 9 * * 1-5", timezone: "Europe/Berlin" },
      targets: [{ type: "crawl", url: "https://acme.test", crawlOptions: { limit: 20 } }, { type: "search", queries: ["acme widgets"] }],
      goal: "price changes",
    });
    const site = tools.definitions.find((d) => d.name === "monitor_create")!.parameters.properties as Record<string, { description?: string }>;
    expect(site.site!.description).toBe("A site crawled at each check (at most 20 pages).");
  });

  it("monitor_create: nothing to watch, or a URL off the allowed domains, is refused before sending", async () => {
    const tools = createTools(client, { fixed: { allowedDomains: ["acme.test"] } });
    expect(await tools.call("monitor_create", { name: "x", schedule: "hourly" })).toEqual({ isError: true, content: "invalid arguments: urls: give urls, site or queries: what the monitor watches" });
    expect((await tools.call("monitor_create", { name: "x", schedule: "hourly", site: "https://evil.example/" })).content).toMatch(/evil\.example\/ is not on an allowed domain/);
    expect((await tools.call("monitor_create", { name: "x", schedule: "hourly", queries: Array(13).fill("q") })).content).toMatch(/^invalid arguments: queries/);
    expect(fake.requests).toHaveLength(0);
  });

  it("monitor_run starts a check; monitor_get reads the monitor and its checks, and with checkId the pages and their diffs", async () => {
    const tools = createTools(client);
    const id = /^monitor created: (\S+)/.exec((await tools.call("monitor_create", { name: "p", schedule: "0 * * * *", urls: ["https://acme.test/products", "https://acme.test/nowhere"] })).content)![1]!;
    const first = await tools.call("monitor_run", { id });
    expect(first).toEqual({ isError: false, content: expect.stringMatching(/^check \S+: queued \(manual\), 0 pages: .*; read it with monitor_get$/) as string });
    const firstId = /^check (\S+):/.exec(first.content)![1]!;
    fake.addPage({ url: "https://acme.test/products", markdown: "# Products\n\nWidget: $12" });
    const secondId = /^check (\S+):/.exec((await tools.call("monitor_run", { id })).content)![1]!;
    const got = await tools.call("monitor_get", { id });
    expect(got.content).toMatch(new RegExp(`^${id} "p" active, cron "0 \\* \\* \\* \\*" UTC, next run \\S+; last check: 2 pages: 1 changed[^]*\\n\\ncheck ${secondId}: completed \\(manual, finished \\S+\\), 2 pages: 1 changed, 0 new, 0 removed, 0 same, 1 failed\\ncheck ${firstId}: completed`));
    const changed = await tools.call("monitor_get", { id, checkId: secondId, status: "changed" });
    expect(changed.content).toMatch(new RegExp(`^check ${secondId}: completed .*; pages 1-1 below\\n\\n## https://acme\\.test/products: changed \\(HTTP 200\\)\\n[^]*\\+Widget: \\$12`));
    expect(fake.requests.at(-1)?.path).toBe(`/v2/monitor/${id}/checks/${secondId}?limit=100&status=changed`);
    await tools.call("monitor_get", { id, checkId: secondId, skip: 1 });
    expect(fake.requests.at(-1)?.path).toBe(`/v2/monitor/${id}/checks/${secondId}?limit=100&skip=1`);
  });

  it("monitor_get points at the next pages when a check has more than one answer holds", async () => {
    const tools = createTools(client);
    const urls = Array.from({ length: 101 }, (_, i) => `https://acme.test/p${i}`);
    const id = /^monitor created: (\S+)/.exec((await tools.call("monitor_create", { name: "many", schedule: "hourly", urls })).content)![1]!;
    const checkId = /^check (\S+):/.exec((await tools.call("monitor_run", { id })).content)![1]!;
    const r = await tools.call("monitor_get", { id, checkId });
    expect(r.content).toMatch(new RegExp(`^check ${checkId}: completed .*; pages 1-100 below; more pages: call monitor_get with \\{"id":"${id}","checkId":"${checkId}","skip":100\\}\\n`));
    expect((await tools.call("monitor_get", { id, checkId, skip: 100 })).content).toMatch(/; pages 101-101 below\n\n## https:\/\/acme\.test\/p100: error/);
  });

  it("monitor_list lists them; monitor_delete deletes one, after which it is a 404 result", async () => {
    const tools = createTools(client);
    expect((await tools.call("monitor_list", {})).content).toBe("no monitors");
    const id = /^monitor created: (\S+)/.exec((await tools.call("monitor_create", { name: "p", schedule: "daily at 9:00", urls: ["https://acme.test/"] })).content)![1]!;
    expect((await tools.call("monitor_list", { limit: 5 })).content).toMatch(new RegExp(`^${id} "p" active, cron "\\S+ \\S+ \\S+ \\S+ \\S+" UTC`));
    expect(fake.requests.at(-1)?.path).toBe("/v2/monitor?limit=5");
    expect(await tools.call("monitor_delete", { id })).toEqual({ isError: false, content: `monitor ${id} deleted` });
    expect(await tools.call("monitor_get", { id })).toEqual({ isError: true, content: expect.stringMatching(/^the service answered 404: Monitor not found/) as string });
  });
});

describe("feedback", () => {
  it("rates a scrape by the scrape id the scrape tool shows; a second rating changes nothing; a bad job id is the server's 400", async () => {
    const tools = createTools(client);
    const jobId = /^scrape id: (\S+) \(for interact\)$/m.exec((await tools.call("scrape", { url: "https://acme.test/about" })).content)![1]!;
    const r = await tools.call("feedback", { endpoint: "scrape", jobId, rating: "bad", note: "the prices table is missing" });
    expect(r).toEqual({ isError: false, content: "feedback recorded" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", pathname: "/v2/feedback", body: { endpoint: "scrape", jobId, rating: "bad", note: "the prices table is missing" } });
    expect(await tools.call("feedback", { endpoint: "scrape", jobId, rating: "good", note: "fine now" })).toEqual({ isError: false, content: "feedback for this job was already recorded; nothing changed" });
    expect((await tools.call("feedback", { endpoint: "scrape", jobId: "nope", rating: "bad", note: "x" })).content).toMatch(/^the service answered 400: Invalid request body/);
    expect((await tools.call("feedback", { endpoint: "crawl", jobId, rating: "bad", note: "x" })).content).toMatch(/^invalid arguments: endpoint/);
  });

  it("without interact, scrape and parse show the scrape id for feedback; without feedback, parse shows none", async () => {
    const tools = createTools(client, { only: ["scrape", "parse", "feedback"] });
    const scraped = (await tools.call("scrape", { url: "https://acme.test/about" })).content;
    expect(scraped).toMatch(/^scrape id: \S+ \(for feedback\)$/m);
    const parsed = (await tools.call("parse", { content: HTML, filename: "r.html" })).content;
    const jobId = /^scrape id: (\S+) \(for feedback\)$/m.exec(parsed)![1]!;
    expect(await tools.call("feedback", { endpoint: "parse", jobId, rating: "good", note: "clean markdown" })).toEqual({ isError: false, content: "feedback recorded" });
    expect((await createTools(client, { only: ["scrape", "parse"] }).call("parse", { content: HTML, filename: "r.html" })).content).not.toMatch(/scrape id/);
    expect((await createTools(client, { only: ["scrape"] }).call("scrape", { url: "https://acme.test/about" })).content).not.toMatch(/scrape id/);
  });
});
