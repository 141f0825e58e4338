/**
 * `webdata/firecrawl`, the drop-in entry: where the official client's
 * semantics differ from `WebData`'s, `Firecrawl` follows the official ones
 * (issue "Coming from the official client, part two"), over both transports,
 * against the fake service. `WebData` keeps its own (the last block).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inspect } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { APIError, JobFailedError, JobTimeoutError, NotFoundError, ValidationError, WebData } from "../src/index.js";
import { Firecrawl as PortableFirecrawl, FirecrawlAppV1 as PortableFirecrawlAppV1, FirecrawlClient, JobTimeoutError as OfficialJobTimeoutError, parseRequiresAction, SdkError } from "../src/firecrawl/index.js";
import DefaultFirecrawl from "../src/firecrawl/index.js";
import type { ClickAction, Document, ErrorDetails, FirecrawlClientInput, MenuSection, PDFParser, ProductPrice, ScrapeAction, WaitAction, Watcher, WatcherOptions } from "../src/firecrawl/index.js";
import type * as Official from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl, FirecrawlAppV1 as NodeFirecrawlAppV1, parseRequiresAction as nodeParseRequiresAction } from "../src/firecrawl/node.js";
import { fakeJobs, fakeTasks } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";

const SITE = "https://acme.test";
const { open } = jobTestSetups();

function app(s: Setup, kind: string): PortableFirecrawl {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9 };
  return kind === "fetch" ? new PortableFirecrawl({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawl(options);
}

function appV1(s: Setup, kind: string): PortableFirecrawlAppV1 {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9, silenceDeprecationWarnings: true };
  return kind === "fetch" ? new PortableFirecrawlAppV1({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawlAppV1(options);
}

/** Starts a batch scrape of the fixture site's `/many/N` pages and finishes it on the server. */
async function finishedBatch(s: Setup, a: PortableFirecrawl, pages = 150): Promise<string> {
  const { id } = await drive(a.startBatchScrape(Array.from({ length: pages }, (_, i) => `${SITE}/many/${i + 1}`)));
  fakeJobs(s.fake).finish(id);
  return id;
}

describe("the entry's names", () => {
  it("default export, FirecrawlClient and Firecrawl are one class; SdkError is the base of every SDK error", () => {
    expect(DefaultFirecrawl).toBe(PortableFirecrawl);
    expect(FirecrawlClient).toBe(PortableFirecrawl);
    expect(new NotFoundError({ status: 404, message: "x" })).toBeInstanceOf(SdkError);
  });

  it("backoffFactor is accepted (a positive number) and anything else is a ValidationError", () => {
    expect(() => new PortableFirecrawl({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1", backoffFactor: 0.5 })).not.toThrow();
    expect(() => new PortableFirecrawl({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1", backoffFactor: -1 })).toThrow(ValidationError);
  });

  it("the official type names compile as official code uses them (Watcher is the official watcher)", () => {
    const input: FirecrawlClientInput = "fc-x";
    const actions: (ClickAction | WaitAction | ScrapeAction)[] = [{ type: "wait", milliseconds: 500 }, { type: "click", selector: "a" }, { type: "scrape" }];
    const parser: PDFParser = { type: "pdf", mode: "fast" };
    const details: ErrorDetails = { message: "x", status: 400 };
    const options: WatcherOptions = { kind: "crawl", pollInterval: 2, timeout: 60 };
    const watcher: Watcher = new PortableFirecrawl({ apiKey: input, apiUrl: "http://127.0.0.1:1" }).watcher("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9", options);
    expect(watcher.on("snapshot", () => undefined)).toBe(watcher);
    expect([actions.length, parser.type, details.status]).toEqual([3, "pdf", 400]);
    // The branding, product and menu profiles are typed as the official client types them (they were `Record<string, unknown>`).
    const doc: Document = { metadata: { statusCode: 200 }, branding: { colors: { primary: "#f00" } }, product: { title: "Mug", url: "https://a.test/mug", variants: [{ availability: { inStock: true }, price: { amount: 12, formatted: "$12" } }] } };
    const price: ProductPrice | undefined = doc.product?.variants[0]?.price;
    const sections: MenuSection[] = doc.menu?.sections ?? [];
    expect([doc.branding?.colors?.primary, price?.formatted, sections.length]).toEqual(["#f00", "$12", 0]);
  });

  it("the rest of the official type names compile as official code uses them (monitors, parse, PDF, agent exchange and trace, tool catalogue, research)", () => {
    // Monitors: the request parts and a check's pages.
    const schedule: Official.MonitorSchedule = { cron: "0 * * * *", timezone: "UTC" };
    const email: Official.MonitorEmailNotification = { enabled: true, recipients: ["a@acme.test"] };
    const notification: Official.MonitorNotification = { email };
    const webhook: Official.MonitorWebhookConfig = { url: "https://hooks.acme.test/m", events: ["monitor.page"] };
    const targets: (Official.MonitorScrapeTarget | Official.MonitorCrawlTarget | Official.MonitorSearchTarget)[] = [
      { type: "scrape", urls: [SITE] },
      { type: "crawl", url: SITE, crawlOptions: { limit: 10 } },
      { type: "search", queries: ["acme"], searchWindow: "24h" },
    ];
    const request: Official.CreateMonitorRequest = { name: "acme", schedule, notification, webhook, targets, goal: "price changes" };
    const summary: Official.MonitorSummary = { totalPages: 2, same: 1, changed: 1, new: 0, removed: 0, error: 0 };
    const page: Official.MonitorCheckPage = { id: "p", targetId: "t", url: SITE, status: "changed", createdAt: "2026-01-01T00:00:00Z", diff: { text: "-a\n+b" } };
    expect([request.targets.length, summary.changed, page.diff?.text]).toEqual([3, 1, "-a\n+b"]);
    // Parse: the file's data; the product and menu parts.
    const data: Official.ParseFileData[] = ["%PDF-1.7", new Uint8Array([1]), new ArrayBuffer(1), new Blob(["x"]), Buffer.from("x")];
    const variant: Official.ProductVariant = { sku: "M-1", availability: { inStock: true }, price: { amount: 12 } };
    const item: Official.MenuItem = { id: "1", name: "Soup", images: [], availability: { inStock: true }, dietary: ["vegan"], optionGroups: [], identifiers: {}, sourceUrl: SITE };
    expect([data.length, variant.price?.amount, item.dietary[0]]).toEqual([5, 12, "vegan"]);
    // Scrape options official code types on its own (parsers, PII redaction, threat protection, audit), PDF pages and blocks, search categories.
    const parsers: (string | Official.PDFParser | Official.ImageParser)[] = ["pdf", { type: "image" }];
    const entities: Official.RedactPIIEntity[] = ["EMAIL", "PHONE"];
    const redact: Official.RedactPIIOptions = { mode: "fast", entities, replaceStyle: "mask" };
    const threat: Official.ThreatProtectionOptions = { mode: "manual-only", blockedTlds: ["zip"], failurePolicy: "closed" };
    const audit: Official.AuditMetadata = { username: "ada" };
    const confidence: Official.PdfBlockConfidence = { layout: 0.9, ocr: null };
    const block: Official.PdfBlockItem = { id: "b1", type: "text", label: null, bbox: [0, 0, 10, 10], content: "Hi", markdownSpan: [0, 2], readingOrder: 0, source: null, confidence };
    const pages: Official.PdfPage[] = [{ pageNumber: 1, markdown: "Hi" }];
    const blocks: Official.PdfPageBlocks = { pageNumber: 1, width: 612, height: 792, status: "ok", items: [block] };
    const categories: Official.CategoryOption[] = [{ type: "github" }, { type: "research" }, { type: "pdf" }];
    expect([parsers.length, redact.entities?.length, threat.mode, audit.username, pages[0]?.markdown, blocks.items[0]?.confidence.layout, categories.length]).toEqual([2, 2, "manual-only", "ada", "Hi", 0.9, 3]);
    // Agent: the webhook's events, the exchange options and summary, pending approvals narrowed on `kind`.
    const events: Official.AgentWebhookEvent[] = ["started", "action", "completed"];
    const onTerms: Official.AgentOnTermsRequired = "ask";
    const exchangeOptions: Official.AgentExchangeOptions = { enabled: true, toolkits: ["search"], maxCalls: 3, onTermsRequired: onTerms, approve: { approvalId: "ap1", callIds: ["c1"] } };
    const skipped: Official.AgentSkippedProvider = { provider: "acme", name: "Acme", reason: "terms_required", version: "1", termsUrl: "https://acme.test/terms" };
    const gate: Official.AgentTermsGate = { provider: "acme", name: "Acme", version: "1", digest: null, url: "https://acme.test/terms" };
    const action: Official.AgentTermsRequiredAction = {
      type: "accept_terms",
      approvalId: "ap2",
      providers: [{ provider: "acme", name: "Acme", version: "1", digest: null, url: gate.url, show: { provider: "firecrawl", capability: "terms/show", options: { provider: "acme" } }, accept: { provider: "firecrawl", capability: "terms/accept", options: { provider: "acme", version: "1", digest: null, confirmed: true } } }],
    };
    const exchange: Official.AgentExchangeSummary = { enabled: true, paidCalls: 1, creditsUsed: 4, skippedProviders: [skipped], requiresAction: action };
    const call: Official.PendingApprovalCall = { id: "c1", provider: "acme", capability: "lookup", input: { q: "x" }, creditsEstimate: 2 };
    const approvals: Official.PendingApproval[] = [
      { id: "ap1", reason: "paid", resolution: null, kind: "calls", calls: [call] } satisfies Official.PendingCallsApproval,
      { id: "ap2", reason: "terms", resolution: null, kind: "terms", calls: [], terms: [gate] } satisfies Official.PendingTermsApproval,
    ];
    const held = approvals.map((a) => (a.kind === "terms" ? a.terms[0]?.provider : a.calls[0]?.capability));
    const run: Official.AgentThreadRun = { id: "r", turn: 1, mode: "chat", prompt: "hi", status: "succeeded", createdAt: "", finishedAt: null, creditsUsed: 1, message: "ok", pendingApproval: approvals[1], exchange };
    expect([events.length, exchangeOptions.maxCalls, held, run.exchange?.requiresAction?.approvalId]).toEqual([3, 3, ["lookup", "acme"], "ap2"]);
    // Agent trace: every event kind, read off a trace the way official code narrows it.
    const agent: Official.AgentTraceAgentIdentity = { id: "a", role: "orchestrator" satisfies Official.AgentTraceAgentRole, name: "main" };
    const base = { schemaVersion: 1 as const, eventId: "e", runId: "r", occurredAt: "2026-01-01T00:00:00Z", producerSequence: 0, agent };
    const error: Official.AgentTraceError = { code: "internal", source: "tool", retryable: true, message: "boom" };
    const artifact: Official.AgentTraceArtifactChange = { kind: "json", artifactId: "art", snapshotId: "s1", change: "init" };
    const trace: (
      | Official.AgentTraceRunStartedEvent
      | Official.AgentTraceRunCancelRequestedEvent
      | Official.AgentTraceRunFinishedEvent
      | Official.AgentTraceAgentStartedEvent
      | Official.AgentTraceAgentFinishedEvent
      | Official.AgentTraceBrowserSessionStartedEvent
      | Official.AgentTraceBrowserSessionFinishedEvent
      | Official.AgentTraceProgressReportedEvent
      | Official.AgentTraceReasoningSummaryEvent
      | Official.AgentTraceToolCallStartedEvent
      | Official.AgentTraceToolCallFinishedEvent
      | Official.AgentTraceArtifactUpdatedEvent
      | Official.AgentTraceErrorOccurredEvent
    )[] = [
      { ...base, type: "run.started" },
      { ...base, type: "run.cancel_requested", reason: "user" },
      { ...base, type: "agent.started" },
      { ...base, type: "browser.session.started", sessionId: "b" },
      { ...base, type: "progress.reported", phase: "working", message: "reading" },
      { ...base, type: "reasoning.summary", text: "thinking" },
      { ...base, type: "tool_call.started", toolCallId: "t", toolName: "scrape", parameters: { url: SITE } },
      { ...base, type: "tool_call.finished", toolCallId: "t", toolName: "scrape", result: "ok" },
      { ...base, type: "artifact.updated", artifact },
      { ...base, type: "error.occurred", error },
      { ...base, type: "browser.session.finished", sessionId: "b", durationMs: 5 },
      { ...base, type: "agent.finished", outcome: "succeeded", durationMs: 9, error: null },
      { ...base, type: "run.finished", outcome: "failed", error },
    ];
    // Each is one of webdata's trace events (what `getAgentTrace` returns), and a webdata event casts to the official kind.
    const response: Official.AgentTraceResponse = { success: true, events: trace, activeBrowserSessions: [{ id: "b", liveViewUrl: "https://live.acme.test/b", viewport: { width: 1280, height: 720 } } satisfies Official.AgentTraceActiveBrowserSession] };
    const snapshots = response.events.flatMap((e) => (e.type === "artifact.updated" ? [(e as Official.AgentTraceArtifactUpdatedEvent).artifact.snapshotId] : []));
    const outcome = trace.flatMap((e) => (e.type === "run.finished" ? [e.outcome, e.error?.code] : []));
    expect([snapshots, outcome, response.activeBrowserSessions?.[0]?.viewport?.width]).toEqual([["s1"], ["failed", "internal"], 1280]);
    // The tool catalogue (Alexandria) and research shapes, for code that still names them.
    const alexandria: Official.AlexandriaScrapeRequest = { alexandria: { provider: "acme", capability: "lookup" }, requestId: "q1" } satisfies Official.AlexandriaOptions & { alexandria: Official.AlexandriaCall };
    const alexError: Official.AlexandriaScrapeError = { code: "UPSTREAM", message: "down", chargeId: "ch" };
    const results: Official.AlexandriaScrapeResult[] = [{ provider: "acme", capability: "lookup", creditsCost: 1, data: {} }, { error: alexError }];
    const alexData: Official.AlexandriaScrapeData = { scrapeId: "s", requestId: "q1", alexandria: results, creditsCost: 1 };
    const failed = alexData.alexandria.flatMap((r) => (r.error ? [r.error.code] : []));
    const signals: Official.PaperSignals = { structural: 3, semantic: 0.5, articleRank: 0.1, seedOverlap: 1 };
    const scores: Official.GitHubScoreBreakdown = { rrf: 0.2 };
    const repo: Official.GitHubSearchItem = { repo: "acme/x", url: "https://github.com/acme/x", snippet: "x", scores };
    const github: Official.GitHubSearchResponse = { success: true, results: [repo] };
    expect([alexandria.requestId, failed, signals.seedOverlap, github.results[0]?.scores.rrf]).toEqual(["q1", ["UPSTREAM"], 1, 0.2]);
    // An error body's out-of-band step.
    const required: Official.RequiresAction | undefined = parseRequiresAction({ type: "accept_terms", url: "https://acme.test/terms" });
    if (required?.type === "accept_terms") expect(required.url).toBe("https://acme.test/terms");
    else expect.unreachable();
  });

  it("parseRequiresAction keeps type and the string terms, version and url of an object with a string type; anything else is undefined", () => {
    expect(parseRequiresAction({ type: "accept_terms", terms: "data", version: "2", url: "https://acme.test/t", extra: 1 })).toEqual({ type: "accept_terms", terms: "data", version: "2", url: "https://acme.test/t" });
    // Fields of other types are left out (not copied, not coerced); an unknown type is kept.
    const partial = parseRequiresAction({ type: "verify_email", terms: 3, version: null, url: ["x"] });
    expect(partial).toEqual({ type: "verify_email" });
    expect(Object.keys(partial ?? {})).toEqual(["type"]);
    for (const value of [undefined, null, 0, "accept_terms", true, [], ["accept_terms"], {}, { type: 1 }, { terms: "data" }, () => undefined]) expect(parseRequiresAction(value)).toBeUndefined();
    // A new object, not the one given.
    const given = { type: "accept_terms" };
    expect(parseRequiresAction(given)).not.toBe(given);
    // The Node entry's is the same function; the error body of an APIError is where it reads from.
    expect(nodeParseRequiresAction).toBe(parseRequiresAction);
    const error = new APIError({ status: 403, message: "accept the terms", body: { error: "accept the terms", requiresAction: { type: "accept_terms", terms: "acme" } } });
    expect(parseRequiresAction((error.body as { requiresAction?: unknown }).requiresAction)).toEqual({ type: "accept_terms", terms: "acme" });
  });

  it("exports every name the official client exports (read from its declarations with the TypeScript compiler), values as values but Watcher and ResearchClient", () => {
    const require = createRequire(import.meta.url);
    const officialFile = require.resolve("@mendable/firecrawl-js").replace(/index\.c?js$/, "index.d.ts");
    expect(readFileSync(officialFile, "utf8")).toContain("declare class Firecrawl");
    const entries = ["src/firecrawl/index.ts", "src/firecrawl/node.ts"].map((entry) => new URL(`../${entry}`, import.meta.url).pathname);
    // One program for the three files (types: [] keeps @types out; the names do not depend on them).
    const program = ts.createProgram([officialFile, ...entries], { strict: true, skipLibCheck: true, noEmit: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022 });
    const checker = program.getTypeChecker();
    const exportsOf = (file: string): { names: Set<string>; values: Set<string> } => {
      const source = program.getSourceFile(file);
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) throw new Error(`no module at ${file}`);
      const names = new Set<string>();
      const values = new Set<string>();
      for (const symbol of checker.getExportsOfModule(module)) {
        names.add(symbol.name);
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        // `export type { X }` of a class is an alias with no value side: the alias's own declaration says so.
        const typeOnly = symbol.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d) || (ts.isExportSpecifier(d) && d.parent.parent.isTypeOnly)) ?? false;
        if (target.flags & ts.SymbolFlags.Value && !typeOnly) values.add(symbol.name);
      }
      return { names, values };
    };
    const official = exportsOf(officialFile);
    expect(official.names.size).toBeGreaterThanOrEqual(218);
    expect(official.values).toEqual(new Set(["Firecrawl", "FirecrawlAppV1", "FirecrawlClient", "JobTimeoutError", "ResearchClient", "SdkError", "Watcher", "default", "parseRequiresAction"]));
    for (const entry of entries) {
      const ours = exportsOf(entry);
      expect([...official.names].filter((name) => !ours.names.has(name)), entry).toEqual([]);
      // Watcher is the drop-in's watcher type (`firecrawl.watcher(...)` makes one) and ResearchClient an interface (`firecrawl.research`): nothing to `new`.
      expect([...official.values].filter((name) => !ours.values.has(name)).sort(), entry).toEqual(["ResearchClient", "Watcher"]);
    }
  }, 120_000);

  it("never shows the key (inspect, JSON)", () => {
    const a = new PortableFirecrawl({ apiKey: "fc-secret-key-123", apiUrl: "http://127.0.0.1:1" });
    expect(inspect(a)).not.toContain("fc-secret");
    expect(JSON.stringify(a)).not.toContain("fc-secret");
  });
});

describe.each(TRANSPORTS)("Firecrawl over %s", (kind) => {
  describe("getCrawlStatus / getBatchScrapeStatus read every page (PaginationConfig)", () => {
    it("a finished 150-page batch scrape: all 150 documents, each once, no next (WebData: one page of 100)", async () => {
      const s = await open(kind, { manyPages: 150 });
      const a = app(s, kind);
      const id = await finishedBatch(s, a);
      const job = await drive(a.getBatchScrapeStatus(id));
      expect(job.status).toBe("completed");
      expect(job.data).toHaveLength(150);
      expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(150);
      expect(job.next).toBeUndefined();
      expect((await drive(s.client.getBatchScrapeStatus(id))).data).toHaveLength(100);
    });

    it("a crawl read over several pages: every document", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).configure({ defaultPageSize: 2 });
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 7 }));
      fakeJobs(s.fake).finish(id);
      const all = await drive(a.getCrawlStatus(id));
      expect(all.data.length).toBeGreaterThan(2);
      expect(all.data).toHaveLength(all.completed);
      expect((await drive(s.client.getCrawlStatus(id))).data).toHaveLength(2);
    });

    it("autoPaginate: false is the first page with its next", async () => {
      const s = await open(kind, { manyPages: 150 });
      const a = app(s, kind);
      const id = await finishedBatch(s, a);
      const job = await drive(a.getBatchScrapeStatus(id, { autoPaginate: false }));
      expect(job.data).toHaveLength(100);
      expect(job.next).toMatch(/skip=100/);
    });

    it("maxResults and maxPages stop the walk, and next says where to read on", async () => {
      const s = await open(kind, { manyPages: 150 });
      fakeJobs(s.fake).configure({ defaultPageSize: 10 });
      const a = app(s, kind);
      const id = await finishedBatch(s, a);
      const capped = await drive(a.getBatchScrapeStatus(id, { maxResults: 25 }));
      expect(capped.data).toHaveLength(25);
      expect(capped.next).toMatch(/skip=30/);
      const paged = await drive(a.getBatchScrapeStatus(id, { maxPages: 2 }));
      expect(paged.data).toHaveLength(30); // the first page and two more
      expect(paged.next).toMatch(/skip=30/);
    });

    it("a bad PaginationConfig is a ValidationError before anything is sent", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const before = s.fake.requests.length;
      await expect(drive(a.getCrawlStatus("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9", { maxPages: -1 }))).rejects.toBeInstanceOf(ValidationError);
      expect(s.fake.requests.length - before).toBeLessThanOrEqual(1); // the first page may be in flight; nothing follows
    });

  });

  describe("the waiters: seconds, and a failed job is a result", () => {
    it("crawl takes pollInterval and timeout in seconds; past timeout, JobTimeoutError with timeoutSeconds", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
      const a = app(s, kind);
      const err = await drive(a.crawl(SITE, { limit: 3, pollInterval: 1, timeout: 5 }).catch((e: unknown) => e));
      expect(err).toBeInstanceOf(JobTimeoutError);
      expect(err).toMatchObject({ timeoutMs: 5000, timeoutSeconds: 5, jobType: "crawl" });
      // Official code compiles as written: the entry's JobTimeoutError is the same class, with the official fields typed.
      if (!(err instanceof OfficialJobTimeoutError)) throw new Error("not a JobTimeoutError");
      const seconds: number = err.timeoutSeconds;
      expect(seconds).toBe(5);
    });

    it("crawl: a failed crawl is returned with status failed and its error, not thrown", async () => {
      const s = await open(kind);
      fakeJobs(s.fake).failNext({ error: "Crawl failed: the start URL could not be scraped." });
      const a = app(s, kind);
      const job = await drive(a.crawl(SITE, { limit: 3, pollInterval: 1 }));
      expect(job).toMatchObject({ status: "failed" });
      // WebData throws for the same job.
      fakeJobs(s.fake).failNext({});
      await expect(drive(s.client.crawl(SITE, { limit: 3 }))).rejects.toBeInstanceOf(JobFailedError);
    });

    it("batchScrape: timeout is the wait in seconds (not the server's per-page timeout); idempotencyKey is sent as the header", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const key = "5b1b0c0a-7f3e-4b7e-9d0e-3f0c2c7a1b2d";
      const job = await drive(a.batchScrape([`${SITE}/`, `${SITE}/about`], { options: { formats: ["markdown"] }, idempotencyKey: key, pollInterval: 1, timeout: 120 }));
      expect(job.status).toBe("completed");
      expect(job.data).toHaveLength(2);
      const start = s.fake.requests.find((r) => r.method === "POST" && r.path === "/v2/batch/scrape")!;
      expect(start.headers["x-idempotency-key"]).toBe(key);
      expect(JSON.stringify(start.body)).not.toContain("timeout");
    });

    it("extract: a failed job is returned with status failed; timeout (seconds) is never sent to the server", async () => {
      const s = await open(kind);
      fakeTasks(s.fake).configure({ outcome: "failed", error: "No data extracted" });
      const a = app(s, kind);
      const res = await drive(a.extract({ urls: [`${SITE}/products`], prompt: "Products", pollInterval: 1, timeout: 1800 }));
      expect(res).toMatchObject({ status: "failed", error: "No data extracted" });
      const start = s.fake.requests.find((r) => r.method === "POST" && r.path === "/v2/extract")!;
      expect(start.body).not.toHaveProperty("timeout");
      expect(start.body).not.toHaveProperty("pollInterval");
    });

    it("extract and agent: at timeout the last status is returned, as the official client does", async () => {
      const s = await open(kind);
      fakeTasks(s.fake).configure({ pollsToFinish: 1_000 });
      const a = app(s, kind);
      const res = await drive(a.extract({ urls: [`${SITE}/products`], prompt: "Products", pollInterval: 1, timeout: 3 }));
      expect(res.status).toBe("processing");
      const run = await drive(a.agent({ prompt: "Find the widget price", pollInterval: 1, timeout: 3 }));
      expect(run.status).toBe("processing");
    });

    it("pollInterval and pollIntervalMs together are a ValidationError naming both units", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      const err = await drive(a.crawl(SITE, { pollInterval: 2, pollIntervalMs: 2000 }).catch((e: unknown) => e));
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toMatch(/pollInterval \(seconds\) or pollIntervalMs \(milliseconds\)/);
      expect(s.fake.requests).toHaveLength(0);
    });
  });

  describe("the official watcher", () => {
    // Under fake timers, with no WebSocket served: a real handshake would race the virtual clock (see test/official-compat.test.ts).
    const NO_SOCKET = { webSocket: false };
    it("document (the document plus the job id), snapshot (counters and the documents so far), done (the final status and every document)", async () => {
      const s = await open(kind, {}, {}, NO_SOCKET);
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 4 }));
      const w = a.watcher(id, { kind: "crawl", pollInterval: 1 });
      const docs: { id: string; url?: string }[] = [];
      const snapshots: number[] = [];
      let done: { status: string; data: unknown[]; id: string } | undefined;
      w.on("document", (d) => docs.push({ id: d.id, url: d.metadata?.sourceURL }));
      w.on("snapshot", (snap) => snapshots.push(snap.data.length));
      w.on("done", (d) => (done = d));
      await drive(w.start());
      expect(done).toMatchObject({ status: "completed", id });
      expect(done!.data).toHaveLength(docs.length);
      expect(docs.length).toBeGreaterThan(0);
      expect(docs.every((d) => d.id === id)).toBe(true);
      expect(new Set(docs.map((d) => d.url)).size).toBe(docs.length);
      expect(snapshots.length).toBeGreaterThan(0);
    });

    it("done carries a failed job's real status (the official one says completed)", async () => {
      const s = await open(kind, {}, {}, NO_SOCKET);
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 4 }));
      fakeJobs(s.fake).fail(id, "boom");
      let status = "";
      await drive(a.watcher(id, { pollInterval: 1 }).on("done", (d) => (status = d.status)).start());
      expect(status).toBe("failed");
    });

    it("timeout (seconds) ends it with an error event, Watcher timeout; start() resolves", async () => {
      const s = await open(kind, {}, {}, NO_SOCKET);
      fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
      const a = app(s, kind);
      const { id } = await drive(a.startCrawl(SITE, { limit: 4 }));
      const errors: string[] = [];
      // A long stream from the fake sleeps many times: none of its sleeps may leave an abort listener behind.
      const warnings: string[] = [];
      const onWarning = (w: Error) => void warnings.push(w.name);
      process.on("warning", onWarning);
      await drive(a.watcher(id, { pollInterval: 1, timeout: 3 }).on("error", (e) => errors.push(e.error)).start());
      await new Promise((r) => setImmediate(r));
      process.off("warning", onWarning);
      expect(errors).toEqual(["Watcher timeout"]);
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    });

    it("an event name it never emits is a ValidationError at on()", async () => {
      const s = await open(kind);
      const a = app(s, kind);
      expect(() => a.watcher("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9").on("progress" as never, () => undefined)).toThrow(ValidationError);
    });
  });

  describe("the v1 class", () => {
    it("getCreditUsage / getTokenUsage answer { success, data } as the official v1 class does", async () => {
      const s = await open(kind);
      const v1 = appV1(s, kind);
      const credits = await drive(v1.getCreditUsage());
      expect(credits.success).toBe(true);
      expect(typeof credits.data.remaining_credits).toBe("number");
      const tokens = await drive(app(s, kind).v1.getTokenUsage());
      expect(typeof tokens.data.remaining_tokens).toBe("number");
    });

    it("an HTTP error carries statusCode (the official FirecrawlError's field) beside status", async () => {
      const s = await open(kind);
      const v1 = appV1(s, kind);
      const err = await drive(v1.checkCrawlStatus("0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9").then(() => undefined, (e: unknown) => e));
      expect(err).toBeInstanceOf(APIError);
      expect(err).toMatchObject({ status: 404, statusCode: 404 });
    });
  });
});

describe("WebData keeps its own semantics", () => {
  it("the official waiter keys are refused with the fix, and status reads are one page", async () => {
    const s = await open("fetch");
    await expect(drive(s.client.crawl(SITE, { pollInterval: 2 } as never))).rejects.toThrow(/pollIntervalMs/);
    expect(s.client).toBeInstanceOf(WebData);
  });
});
