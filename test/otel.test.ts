/**
 * `webdata/otel`: OpenTelemetry spans of every call, HTTP attempt and waited job, recorded
 * with `@opentelemetry/sdk-trace-base`'s in-memory exporter against the fake service, over both transports;
 * the `onJob` hook of the waiters (`src/jobs/waiters.ts`) that the job spans are made of; and that the root
 * entry's bundle holds nothing of OpenTelemetry.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type ContextManager } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import * as semconv from "@opentelemetry/semantic-conventions/incubating";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, HookError, InternalServerError, JobFailedError } from "../src/index.js";
import { OTEL_ATTRIBUTES, otelHooks, RECENT_JOBS } from "webdata/otel";
import type { JobHookEvent, RequestHookEvent, ResponseHookEvent } from "../src/types.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";
import { v1 as v1Face } from "../src/v1/index.js";
import { team } from "../src/team.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** A context manager over AsyncLocalStorage (what the Node SDK registers), so a caller's active span is seen by the hooks. */
class AlsContextManager implements ContextManager {
  readonly #als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.#als.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#als.disable();
    return this;
  }
}

beforeAll(() => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AlsContextManager());
});
afterAll(() => {
  propagation.disable();
  context.disable();
});

let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  exporter.reset();
  await s?.close();
  s = undefined;
});

const A = OTEL_ATTRIBUTES;
const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const named = (name: string): ReadableSpan[] => spans().filter((x) => x.name === name);
const one = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found, `one span named ${name} among ${spans().map((x) => x.name).join(", ")}`).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan): string => span.spanContext().spanId;

describe("the semantic conventions' names", () => {
  it("are OpenTelemetry's own", () => {
    expect(A.httpRequestMethod).toBe(semconv.ATTR_HTTP_REQUEST_METHOD);
    expect(A.httpResponseStatusCode).toBe(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE);
    expect(A.httpRequestResendCount).toBe(semconv.ATTR_HTTP_REQUEST_RESEND_COUNT);
    expect(A.urlTemplate).toBe(semconv.ATTR_URL_TEMPLATE);
    expect(A.errorType).toBe(semconv.ATTR_ERROR_TYPE);
    expect(A.serverAddress).toBe(semconv.ATTR_SERVER_ADDRESS);
    expect(A.serverPort).toBe(semconv.ATTR_SERVER_PORT);
  });
});

describe.each(TRANSPORTS)("webdata/otel over %s", (kind) => {
  const open = async (clientOptions = {}) => (s = await setup(kind, {}, { hooks: otelHooks({ tracerProvider: provider }), ...clientOptions }));

  it("one call span, one CLIENT span per attempt under it; a retry's attempt has its resend count; each attempt sends its traceparent", async () => {
    await open({ maxRetries: 2 });
    s!.fake.rateLimit({ match: "/v2/scrape", retryAfterSeconds: 0 });
    await s!.client.scrape("https://acme.test/");
    const call = one("webdata scrape");
    const attempts = named("POST /v2/scrape");
    expect(attempts).toHaveLength(2);
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(call.attributes[A.operation]).toBe("scrape");
    expect(typeof call.attributes[A.requestId]).toBe("string");
    const [first, second] = attempts.sort((a, b) => Number(a.attributes[A.httpRequestResendCount] ?? 0) - Number(b.attributes[A.httpRequestResendCount] ?? 0));
    for (const a of attempts) {
      expect(a.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(a)).toBe(idOf(call));
      expect(a.spanContext().traceId).toBe(call.spanContext().traceId);
      expect(a.attributes).toMatchObject({ [A.httpRequestMethod]: "POST", [A.urlTemplate]: "/v2/scrape" });
      // The conventions' required server.address and server.port, of the URL the client sent to.
      const target = new URL(s!.url);
      expect(a.attributes).toMatchObject({ [A.serverAddress]: target.hostname, [A.serverPort]: Number(target.port || (target.protocol === "https:" ? 443 : 80)) });
    }
    expect(first!.attributes).toMatchObject({ [A.httpResponseStatusCode]: 429, [A.errorType]: "429" });
    expect(first!.attributes[A.httpRequestResendCount]).toBeUndefined();
    expect(first!.status.code).toBe(SpanStatusCode.ERROR);
    expect(second!.attributes).toMatchObject({ [A.httpResponseStatusCode]: 200, [A.httpRequestResendCount]: 1 });
    expect(second!.attributes[A.errorType]).toBeUndefined();
    // The server received each attempt's own span as the parent of its work.
    const sent = s!.fake.requests.filter((r) => r.pathname === "/v2/scrape").map((r) => r.headers.traceparent);
    expect(sent).toEqual([first, second].map((a) => `00-${a!.spanContext().traceId}-${idOf(a!)}-01`));
    expect(call.attributes[A.requestId]).toBe(s!.fake.requests.find((r) => r.pathname === "/v2/scrape")?.headers["x-request-id"]);
  });

  it("is a child of the caller's active span", async () => {
    await open();
    const tracer = provider.getTracer("app");
    await tracer.startActiveSpan("app work", async (span) => {
      await s!.client.map("https://acme.test/");
      span.end();
    });
    const app = one("app work");
    const call = one("webdata map");
    expect(parentOf(call)).toBe(idOf(app));
    expect(call.spanContext().traceId).toBe(app.spanContext().traceId);
  });

  it("a failed call: the attempt's status code and error.type, the call's error class; a dropped connection has no status", async () => {
    await open({ maxRetries: 0 });
    s!.fake.failNext(500, { match: "/v2/scrape" });
    await expect(s!.client.scrape("https://acme.test/")).rejects.toBeInstanceOf(InternalServerError);
    const call = one("webdata scrape");
    const attempt = one("POST /v2/scrape");
    expect(parentOf(attempt)).toBe(idOf(call));
    expect(attempt.attributes).toMatchObject({ [A.httpResponseStatusCode]: 500, [A.errorType]: "500" });
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes[A.errorType]).toBe("InternalServerError");
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    exporter.reset();
    s!.fake.dropConnection({ match: "/v2/map" });
    await expect(s!.client.map("https://acme.test/")).rejects.toBeInstanceOf(ConnectionError);
    const dropped = one("POST /v2/map");
    expect(dropped.attributes[A.httpResponseStatusCode]).toBeUndefined();
    expect(dropped.attributes[A.errorType]).toBe("ConnectionError");
    expect(one("webdata map").attributes[A.errorType]).toBe("ConnectionError");
  });

  it("never puts the key, a search query or a body in an attribute, a name or a status", async () => {
    await open();
    const query = "quarterly-merger-plans-zx81";
    const url = "https://acme.test/?token=page-secret-77";
    await s!.client.scrape(url, { formats: ["markdown"] });
    await s!.client.search(query, { limit: 2 });
    s!.fake.failNext(400, { match: "/v2/search", body: { success: false, error: `Bad query: ${query}` } });
    await s!.client.search(query).catch(() => undefined);
    expect(spans().length).toBeGreaterThanOrEqual(6);
    const printed = spans().flatMap((x) => [x.name, String(x.status.message ?? ""), ...Object.entries(x.attributes).flatMap(([k, v]) => [k, String(v)])]);
    for (const secret of [s!.fake.apiKey, query, "page-secret-77", "acme.test", "markdown"]) {
      expect(printed.filter((p) => p.includes(secret)), secret).toEqual([]);
    }
  });

  it("one span per waited job, from start to end, with its id, status, pages and credits; the status reads under it", async () => {
    await open();
    useJobTimers();
    const job = await drive(s!.client.crawl("https://acme.test/", { limit: 3, sitemap: "skip", pollIntervalMs: 500 }));
    const span = one("webdata crawl job");
    expect(span.attributes).toMatchObject({ [A.jobId]: job.id, [A.jobKind]: "crawl", [A.jobStatus]: "completed", [A.jobCompleted]: job.completed, [A.jobTotal]: job.total });
    expect(job.completed).toBe(3);
    if (job.creditsUsed >= 0) expect(span.attributes[A.creditsUsed]).toBe(job.creditsUsed);
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    const reads = named("webdata crawl.status");
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(parentOf(r)).toBe(idOf(span));
    // No span of the caller's active: the start call is the trace's root, the job span its child.
    expect(parentOf(one("webdata crawl.start"))).toBeUndefined();
    expect(parentOf(span)).toBe(idOf(one("webdata crawl.start")));
    expect(named("GET /v2/crawl/{id}").length).toBe(reads.length);
  });

  it("a waited job is one trace without a span of the caller's: crawl(), batchScrape() (its /errors read after the wait too), extract(), agent(), v1 crawlUrl()", async () => {
    await open({ silenceDeprecationWarnings: true, plugins: [team] }); // the team plugin: batchScrape's byUrl reads /errors after the wait
    useJobTimers();
    const traces = () => new Set(spans().map((x) => x.spanContext().traceId));
    const jobs: [string, () => Promise<unknown>][] = [
      ["crawl", () => s!.client.crawl("https://acme.test/", { limit: 3, sitemap: "skip", pollIntervalMs: 500 })],
      ["batchScrape", () => s!.client.batchScrape(["https://acme.test/about", "http://nowhere.invalid/"], { pollIntervalMs: 500 })],
      ["extract", () => s!.client.extract({ urls: ["https://acme.test/about"], prompt: "the title", pollIntervalMs: 500 })],
      ["agent", () => s!.client.agent("find the title", { pollIntervalMs: 500 })],
      ["v1 crawlUrl", () => s!.client.v1.crawlUrl("https://acme.test/", { limit: 2 }, 0.5)],
    ];
    for (const [what, run] of jobs) {
      exporter.reset();
      await drive(run());
      expect(named(`webdata ${what === "batchScrape" ? "batch" : what === "v1 crawlUrl" ? "crawl" : what} job`), what).toHaveLength(1);
      expect([...traces()], `${what}: ${spans().map((x) => x.name).join(", ")}`).toHaveLength(1);
      const roots = spans().filter((x) => parentOf(x) === undefined);
      expect(roots.map((x) => x.name), what).toEqual([expect.stringMatching(/^webdata (v1\.)?[a-zA-Z.]+\.start$/)]);
    }
    expect(s!.fake.requests.some((r) => r.pathname.endsWith("/errors"))).toBe(true); // the batch read its /errors: in the trace above
  });

  it("inside a span of the caller's, the job span is that span's child, as the start call is", async () => {
    await open();
    useJobTimers();
    const tracer = provider.getTracer("app");
    await tracer.startActiveSpan("app work", async (app) => {
      await drive(s!.client.crawl("https://acme.test/", { limit: 2, sitemap: "skip", pollIntervalMs: 500 }));
      app.end();
    });
    const app = one("app work");
    expect(parentOf(one("webdata crawl job"))).toBe(idOf(app));
    expect(parentOf(one("webdata crawl.start"))).toBe(idOf(app));
    expect(new Set(spans().map((x) => x.spanContext().traceId)).size).toBe(1);
  });

  it("a failed job's span has its status and error.type", async () => {
    await open();
    useJobTimers();
    fakeJobs(s!.fake).failNext({ kind: "crawl", error: "Crawl failed: robots.txt blocked" });
    await expect(drive(s!.client.crawl("https://acme.test/", { pollIntervalMs: 500 }))).rejects.toBeInstanceOf(JobFailedError);
    const span = one("webdata crawl job");
    expect(span.attributes).toMatchObject({ [A.jobKind]: "crawl", [A.jobStatus]: "failed", [A.errorType]: "JobFailedError" });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("the jobs remembered", () => {
  it("are the last RECENT_JOBS: a read of an older job, with no span active, is a trace of its own", () => {
    const hooks = otelHooks({ tracerProvider: provider });
    const base = { method: "POST" as const, url: "https://api.test/v2/crawl", route: "/v2/crawl", operation: "crawl.start", attempt: 1, headers: {} };
    const call = (requestId: string, path: string, jobId?: string) => {
      const req: RequestHookEvent = { ...base, path, requestId, setHeader: () => undefined };
      void hooks.onRequest!(req);
      const res: ResponseHookEvent = { ...base, path, requestId, status: 200, durationMs: 1, jobId };
      void hooks.onResponse!(res);
    };
    for (let i = 0; i <= RECENT_JOBS; i++) call(`start-${i}`, "/v2/crawl", `job-${i}`);
    const callSpan = (id: string) => spans().find((x) => x.name.startsWith("webdata ") && x.attributes[A.requestId] === id)!;
    const [oldest, newest] = [callSpan("start-0"), callSpan(`start-${RECENT_JOBS}`)];
    call("read-oldest", "/v2/crawl/job-0");
    call("read-newest", `/v2/crawl/job-${RECENT_JOBS}`);
    expect(parentOf(callSpan("read-newest"))).toBe(idOf(newest));
    expect(parentOf(callSpan("read-oldest"))).toBeUndefined(); // forgotten: job-0 was the oldest of RECENT_JOBS + 1
    expect(oldest).toBeDefined();
  });
});

describe("the global propagator", () => {
  it("no traceparent is sent until one is registered (the README's two lines register W3C Trace Context)", async () => {
    s = await setup("fetch", {}, { hooks: otelHooks({ tracerProvider: provider }) });
    propagation.disable(); // the API's default: no propagator
    try {
      await s.client.scrape("https://acme.test/");
      expect(one("POST /v2/scrape").spanContext().traceId).toMatch(/^[0-9a-f]{32}$/); // recorded all the same
      expect(s.fake.requests.at(-1)!.headers.traceparent).toBeUndefined();
    } finally {
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
    exporter.reset();
    await s.client.scrape("https://acme.test/");
    const attempt = one("POST /v2/scrape");
    expect(s.fake.requests.at(-1)!.headers.traceparent).toBe(`00-${attempt.spanContext().traceId}-${idOf(attempt)}-01`);
  });
});

describe("the global tracer provider", () => {
  it("otelHooks() records through the SDK registered globally, also one registered after it was called; none: nothing, and the call works", async () => {
    const hooks = otelHooks();
    s = await setup("fetch", {}, { hooks });
    await s.client.scrape("https://acme.test/"); // the API's no-op tracer
    expect(spans()).toEqual([]);
    trace.setGlobalTracerProvider(provider);
    try {
      await s.client.scrape("https://acme.test/");
      expect(named("webdata scrape")).toHaveLength(1);
      expect(named("POST /v2/scrape")).toHaveLength(1);
    } finally {
      trace.disable();
    }
  });
});

describe.each(TRANSPORTS)("the onJob hook over %s", (kind) => {
  beforeEach(() => useJobTimers());

  it("one start and one end per waited job (crawl, batch scrape, extract, agent), the client's then the call's", async () => {
    const seen: [string, JobHookEvent][] = [];
    s = await setup(kind, {}, { hooks: { onJob: (e) => void seen.push(["client", e]) } });
    const callHooks = { hooks: { onJob: (e: JobHookEvent) => void seen.push(["call", e]) } };
    const crawl = await drive(s.client.crawl("https://acme.test/", { limit: 2, sitemap: "skip", pollIntervalMs: 500 }, callHooks));
    expect(seen.map(([who, e]) => `${who} ${e.phase}`)).toEqual(["client start", "call start", "client end", "call end"]);
    expect(seen[0]![1]).toEqual({ phase: "start", kind: "crawl", jobId: crawl.id });
    const end = seen[2]![1];
    expect(end).toMatchObject({ phase: "end", kind: "crawl", jobId: crawl.id, status: "completed", completed: crawl.completed, total: crawl.total });
    expect(end.durationMs).toBeGreaterThanOrEqual(0);
    expect(end.error).toBeUndefined();
    if (crawl.creditsUsed >= 0) expect(end.creditsUsed).toBe(crawl.creditsUsed);
    seen.length = 0;
    const batch = await drive(s.client.batchScrape(["https://acme.test/about"], { pollIntervalMs: 500 }));
    const extract = await drive(s.client.extract({ urls: ["https://acme.test/about"], prompt: "the title", pollIntervalMs: 500 }));
    const agent = await drive(s.client.agent("find the title", { pollIntervalMs: 500 }));
    expect(seen.map(([, e]) => [e.phase, e.kind, e.jobId, e.status])).toEqual([
      ["start", "batch", batch.id, undefined],
      ["end", "batch", batch.id, "completed"],
      ["start", "extract", extract.id, undefined],
      ["end", "extract", extract.id, "completed"],
      ["start", "agent", agent.id, undefined],
      ["end", "agent", agent.id, "completed"],
    ]);
  });

  it("the v1 waiters too (crawlUrl, extract), with a call's hooks", async () => {
    const seen: JobHookEvent[] = [];
    s = await setup(kind, {}, { silenceDeprecationWarnings: true });
    const hooks = { hooks: { onJob: (e: JobHookEvent) => void seen.push(e) } };
    const crawl = await drive(s.client.v1.crawlUrl("https://acme.test/", { limit: 2 }, 0.5, undefined, hooks));
    expect(crawl).toMatchObject({ status: "completed" });
    expect(seen.map((e) => [e.phase, e.kind, e.status])).toEqual([
      ["start", "crawl", undefined],
      ["end", "crawl", "completed"],
    ]);
    expect(seen[1]).toMatchObject({ completed: 2, total: 2 });
    seen.length = 0;
    await drive(s.client.v1.extract(["https://acme.test/about"], { prompt: "the title" }, hooks));
    expect(seen.map((e) => [e.phase, e.kind, e.status])).toEqual([
      ["start", "extract", undefined],
      ["end", "extract", "completed"],
    ]);
  });

  it("a failed job ends with its status and error; a hook that throws fails the waiter with HookError", async () => {
    const seen: JobHookEvent[] = [];
    s = await setup(kind, {}, { hooks: { onJob: (e) => void seen.push(e) } });
    fakeJobs(s.fake).failNext({ kind: "crawl", error: "Crawl failed: robots.txt blocked" });
    const err = await drive(s.client.crawl("https://acme.test/", { pollIntervalMs: 500 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(JobFailedError);
    expect(seen.map((e) => e.phase)).toEqual(["start", "end"]);
    expect(seen[1]).toMatchObject({ status: "failed", error: err });
    const thrown = new Error("boom");
    const failing = await drive(s.client.crawl("https://acme.test/", { pollIntervalMs: 500 }, { hooks: { onJob: () => { throw thrown; } } }).catch((e: unknown) => e));
    expect(failing).toBeInstanceOf(HookError);
    expect(failing).toMatchObject({ hook: "onJob", cause: thrown });
  });
});

describe("cost when not imported", () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const bundle = async (source: string) => {
    const out = await build({
      stdin: { contents: source, resolveDir: root, loader: "ts" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      metafile: true,
      alias: { "webdata/otel": `${root}src/otel.ts`, webdata: `${root}src/index.ts` },
      external: ["zod", "zod/*"],
      logLevel: "silent",
    });
    return { text: out.outputFiles[0]!.text, inputs: Object.keys(out.metafile.inputs) };
  };

  it("the root entry's bundle holds nothing of OpenTelemetry; webdata/otel's does", async () => {
    const plain = await bundle('import { WebData } from "webdata"; export const c = new WebData({ apiUrl: "http://127.0.0.1:1" });');
    expect(plain.inputs.filter((f) => /opentelemetry|src\/otel/.test(f))).toEqual([]);
    expect(plain.text).not.toMatch(/opentelemetry/i);
    const traced = await bundle('import { WebData } from "webdata"; import { otelHooks } from "webdata/otel"; export const c = new WebData({ apiUrl: "http://127.0.0.1:1", hooks: otelHooks() });');
    expect(traced.inputs.some((f) => f.includes("@opentelemetry/api"))).toBe(true);
  });
});
