/**
 * Regression tests of the request path: the key redacted in `APIError.body`,
 * `details` and `headers`; a logger that throws; no `MaxListenersExceededWarning`
 * with one signal shared by many calls.
 */
import { getEventListeners } from "node:events";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { APIError, BadRequestError, type Logger } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

/** Every string an error shows: message, stack, JSON, `util.inspect`, body, details and headers. */
function everyString(err: APIError): string {
  const headers: string[] = [];
  err.headers?.forEach((v, k) => headers.push(`${k}: ${v}`));
  return [err.message, err.stack, JSON.stringify(err), inspect(err, { depth: 10 }), JSON.stringify(err.body), JSON.stringify(err.details), err.serverMessage, ...headers].join("\n");
}

/** `s` with every character written as a JSON `\u` escape. */
const escaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

describe.each(TRANSPORTS)("request path over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    await s?.close();
  });

  it("a \\u-escaped key in the body, details and a header that echoes it never reach the error", async () => {
    s = await setup(kind);
    const key = s.fake.apiKey;
    s.fake.addHook((_req, url) => {
      if (!url.pathname.endsWith("/scrape")) return undefined;
      const text = `{"success":false,"error":"Invalid key ${escaped(key)}","details":[{"path":["k"],"message":"got ${escaped(key)}"}],"${escaped(key)}":true}`;
      return new Response(text, { status: 400, headers: { "content-type": "application/json", "x-echo-auth": `Bearer ${key}`, "x-request-id": "req-1" } });
    });
    const err = (await s.client.scrape("https://example.com").catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(everyString(err)).not.toContain(key);
    expect(err.serverMessage).toBe("Invalid key [redacted]");
    expect(err.details).toEqual([{ path: ["k"], message: "got [redacted]" }]);
    expect(err.headers?.get("x-echo-auth")).toBe("Bearer [redacted]");
    expect(err.requestId).toBe(s.fake.requests[0]!.headers["x-request-id"]); // the id sent, not the server's
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(err.serverRequestId).toBe("req-1");
  });

  it("a 200 with success:false that echoes the key escaped", async () => {
    s = await setup(kind);
    const key = s.fake.apiKey;
    s.fake.addHook((_req, url) =>
      url.pathname.endsWith("/scrape") ? new Response(`{"success":false,"error":"no ${escaped(key)}"}`, { status: 200, headers: { "content-type": "application/json" } }) : undefined,
    );
    const err = (await s.client.scrape("https://example.com").catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(APIError);
    expect(everyString(err)).not.toContain(key);
  });

  it("a logger that throws neither fails the call nor leaves its timer running", async () => {
    const throwing: Logger = {
      debug: () => {
        throw new Error("logger down");
      },
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    s = await setup(kind, {}, { logger: throwing, logLevel: "debug", timeoutMs: 600_000 });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    await s.client.getCreditUsage(); // warm up (keep-alive pool timers)
    const before = timers();
    await expect(s.client.getCreditUsage()).resolves.toMatchObject({ remainingCredits: expect.any(Number) });
    await expect(s.client.getCreditUsage()).resolves.toBeDefined();
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it("one AbortSignal shared by 25 concurrent calls (with retries) gets one listener and no warning", async () => {
    s = await setup(kind, {}, { maxRetries: 20 });
    s.fake.inject({ match: "/v2/team/credit-usage", status: 503, headers: { "retry-after-ms": "1" }, times: 20 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const ctl = new AbortController();
      const calls = Array.from({ length: 25 }, () => s.client.getCreditUsage({ signal: ctl.signal }));
      const waiters = Array.from({ length: 12 }, () => s.client.crawl("https://example.com", { pollIntervalMs: 500, timeoutMs: 50 }, { signal: ctl.signal }).catch(() => undefined));
      await new Promise((r) => setTimeout(r, 1));
      expect(getEventListeners(ctl.signal, "abort").length).toBeLessThanOrEqual(1);
      await Promise.all(calls);
      await Promise.all(waiters);
      await new Promise((r) => setTimeout(r, 5));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
      expect(getEventListeners(ctl.signal, "abort").length).toBeLessThanOrEqual(1);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("aborting the shared signal still aborts every call", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team/credit-usage", delayMs: 5_000, times: 5 });
    const ctl = new AbortController();
    const calls = Array.from({ length: 5 }, () => s.client.getCreditUsage({ signal: ctl.signal }).catch((e: unknown) => e));
    await new Promise((r) => setTimeout(r, 20));
    ctl.abort();
    const results = await Promise.all(calls);
    for (const r of results) expect((r as Error).name).toBe("AbortError");
  });
});
