/**
 * The shared request layer, over both transports: retries and what is never
 * retried, Retry-After in every form, aborts, timeouts, headers, request ids.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
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
  VERSION,
  WebDataError,
} from "../src/index.js";
import { InvalidResponseError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

/** The version the build defines (`__WEBDATA_VERSION__` from package.json), not the source fallback. */
const PKG_VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** A 0-second hint keeps retry tests fast without touching the backoff code. */
const NOW = { "retry-after": "0" };

describe.each(TRANSPORTS)("request layer over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

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
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", drop: true });
    s.fake.inject({ match: "/v2/team", status: 200, body: { success: true, data: { remainingCredits: 7, planCredits: 9 } } });
    const usage = await s.client.getCreditUsage({ maxRetries: 1 });
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
    it(`waits as ${label} says, not by backoff`, async () => {
      const waits: number[] = [];
      const logger = { debug: () => undefined, warn: () => undefined, error: () => undefined, info: (m: string) => void waits.push(Number(/ in (\d+) ms/.exec(m)?.[1])) };
      s = await setup(kind, {}, { logger, logLevel: "info" });
      // An HTTP date has 1 s resolution: ask for 2 s so the wait is over 1 s whatever the sub-second clock.
      s.fake.rateLimit({ retryAfterSeconds: header === "date" ? 2 : 1, header });
      await s.client.getTokenUsage();
      expect(s.fake.requests).toHaveLength(2);
      expect(waits).toHaveLength(1);
      // Backoff would wait 250..500 ms.
      if (header === "date") expect(waits[0]).toBeGreaterThan(1000);
      else expect(waits[0]).toBe(1000);
    });
  }

  it("fails at once when Retry-After exceeds maxRetryAfterMs, carrying the hint", async () => {
    s = await setup(kind, {}, { maxRetryAfterMs: 1000 });
    s.fake.rateLimit({ retryAfterSeconds: 30, header: "seconds" });
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

  it("aborts during a backoff sleep without another attempt", async () => {
    s = await setup(kind);
    s.fake.rateLimit({ retryAfterSeconds: 50, header: "seconds" });
    const ac = new AbortController();
    const p = s.client.getCreditUsage({ signal: ac.signal });
    await new Promise((r) => setTimeout(r, 100));
    expect(s.fake.requests).toHaveLength(1);
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(AbortError);
    expect(s.fake.requests).toHaveLength(1);
  });

  it("rejects at once with an already-aborted signal, sending nothing", async () => {
    s = await setup(kind);
    await expect(s.client.getCreditUsage({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("times out an attempt and retries it", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team", delayMs: 5_000 });
    const usage = await s.client.getCreditUsage({ timeoutMs: 50, maxRetries: 1 });
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
    expect(response.requestId).toBe("req-123");
    expect((data as { _requestId?: string })._requestId).toBe("req-123");
    expect(Object.keys(data)).not.toContain("_requestId");
    expect(response.status).toBe(200);
    s.fake.inject({ match: "/v2/team", status: 404, headers: { "x-request-id": "req-404" }, body: { success: false, error: "nope" } });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err.requestId).toBe("req-404");
  });

  it("turns a non-JSON error page into an APIError with the status text", async () => {
    s = await setup(kind);
    const err = (await s.client.http.request({ method: "GET", path: "/v2/does-not-exist" }).catch((e: unknown) => e)) as APIError;
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
