/**
 * Lifecycle hooks, over both transports: `hooks` on the client and per call, in
 * the one request path. Their order and fields, the headers redacted (never the key), `setHeader`
 * reaching the server, a throwing hook failing the call with `HookError` and nothing sent after it,
 * and the old `onRetry` option, which is the `onRetry` hook under its old name.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HookError, InternalServerError, WebData, type Hooks } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import type { ErrorHookEvent, JobHookEvent, RequestHookEvent, ResponseHookEvent, RetryHookEvent, RetryEvent } from "../src/types.js";
import { Firecrawl as PortableFirecrawl, FirecrawlAppV1 as PortableFirecrawlAppV1 } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl, FirecrawlAppV1 as NodeFirecrawlAppV1 } from "../src/firecrawl/node.js";
import { WebDataV1 as PortableWebDataV1 } from "../src/v1/index.js";
import { WebDataV1 as NodeWebDataV1 } from "../src/v1/node.js";
import { createTools } from "../src/ai/index.js";
import { verbose } from "../src/cli/verbose.js";
import { setup, TRANSPORTS, type Setup, type TransportKind } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";
import { v1 as v1Face } from "../src/v1/index.js";

/** A 0-second hint keeps retry tests fast without touching the backoff code. */
const NOW = { "retry-after": "0" };

type Seen = { hook: string; event: RequestHookEvent | ResponseHookEvent | RetryHookEvent | ErrorHookEvent };

/** Hooks that record every event, tagged with `who`. */
function recorder(seen: Seen[], who = ""): Hooks {
  return {
    onRequest: (event) => void seen.push({ hook: `${who}onRequest`, event }),
    onResponse: (event) => void seen.push({ hook: `${who}onResponse`, event }),
    onRetry: (event) => void seen.push({ hook: `${who}onRetry`, event }),
    onError: (event) => void seen.push({ hook: `${who}onError`, event }),
  };
}

describe.each(TRANSPORTS)("lifecycle hooks over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    await s?.close();
  });

  it("onRequest then onResponse, with method, path, operation, attempt, request id, status, duration and creditsUsed; client hooks first", async () => {
    const seen: Seen[] = [];
    s = await setup(kind, {}, { hooks: recorder(seen, "client.") });
    await s.client.scrape("https://acme.test/about", {}, { hooks: recorder(seen, "call.") });
    expect(seen.map((x) => x.hook)).toEqual(["client.onRequest", "call.onRequest", "client.onResponse", "call.onResponse"]);
    const sent = s.fake.requests[0]!.headers["x-request-id"];
    const req = seen[0]!.event as RequestHookEvent;
    expect(req).toMatchObject({ method: "POST", path: "/v2/scrape", url: `${s.url}/v2/scrape`, route: "/v2/scrape", operation: "scrape", attempt: 1, requestId: sent });
    const res = seen[2]!.event as ResponseHookEvent;
    expect(res).toMatchObject({ method: "POST", path: "/v2/scrape", operation: "scrape", attempt: 1, requestId: sent, status: 200 });
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(res.creditsUsed).toBe(1);
    expect(res.serverRequestId).toBeUndefined();
  });

  it("hooks never see the key: authorization and credential headers are redacted in every event", async () => {
    const seen: Seen[] = [];
    s = await setup(kind, {}, { hooks: recorder(seen), headers: { "x-gateway-token": "gateway-secret-1234" } });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW, times: 2 });
    await s.client.scrape("https://acme.test/about", {}, { maxRetries: 1 }).catch(() => undefined);
    expect(seen.map((x) => x.hook)).toEqual(["onRequest", "onRetry", "onRequest", "onError"]);
    for (const { event } of seen) {
      expect(event.headers.authorization).toBe("[redacted]");
      expect(event.headers["x-gateway-token"]).toBe("[redacted]");
      expect(event.headers["content-type"]).toBe("application/json");
      expect(JSON.stringify(event)).not.toContain(s.fake.apiKey);
      expect(JSON.stringify(event)).not.toContain("gateway-secret-1234");
    }
  });

  it("setHeader adds a header the server receives, on that attempt", async () => {
    s = await setup(kind, {}, { hooks: { onRequest: (e) => e.setHeader("traceparent", `00-${"1".repeat(32)}-${"2".repeat(16)}-0${e.attempt}`) } });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW });
    await s.client.scrape("https://acme.test/about");
    expect(s.fake.requests.map((r) => r.headers.traceparent)).toEqual([`00-${"1".repeat(32)}-${"2".repeat(16)}-01`, `00-${"1".repeat(32)}-${"2".repeat(16)}-02`]);
  });

  it("setHeader refuses authorization and x-request-id, and a bad value: HookError, nothing sent", async () => {
    s = await setup(kind);
    for (const [name, value] of [["Authorization", "Bearer other"], ["x-request-id", "mine"], ["x-ok", "line\nbreak"]] as const) {
      const err = await s.client.scrape("https://acme.test/about", {}, { hooks: { onRequest: (e) => e.setHeader(name, value) } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HookError);
      expect((err as HookError).hook).toBe("onRequest");
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("a throwing onRequest fails the call with HookError naming it, its cause the thrown value; the server saw nothing; onError is told", async () => {
    const boom = new Error("boom");
    const errors: ErrorHookEvent[] = [];
    s = await setup(kind, {}, { hooks: { onError: (e) => void errors.push(e) } });
    const err = await s.client.scrape("https://acme.test/about", {}, { hooks: { onRequest: () => Promise.reject(boom) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookError);
    expect(err).toMatchObject({ hook: "onRequest", cause: boom });
    expect((err as HookError).message).toContain("onRequest");
    expect((err as HookError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.fake.requests).toHaveLength(0);
    expect(errors.map((e) => e.error)).toEqual([err]);
  });

  it("a throwing onRetry stops the retries: HookError, no second attempt", async () => {
    s = await setup(kind);
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW });
    const err = await s.client.scrape("https://acme.test/about", {}, { hooks: { onRetry: () => { throw new Error("no retry"); } } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "HookError", hook: "onRetry" });
    expect(s.fake.requests).toHaveLength(1);
  });

  it("a throwing onResponse fails the call with HookError (not retried)", async () => {
    s = await setup(kind);
    const err = await s.client.scrape("https://acme.test/about", {}, { hooks: { onResponse: () => { throw new Error("bad"); } } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "HookError", hook: "onResponse" });
    expect(s.fake.requests).toHaveLength(1);
  });

  it("onRetry and onError: the attempt, the error, its status, the server's wait; the old onRetry option still called", async () => {
    const seen: Seen[] = [];
    const old: RetryEvent[] = [];
    s = await setup(kind, {}, { hooks: recorder(seen), onRetry: (e) => void old.push(e) });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW, times: 3 });
    const err = await s.client.scrape("https://acme.test/about", {}, { maxRetries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(seen.map((x) => x.hook)).toEqual(["onRequest", "onRetry", "onRequest", "onRetry", "onRequest", "onError"]);
    const retry = seen[1]!.event as RetryHookEvent;
    expect(retry).toMatchObject({ attempt: 1, status: 503, delayMs: 0, operation: "scrape" });
    expect(retry.error).toBeInstanceOf(InternalServerError);
    const final = seen[5]!.event as ErrorHookEvent;
    expect(final).toMatchObject({ attempt: 3, status: 503, error: err });
    expect(old.map((e) => e.attempt)).toEqual([1, 2]);
    const ids = new Set(seen.map((x) => x.event.requestId));
    expect(ids.size).toBe(1);
  });

  it("the onRetry option is the onRetry hook under its old name: run after the client's hooks and before the call's, its event the old shape", async () => {
    const order: string[] = [];
    const hookEvents: RetryHookEvent[] = [];
    const optionEvents: RetryEvent[] = [];
    const hooks: Hooks = { onRetry: (e) => void (order.push("hooks.onRetry"), hookEvents.push(e)) };
    s = await setup(kind, {}, { hooks, onRetry: (e) => void (order.push("onRetry option"), optionEvents.push(e)) });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW, times: 1 });
    await s.client.scrape("https://acme.test/about", {}, { maxRetries: 2, hooks: { onRetry: () => void order.push("call's onRetry") } });
    expect(order).toEqual(["hooks.onRetry", "onRetry option", "call's onRetry"]);
    expect(optionEvents).toHaveLength(1);
    expect(Object.keys(optionEvents[0]!).sort()).toEqual(["attempt", "endpoint", "error", "retriesLeft", "serverWaitMs"]);
    expect(optionEvents[0]).toMatchObject({ endpoint: "POST /v2/scrape", attempt: 1, retriesLeft: 1, serverWaitMs: 0 });
    expect(optionEvents[0]!.error).toBeInstanceOf(InternalServerError);
    expect(hookEvents[0]).toMatchObject({ attempt: 1, retriesLeft: 1, delayMs: 0, status: 503 });
    expect(hookEvents[0]!.error).toBe(optionEvents[0]!.error);
  });

  it("a throwing onRetry option stops the retries as the hook does: HookError naming onRetry, no second attempt", async () => {
    const cause = new Error("no retry");
    s = await setup(kind, {}, { onRetry: () => { throw cause; } });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW });
    const err = await s.client.scrape("https://acme.test/about").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookError);
    expect(err).toMatchObject({ hook: "onRetry", cause });
    expect(s.fake.requests).toHaveLength(1);
  });

  it("a promise the onRetry option returns is awaited before the retry is sent, as a hook's is", async () => {
    let release: (() => void) | undefined;
    s = await setup(kind, {}, { onRetry: () => new Promise<void>((resolve) => (release = resolve)) });
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW });
    const call = s.client.scrape("https://acme.test/about");
    await vi.waitFor(() => expect(release).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.fake.requests).toHaveLength(1);
    release!();
    await call;
    expect(s.fake.requests).toHaveLength(2);
  });

  it("job calls are named: crawl.start, crawl.status, crawl.cancel", async () => {
    const ops: string[] = [];
    s = await setup(kind, {}, { hooks: { onRequest: (e) => void ops.push(`${e.method} ${e.operation} ${e.path}`) } });
    const { id } = await s.client.startCrawl("https://acme.test/", { limit: 1 });
    await s.client.getCrawlStatus(id);
    await s.client.cancelCrawl(id).catch(() => undefined);
    expect(ops).toEqual([`POST crawl.start /v2/crawl`, `GET crawl.status /v2/crawl/${id}`, `DELETE crawl.cancel /v2/crawl/${id}`]);
  });

  it("hooks that are not functions are a ValidationError, nothing sent", async () => {
    s = await setup(kind);
    const err = await s.client.scrape("https://acme.test/about", {}, { hooks: { onRequest: "nope" as never } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "ValidationError" });
    expect(String((err as Error).message)).toContain("hooks.onRequest");
    expect(s.fake.requests).toHaveLength(0);
  });
});

/** Client options of `kind` against `s` (the portable client with the fake as `fetch`, or Node's over loopback), plus `extra`. */
function over<T extends object>(s: Setup, kind: TransportKind, extra: T): T & { apiKey: string; apiUrl: string; logLevel: "off" } {
  return { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, ...(kind === "fetch" ? { fetch: s.fake.fetch } : {}), ...extra };
}

describe.each(TRANSPORTS)("every face goes through the hooks, over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    await s?.close();
  });

  it("client.v1 and WebDataV1: the client's hooks see the v1 calls (operation v1.*)", async () => {
    s = await setup(kind);
    const ops: string[] = [];
    const hooks: Hooks = { onRequest: (e) => void ops.push(e.operation), onResponse: (e) => void ops.push(`${e.operation} ${e.status}`) };
    const client = kind === "fetch" ? new WebData(over(s, kind, { plugins: [v1Face], hooks, silenceDeprecationWarnings: true })) : new NodeWebData(over(s, kind, { plugins: [v1Face], hooks, silenceDeprecationWarnings: true }));
    await client.v1.scrapeUrl("https://acme.test/about");
    const V1 = kind === "fetch" ? PortableWebDataV1 : NodeWebDataV1;
    await new V1(over(s, kind, { hooks, silenceDeprecationWarnings: true })).mapUrl("https://acme.test/");
    expect(ops).toEqual(["v1.scrape", "v1.scrape 200", "v1.map", "v1.map 200"]);
  });

  it("the drop-in (webdata/firecrawl, Firecrawl and FirecrawlAppV1): its constructor passes hooks through; a call's own hooks too", async () => {
    s = await setup(kind);
    const seen: string[] = [];
    const hooks: Hooks = { onRequest: (e) => void seen.push(`client ${e.operation}`) };
    const app = kind === "fetch" ? new PortableFirecrawl(over(s, kind, { hooks })) : new NodeFirecrawl(over(s, kind, { hooks }));
    await app.scrape("https://acme.test/about");
    await app.map("https://acme.test/", undefined, { hooks: { onRequest: (e: RequestHookEvent) => void seen.push(`call ${e.operation}`) } });
    const V1 = kind === "fetch" ? PortableFirecrawlAppV1 : NodeFirecrawlAppV1;
    await new V1(over(s, kind, { hooks })).scrapeUrl("https://acme.test/about");
    expect(seen.slice(0, 2)).toEqual(["client scrape", "client map"]);
    expect(seen).toContain("call map");
    expect(seen.at(-1)).toBe("client v1.scrape");
    expect(s.fake.requests.every((r) => typeof r.headers["x-request-id"] === "string")).toBe(true);
  });

  it("agent tools (webdata/ai): a tool call runs the client's hooks", async () => {
    s = await setup(kind);
    const ops: string[] = [];
    const hooks: Hooks = { onRequest: (e) => void ops.push(e.operation) };
    const client = kind === "fetch" ? new WebData(over(s, kind, { plugins: [v1Face], hooks })) : new NodeWebData(over(s, kind, { plugins: [v1Face], hooks }));
    const tools = createTools(client);
    await tools.call("scrape", { url: "https://acme.test/about" });
    await tools.call("map", { url: "https://acme.test/" });
    expect(ops).toEqual(["scrape", "map"]);
  });

  it("the CLI's --verbose lines take each attempt's duration from the hooks (without them: no duration)", async () => {
    s = await setup(kind);
    const lines: string[] = [];
    const v = verbose((t) => lines.push(t));
    const make = (opts: object) => (kind === "fetch" ? new WebData(over(s, kind, { plugins: [v1Face], ...opts, logLevel: "debug" as const })) : new NodeWebData(over(s, kind, { plugins: [v1Face], ...opts, logLevel: "debug" as const })));
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW });
    await make(v).scrape("https://acme.test/about");
    // Each line with the call's request id, the one x-request-id its attempts sent.
    const id = s.fake.requests[0]!.headers["x-request-id"]!;
    expect(lines).toContainEqual(`webdata debug: -> POST /v2/scrape (request id ${id})\n`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^webdata info: Retrying POST /v2/scrape .*\\(the failed attempt ran in \\d+ ms, request id ${id}\\) \\{"attempt":1\\}\\n$`)));
    expect(lines).toContainEqual(`webdata debug: -> POST /v2/scrape (attempt 2) (request id ${id})\n`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^webdata debug: <- POST /v2/scrape 200 in \\d+ ms \\(request id ${id}\\)\\n$`)));
    expect(lines.join("")).not.toContain(s.fake.apiKey);
    lines.length = 0;
    await make({ logger: v.logger }).scrape("https://acme.test/about");
    expect(lines).toContainEqual("webdata debug: <- POST /v2/scrape 200\n");
  });
});

describe.each(TRANSPORTS)("what a hook returns, over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    vi.useRealTimers();
    await s?.close();
  });

  it("a value that is not a promise is ignored: hooks written as expressions (events.push(e), a && b) run and the call succeeds", async () => {
    const responses: ResponseHookEvent[] = [];
    const jobs: JobHookEvent[] = [];
    const ends: string[] = [];
    // Each returns a value: a number, a Map, false or undefined, an object with a `then` that is not a function.
    s = await setup(kind, {}, { hooks: { onResponse: (e) => responses.push(e), onJob: (e) => e.phase === "end" && ends.push(`${e.kind} ${e.status}`) } });
    useJobTimers();
    const job = await drive(s.client.crawl("https://acme.test/", { limit: 2, sitemap: "skip", pollIntervalMs: 500 }, { hooks: { onJob: (e) => new Map([[e.jobId, jobs.push(e)]]), onRequest: () => ({ then: 1 }) } }));
    expect(job.status).toBe("completed");
    expect(responses.map((e) => e.operation)).toContain("crawl.start");
    expect(responses.map((e) => e.operation)).toContain("crawl.status");
    expect(jobs.map((e) => e.phase)).toEqual(["start", "end"]);
    expect(ends).toEqual(["crawl completed"]);
    // A job start's onResponse names the job it started (the id its onJob events carry); other calls name none.
    expect(responses.filter((e) => e.jobId !== undefined).map((e) => [e.operation, e.jobId])).toEqual([["crawl.start", job.id]]);
    expect(jobs[0]!.jobId).toBe(job.id);
  });

  it("a returned promise is awaited: the call goes on only once it resolves, and one that rejects fails the call with HookError, its cause the reason", async () => {
    s = await setup(kind);
    const order: string[] = [];
    const slow = (what: string) => new Promise<number>((resolve) => setImmediate(() => (order.push(what), resolve(1))));
    await s.client.scrape("https://acme.test/about", {}, { hooks: { onRequest: () => slow("onRequest"), onResponse: () => slow("onResponse") } }).then(() => order.push("result"));
    expect(order).toEqual(["onRequest", "onResponse", "result"]);
    const reason = new Error("metrics backend down");
    const err = await s.client.scrape("https://acme.test/about", {}, { hooks: { onResponse: () => Promise.reject(reason) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookError);
    expect(err).toMatchObject({ hook: "onResponse", cause: reason });
    expect(s.fake.requests.filter((r) => r.pathname === "/v2/scrape")).toHaveLength(2); // not retried
  });

  it("an onJob hook's rejected promise fails the waiter with HookError (onJob), its cause the reason", async () => {
    s = await setup(kind);
    useJobTimers();
    const reason = new Error("job log unreachable");
    const err = await drive(s.client.crawl("https://acme.test/", { limit: 2, sitemap: "skip", pollIntervalMs: 500 }, { hooks: { onJob: async (e) => (e.phase === "start" ? Promise.reject(reason) : 0) } }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(HookError);
    expect(err).toMatchObject({ hook: "onJob", cause: reason });
  });
});

describe("README: lifecycle hooks", () => {
  it("every line of the README's hooks snippet is in test/hooks-readme.test-d.ts, which compiles it under strict TypeScript", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### Observability"), readme.indexOf("### Credits and budgets"));
    const block = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes("onJob"));
    expect(block).toBeDefined();
    const typeTest = readFileSync(new URL("./hooks-readme.test-d.ts", import.meta.url), "utf8");
    for (const line of block!.trim().split("\n")) expect(typeTest).toContain(line.trim());
  });
});
