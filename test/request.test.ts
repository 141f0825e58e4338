/**
 * The shared request layer, over both transports: retries and what is never
 * retried, Retry-After in every form, aborts, timeouts, headers, request ids.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  TimeoutError,
  WebDataError,
} from "../src/index.js";
import type { RetryEvent } from "../src/types.js";
import { VERSION } from "../src/core/version.js";
import { InvalidResponseError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { until } from "./jobs-helpers.js";

/** The version the build defines (`__WEBDATA_VERSION__` from package.json), not the source fallback. */
const PKG_VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** A 0-second hint keeps retry tests fast without touching the backoff code. */
const NOW = { "retry-after": "0" };

/** Fakes the client's timers and clock; real I/O still runs (sockets, `setImmediate`). */
function fakeClock(now?: Date): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], ...(now ? { now } : {}) });
}

/** The real `setTimeout`, kept for polling while the client's timers are fake. */
const realSetTimeout = globalThis.setTimeout;

/** A few real milliseconds for anything in flight to arrive. */
const settle = () => new Promise((r) => realSetTimeout(r, 30));

describe.each(TRANSPORTS)("request layer over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await s?.close();
  });

  it("sends auth, JSON, version headers and no idempotency key on plain calls", async () => {
    s = await setup(kind);
    await s.client.scrape("https://acme.test/about");
    const req = s.fake.requests[0]!;
    expect(req.method).toBe("POST");
    expect(s.fake.keyOf(req)).toBe(s.fake.apiKey);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-client"]).toBe(`webdata/${VERSION}`);
    expect(req.headers["user-agent"]).toBe(`webdata/${VERSION}`);
    expect(req.headers["x-idempotency-key"]).toBeUndefined();
    expect(req.body).toEqual({ url: "https://acme.test/about" });
    expect(VERSION).toBe(PKG_VERSION);
  });

  it("merges client and per-call headers", async () => {
    s = await setup(kind, {}, { headers: { "X-Team": "a" } });
    await s.client.getCreditUsage({ headers: { "x-trace": "t1" } });
    expect(s.fake.requests[0]!.headers["x-team"]).toBe("a");
    expect(s.fake.requests[0]!.headers["x-trace"]).toBe("t1");
  });

  for (const status of [408, 429, 500, 502, 503, 504]) {
    it(`retries ${status} and then succeeds`, async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team", status, headers: NOW, times: 2 });
      const usage = await s.client.getCreditUsage();
      expect(usage.planCredits).toBe(100_000);
      expect(s.fake.requests).toHaveLength(3);
    });
  }

  for (const [status, Cls] of [
    [400, BadRequestError],
    [401, AuthenticationError],
    [402, PaymentRequiredError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
  ] as const) {
    it(`does not retry ${status}`, async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team", status, headers: NOW, body: { success: false, error: `server says ${status}` }, times: 5 });
      const err = await s.client.getCreditUsage().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Cls);
      expect((err as APIError).status).toBe(status);
      expect((err as APIError).serverMessage).toBe(`server says ${status}`);
      expect(s.fake.requests).toHaveLength(1);
    });
  }

  it("gives up after maxRetries and throws the last error", async () => {
    s = await setup(kind, {}, { maxRetries: 1 });
    s.fake.inject({ match: "/v2/team", status: 503, headers: NOW, times: 5 });
    const err = await s.client.getCreditUsage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(s.fake.requests).toHaveLength(2);
  });

  it("honours a per-call maxRetries of 0", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", status: 503, headers: NOW, times: 5 });
    await expect(s.client.getCreditUsage({ maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(s.fake.requests).toHaveLength(1);
  });

  it("retries a dropped connection", async () => {
    fakeClock();
    const events: RetryEvent[] = [];
    s = await setup(kind, {}, { onRetry: (e) => void events.push(e) });
    s.fake.inject({ match: "/v2/team", drop: true });
    s.fake.inject({ match: "/v2/team", status: 200, body: { success: true, data: { remainingCredits: 7, planCredits: 9 } } });
    const p = s.client.getCreditUsage({ maxRetries: 1 });
    await until(() => events.length === 1);
    expect(events[0]!.error).toBeInstanceOf(ConnectionError);
    await vi.advanceTimersByTimeAsync(1000);
    const usage = await p;
    expect(usage.remainingCredits).toBe(7);
    expect(s.fake.requests).toHaveLength(2);
  });

  it("surfaces a dropped connection as ConnectionError when retries run out", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", drop: true, times: 5 });
    const err = await s.client.getCreditUsage({ maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toBeInstanceOf(WebDataError);
  });

  it("waits as the 429 body text says (retry after Ns) when no header is sent", async () => {
    s = await setup(kind);
    s.fake.rateLimit({ retryAfterSeconds: 0 });
    const usage = await s.client.getTokenUsage();
    expect(usage.planTokens).toBe(1_500_000);
    expect(s.fake.requests).toHaveLength(2);
  });

  for (const [header, label] of [
    ["none", "the 429 body text (retry after Ns)"],
    ["seconds", "Retry-After in seconds"],
    ["date", "Retry-After as an HTTP date"],
    ["ms", "retry-after-ms"],
  ] as const) {
    it(`waits as ${label} says, not by backoff (fake clock)`, async () => {
      fakeClock(new Date("2026-01-01T00:00:00Z"));
      const events: RetryEvent[] = [];
      s = await setup(kind, {}, { onRetry: (e) => void events.push(e) });
      // With a header, the body states no wait: only the header can tell the client to wait 3 s.
      s.fake.rateLimit({ retryAfterSeconds: 3, header, waitInBody: header === "none" });
      const p = s.client.getTokenUsage();
      await until(() => events.length === 1);
      expect(events[0]).toMatchObject({ endpoint: "GET /v2/team/token-usage", attempt: 1, retriesLeft: 1, serverWaitMs: 3000 });
      expect(events[0]!.error).toBeInstanceOf(RateLimitError);
      const said = (events[0]!.error as RateLimitError).serverMessage;
      if (header === "none") expect(said).toMatch(/retry after 3s/);
      else expect(said).not.toMatch(/retry after/i); // only the header says how long
      // Backoff would have retried within 1 s; the server asked for 3 s.
      await vi.advanceTimersByTimeAsync(2999);
      await settle();
      expect(s.fake.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect((await p).planTokens).toBe(1_500_000);
      expect(s.fake.requests).toHaveLength(2);
    });
  }

  it("backs off 0.5-1 s, then 1-2 s, when the server gives no wait (fake clock)", async () => {
    fakeClock();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const events: RetryEvent[] = [];
    s = await setup(kind, {}, { onRetry: (e) => void events.push(e) });
    s.fake.inject({ match: "/v2/team", status: 503, times: 2 });
    const p = s.client.getCreditUsage();
    await until(() => events.length === 1);
    expect(events[0]).toMatchObject({ attempt: 1, serverWaitMs: undefined });
    await vi.advanceTimersByTimeAsync(749);
    await settle();
    expect(s.fake.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => events.length === 2);
    await vi.advanceTimersByTimeAsync(1499);
    await settle();
    expect(s.fake.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect((await p).planCredits).toBe(100_000);
    expect(s.fake.requests).toHaveLength(3);
  });

  it("counts every failure against one maxRetries budget, server waits and backoffs alike", async () => {
    fakeClock();
    const events: RetryEvent[] = [];
    s = await setup(kind, {}, { maxRetries: 3, onRetry: (e) => void events.push(e) });
    s.fake.rateLimit({ retryAfterSeconds: 1, header: "ms", match: "/v2/team", waitInBody: false });
    s.fake.inject({ match: "/v2/team", status: 503 });
    s.fake.rateLimit({ retryAfterSeconds: 1, header: "seconds", match: "/v2/team", waitInBody: false });
    s.fake.inject({ match: "/v2/team", status: 502, times: 5 });
    const p = s.client.getCreditUsage().catch((e: unknown) => e);
    for (let i = 1; i <= 3; i++) {
      await until(() => events.length >= i);
      await vi.advanceTimersByTimeAsync(2000);
    }
    const err = await p;
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as APIError).status).toBe(502);
    expect(s.fake.requests).toHaveLength(4);
    expect(events.map((e) => [e.attempt, e.retriesLeft, e.serverWaitMs])).toEqual([
      [1, 2, 1000],
      [2, 1, undefined],
      [3, 0, 1000],
    ]);
  });

  it("fails at once when Retry-After exceeds maxRetryAfterMs, carrying the hint", async () => {
    s = await setup(kind, {}, { maxRetryAfterMs: 1000 });
    s.fake.rateLimit({ retryAfterSeconds: 30, header: "seconds", waitInBody: false });
    const err = await s.client.getTokenUsage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(30_000);
    expect(s.fake.requests).toHaveLength(1);
  });

  it("aborts during a request", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", delayMs: 10_000 });
    const ac = new AbortController();
    const p = s.client.getCreditUsage({ signal: ac.signal });
    setTimeout(() => ac.abort(), 30);
    await expect(p).rejects.toBeInstanceOf(AbortError);
    expect(s.fake.requests).toHaveLength(1);
  });

  for (const hint of [true, false]) {
    it(`aborts during ${hint ? "a server-directed wait" : "a backoff wait"} at once, without another attempt`, async () => {
      fakeClock();
      const events: RetryEvent[] = [];
      s = await setup(kind, {}, { onRetry: (e) => void events.push(e) });
      if (hint) s.fake.rateLimit({ retryAfterSeconds: 50, header: "seconds", match: "/v2/team", waitInBody: false });
      else s.fake.inject({ match: "/v2/team", status: 503 });
      const ac = new AbortController();
      const p = s.client.getCreditUsage({ signal: ac.signal }).catch((e: unknown) => e);
      await until(() => events.length === 1);
      ac.abort(new Error("user gave up"));
      const err = await p;
      expect(err).toBeInstanceOf(AbortError);
      expect((err as AbortError).cause).toMatchObject({ message: "user gave up" });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(s.fake.requests).toHaveLength(1);
    });
  }

  it("never retries a 409, even with a Retry-After", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", status: 409, headers: { "retry-after": "0" }, body: { success: false, error: "Conflict" }, times: 3 });
    await expect(s.client.getCreditUsage({ maxRetries: 5 })).rejects.toBeInstanceOf(ConflictError);
    expect(s.fake.requests).toHaveLength(1);
  });

  it("rejects at once with an already-aborted signal, sending nothing", async () => {
    s = await setup(kind);
    await expect(s.client.getCreditUsage({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("times out an attempt and retries it", async () => {
    fakeClock();
    const events: RetryEvent[] = [];
    s = await setup(kind, {}, { onRetry: (e) => void events.push(e) });
    vi.spyOn(Math, "random").mockReturnValue(0);
    s.fake.inject({ match: "/v2/team", delayMs: 5_000 });
    const p = s.client.getCreditUsage({ timeoutMs: 50, maxRetries: 1 });
    await until(() => s.fake.requests.length === 1);
    await vi.advanceTimersByTimeAsync(50);
    await until(() => events.length === 1);
    expect(events[0]!.error).toBeInstanceOf(TimeoutError);
    // Exactly the 500 ms backoff: any further and the second attempt's own 50 ms timer would fire before its answer.
    await vi.advanceTimersByTimeAsync(500);
    const usage = await p;
    expect(usage.planCredits).toBe(100_000);
    expect(s.fake.requests).toHaveLength(2);
  });

  it("throws TimeoutError when every attempt times out", async () => {
    s = await setup(kind, {}, { timeoutMs: 50, maxRetries: 0 });
    s.fake.inject({ match: "/v2/team", delayMs: 5_000 });
    const err = await s.client.getCreditUsage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).timeoutMs).toBe(50);
  });

  it("maps a 408 to RequestTimeoutError with the server code", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/scrape", status: 408, times: 3, headers: NOW, body: { success: false, code: "SCRAPE_TIMEOUT", error: "Scrape timed out" } });
    const err = await s.client.scrape("https://acme.test/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as APIError).code).toBe("SCRAPE_TIMEOUT");
  });

  it("captures request ids on results and errors", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", status: 200, headers: { "x-request-id": "req-123" }, body: { success: true, data: { remainingCredits: 1, planCredits: 2 } } });
    const { data, response } = await s.client.getCreditUsage().withResponse();
    expect(data.remainingCredits).toBe(1);
    // The id the SDK sent is the request id (every request carries one); the server's own, when it differs, is kept beside it.
    const sent = s.fake.requests[0]!.headers["x-request-id"];
    expect(sent).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(response.requestId).toBe(sent);
    expect(response.serverRequestId).toBe("req-123");
    expect((data as { _requestId?: string })._requestId).toBe(sent);
    expect(Object.keys(data)).not.toContain("_requestId");
    expect(response.status).toBe(200);
    s.fake.inject({ match: "/v2/team", status: 404, headers: { "x-request-id": "req-404" }, body: { success: false, error: "nope" } });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err.requestId).toBe(s.fake.requests[1]!.headers["x-request-id"]);
    expect(err.requestId).not.toBe(sent);
    expect(err.serverRequestId).toBe("req-404");
  });

  it("turns a non-JSON error page into an APIError with the status text", async () => {
    s = await setup(kind);
    const err = (await s.client.http.request({ op: "test", method: "GET", path: "/v2/does-not-exist" }).catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.serverMessage).toBe("Not Found");
    expect(typeof err.body).toBe("string");
  });

  it("throws a typed error for a 200 whose JSON body is malformed, keeping the text", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", badJson: true });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.status).toBe(200);
    expect(err.code).toBe("INVALID_RESPONSE_JSON");
    expect(err.bodyExcerpt).toBe('{"success": tru');
    expect(s.fake.requests).toHaveLength(1);
  });
});
