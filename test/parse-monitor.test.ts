/**
 * The endpoints the service added after the reference's baseline whose wire is
 * read from the server's source (MIGRATION.md "Wire of the later endpoints"):
 * `parse` (a multipart upload), the monitor routes (`PATCH` included) and
 * endpoint `feedback`, over both transports, against the fake service.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BadRequestError, ConflictError, InternalServerError, NotFoundError, ValidationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const SITE = "https://acme.test";
const HTML = "<html><head><title>Q3</title></head><body><h1>Quarterly report</h1><p>Revenue grew.</p></body></html>";
const MB = 1024 * 1024;

describe.each(TRANSPORTS)("parse, monitors and feedback over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const sent = (method: string, path: RegExp) => s.fake.requests.filter((r) => r.method === method && path.test(r.pathname));

  it("parse sends the file and the options as multipart parts to POST /v2/parse and returns the document built from the upload", async () => {
    s = await setup(kind);
    const doc = await s.client.parse({ data: HTML, filename: "report.html", contentType: "text/html" }, { formats: ["markdown", "html"], onlyMainContent: false });
    expect(doc.markdown).toContain("# Quarterly report");
    expect(doc.html).toBe(HTML);
    expect(doc.metadata).toMatchObject({ sourceURL: "report.html", contentType: "text/html" });
    const [req] = sent("POST", /^\/v2\/parse$/);
    expect(req?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(req?.body).toEqual({ options: JSON.stringify({ formats: ["markdown", "html"], onlyMainContent: false }), file: { filename: "report.html", type: "text/html", size: HTML.length } });
  });

  it("parse takes bytes and Blobs (a Blob's own type, or the contentType given), and a PDF by its extension", async () => {
    s = await setup(kind);
    const csv = await s.client.parse({ data: new TextEncoder().encode("a,b\n1,2\n"), filename: "table.csv" });
    expect(csv.markdown).toBe("a,b\n1,2");
    const pdf = await s.client.parse({ data: new Blob([new Uint8Array([0x25, 0x50, 0x44, 0x46])], { type: "application/pdf" }), filename: "paper.pdf" });
    expect(pdf.metadata).toMatchObject({ sourceURL: "paper.pdf", contentType: "application/pdf" });
    await s.client.parse({ data: new Blob(["<h1>x</h1>"], { type: "text/plain" }), filename: "page.html", contentType: "text/html" });
    expect(sent("POST", /^\/v2\/parse$/).map((r) => (r.body as { file: unknown }).file)).toEqual([
      { filename: "table.csv", type: "application/octet-stream", size: 8 }, // a part without a type is sent as bytes
      { filename: "paper.pdf", type: "application/pdf", size: 4 },
      { filename: "page.html", type: "text/html", size: 10 },
    ]);
  });

  it("parse checks the file and the options before sending: no name, no bytes, over 50 MB, page-only options", async () => {
    s = await setup(kind);
    const html = { data: HTML, filename: "a.html" };
    await expect(s.client.parse({ data: HTML, filename: " " })).rejects.toThrow(/filename: is required/);
    await expect(s.client.parse({ data: "", filename: "a.html" })).rejects.toThrow(/data: is empty/);
    await expect(s.client.parse({ data: 42 as never, filename: "a.html" })).rejects.toThrow(/data: must be a Blob, bytes/);
    // A Blob that reports one byte over the limit (allocating 50 MB per run would only slow the suite).
    const big = new (class extends Blob {
      override get size(): number {
        return 50 * MB + 1;
      }
    })(["x"]);
    await expect(s.client.parse({ data: big, filename: "big.pdf" })).rejects.toThrow(/is 52428801 bytes; the service takes at most 50 MB/);
    expect(await s.client.parse({ data: new Uint8Array(1), filename: "small.pdf" })).toMatchObject({ metadata: { sourceURL: "small.pdf" } });
    s.fake.requests.length = 0;
    await expect(s.client.parse(html, { actions: [{ type: "wait", milliseconds: 1 }] } as never)).rejects.toThrow(/actions: a parsed file has no page/);
    await expect(s.client.parse(html, { formats: ["screenshot"] })).rejects.toThrow(/formats\.0: parse has no screenshot format/);
    await expect(s.client.parse(html, { proxy: "stealth" as never })).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("parse: the server's 400 for a kind it cannot read is a BadRequestError with its code", async () => {
    s = await setup(kind);
    const err = await s.client.parse({ data: "plain", filename: "notes.txt" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, code: "UNSUPPORTED_FILE_TYPE" });
  });

  it("parse is retried after a 503 with the same multipart body", async () => {
    s = await setup(kind, {}, { maxRetries: 1 });
    s.fake.inject({ match: "/v2/parse", status: 503, headers: { "retry-after": "0" } });
    const doc = await s.client.parse({ data: HTML, filename: "r.html" });
    expect(doc.markdown).toContain("# Quarterly report");
    const bodies = sent("POST", /^\/v2\/parse$/).map((r) => r.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it("createMonitor / getMonitor / updateMonitor (PATCH) / listMonitors / deleteMonitor keep a monitor, reading `data` of each answer", async () => {
    s = await setup(kind);
    const request = { name: "prices", schedule: { text: "every 30 minutes" }, targets: [{ type: "scrape" as const, urls: [`${SITE}/products`] }] };
    const created = await s.client.createMonitor(request);
    expect(sent("POST", /^\/v2\/monitor$/).map((r) => r.body)).toEqual([request]);
    expect(created).toMatchObject({ name: "prices", status: "active", schedule: { cron: "*/30 * * * *", timezone: "UTC" }, retentionDays: 30 });
    expect(created.targets[0]).toMatchObject({ type: "scrape", id: expect.any(String) });
    expect(await s.client.getMonitor(created.id)).toEqual(created);
    const updated = await s.client.updateMonitor(created.id, { status: "paused", retentionDays: 7 });
    expect(s.fake.requests.at(-1)).toMatchObject({ method: "PATCH", pathname: `/v2/monitor/${created.id}`, body: { status: "paused", retentionDays: 7 }, headers: { "content-type": "application/json" } });
    expect(updated).toMatchObject({ status: "paused", retentionDays: 7, name: "prices" });
    await s.client.createMonitor({ ...request, name: "second" });
    const list = await s.client.listMonitors({ limit: 1, offset: 1 });
    expect(s.fake.requests.at(-1)?.path).toBe("/v2/monitor?limit=1&offset=1");
    expect(list.map((m) => m.name)).toEqual(["prices"]);
    expect(await s.client.deleteMonitor(created.id)).toBe(true);
    await expect(s.client.getMonitor(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("runMonitor starts a check (queued); the checks compare each page with the last check: new, same, changed with a diff", async () => {
    s = await setup(kind);
    const m = await s.client.createMonitor({ name: "p", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`, `${SITE}/nowhere`] }] });
    const first = await s.client.runMonitor(m.id);
    expect(s.fake.requests.at(-1)).toMatchObject({ method: "POST", pathname: `/v2/monitor/${m.id}/run`, body: {} });
    expect(first).toMatchObject({ monitorId: m.id, status: "queued", trigger: "manual" });
    const detail = await s.client.getMonitorCheck(m.id, first.id);
    expect(detail).toMatchObject({ status: "completed", summary: { totalPages: 2, new: 1, error: 1 } });
    expect(detail.pages.map((p) => [p.url, p.status])).toEqual([[`${SITE}/products`, "new"], [`${SITE}/nowhere`, "error"]]);
    s.fake.addPage({ url: `${SITE}/products`, markdown: "# Products\n\nWidget: $12" });
    const second = await s.client.runMonitor(m.id);
    const changed = await s.client.getMonitorCheck(m.id, second.id, { status: "changed" });
    expect(s.fake.requests.at(-1)?.path).toBe(`/v2/monitor/${m.id}/checks/${second.id}?status=changed`);
    expect(changed.pages).toHaveLength(1);
    expect(changed.pages[0]?.diff?.text).toContain("+Widget: $12");
    const checks = await s.client.listMonitorChecks(m.id, { limit: 10, status: "completed" });
    expect(checks.map((c) => c.id)).toEqual([second.id, first.id]);
  });

  it("getMonitorCheck reads one page of pages (limit, skip) and gives next; it never paginates", async () => {
    s = await setup(kind);
    const m = await s.client.createMonitor({ name: "site", schedule: { cron: "0 * * * *" }, targets: [{ type: "crawl", url: SITE, crawlOptions: { limit: 5 } }] });
    const run = await s.client.runMonitor(m.id);
    const page = await s.client.getMonitorCheck(m.id, run.id, { limit: 2, skip: 2 });
    expect(page.pages).toHaveLength(2);
    expect(new URL(page.next!).searchParams.get("skip")).toBe("4");
    expect(sent("GET", /\/checks\//)).toHaveLength(1);
  });

  it("monitor requests are checked before sending; the server's 404 and 409 are typed", async () => {
    s = await setup(kind);
    const ok = { name: "p", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape" as const, urls: [`${SITE}/`] }] };
    await expect(s.client.createMonitor({ ...ok, schedule: {} })).rejects.toThrow(/give exactly one of cron or text/);
    await expect(s.client.createMonitor({ ...ok, schedule: { cron: "* * * * *", text: "hourly" } })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.createMonitor({ ...ok, targets: [] })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.createMonitor({ ...ok, targets: [{ type: "rss" } as never] })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.updateMonitor("00000000-0000-4000-8000-000000000001", {})).rejects.toThrow(/give at least one field to change/);
    await expect(s.client.listMonitors({ limit: 101 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.listMonitorChecks("m", { offset: -1 })).rejects.toThrow(/offset: must be >= 0/);
    await expect(s.client.getMonitor("")).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
    await expect(s.client.getMonitor("00000000-0000-4000-8000-000000000001")).rejects.toBeInstanceOf(NotFoundError);
    // A target's own fields are the server's to check: its 400 names the field.
    const badTarget = await s.client.createMonitor({ ...ok, targets: [{ type: "scrape", urls: ["not a url"] }] }).catch((e: unknown) => e);
    expect(badTarget).toBeInstanceOf(BadRequestError);
    expect(badTarget).toMatchObject({ details: [{ path: ["targets", "0", "urls"] }] });
    const m = await s.client.createMonitor(ok);
    await s.client.updateMonitor(m.id, { status: "paused" });
    const paused = await s.client.runMonitor(m.id).catch((e: unknown) => e);
    expect(paused).toBeInstanceOf(ConflictError);
    expect((paused as Error).message).toMatch(/Monitor is paused/);
  });

  it("createMonitor and runMonitor are not retried after a 5xx (they may have acted); updateMonitor is", async () => {
    s = await setup(kind, {}, { maxRetries: 2 });
    const ok = { name: "p", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape" as const, urls: [`${SITE}/`] }] };
    s.fake.inject({ match: "/v2/monitor", status: 503 });
    await expect(s.client.createMonitor(ok)).rejects.toBeInstanceOf(InternalServerError);
    expect(sent("POST", /^\/v2\/monitor$/)).toHaveLength(1);
    const m = await s.client.createMonitor(ok);
    s.fake.inject({ match: /\/run$/, status: 503 });
    await expect(s.client.runMonitor(m.id)).rejects.toBeInstanceOf(InternalServerError);
    expect(sent("POST", /\/run$/)).toHaveLength(1);
    s.fake.inject({ match: /^PATCH /, status: 503, headers: { "retry-after": "0" } });
    expect(await s.client.updateMonitor(m.id, { name: "q" })).toMatchObject({ name: "q" });
    expect(sent("PATCH", /./)).toHaveLength(2);
  });

  it("feedback posts the rating of any job to POST /v2/feedback; a second one is alreadySubmitted; a rating alone is refused before sending", async () => {
    s = await setup(kind);
    const doc = await s.client.scrape(`${SITE}/products`);
    const body = { endpoint: "scrape" as const, jobId: doc.metadata.scrapeId!, rating: "partial" as const, issues: ["missing_prices"], note: "no prices" };
    const first = await s.client.feedback(body);
    expect(sent("POST", /^\/v2\/feedback$/).map((r) => r.body)).toEqual([body]);
    expect(first).toEqual({ feedbackId: expect.any(String), creditsRefunded: 0 });
    expect("success" in first).toBe(false);
    expect(await s.client.feedback(body)).toMatchObject({ feedbackId: first.feedbackId, alreadySubmitted: true });
    await expect(s.client.feedback({ endpoint: "scrape", jobId: doc.metadata.scrapeId!, rating: "good" })).rejects.toThrow(/at least one signal/);
    await expect(s.client.feedback({ ...body, endpoint: "crawl" as never })).rejects.toBeInstanceOf(ValidationError);
    expect(sent("POST", /^\/v2\/feedback$/)).toHaveLength(2);
  });
});
