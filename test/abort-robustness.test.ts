/**
 * A timeout holds whatever the `fetch` underneath does with its signal, and the
 * fake's stalled answers follow the caller's abort however the garbage
 * collector runs. Real timers (short ones): these are about what happens in real
 * time; the late answer, 120 ms after the call, comes on a fake clock.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { TimeoutError, WebData as PortableWebData } from "../src/index.js";
import { createFakeService, fakeJobs } from "../src/testing/index.js";

v8.setFlagsFromString("--expose-gc");
/** A full garbage collection (the flag set above exposes it to a new context). */
const gc = vm.runInNewContext("gc") as () => void;

/**
 * A `fetch` that does not honour its signal (a wrapper that drops `init.signal`, a polyfill without
 * abort support) must not hold a call past its timeout: the transport gives up on its own.
 */
describe("a fetch that ignores the abort signal", () => {
  const fake = () => createFakeService();

  it("an answer that never comes is a TimeoutError after timeoutMs", async () => {
    const f = fake();
    const client = new PortableWebData({ apiKey: f.apiKey, apiUrl: "https://fake.test", maxRetries: 0, fetch: () => new Promise<Response>(() => undefined) });
    const err = await client.getCreditUsage({ timeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).timeoutMs).toBe(50);
  });

  it("headers then a body that never ends is a TimeoutError, on both body readers", async () => {
    const f = fake();
    const endless = (length: boolean) => (input: RequestInfo | URL, init?: RequestInit) => {
      const { signal: _dropped, ...rest } = init ?? {};
      return f.fetch(input, rest).then(async (res) => {
        const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"success":')) });
        const headers = new Headers(res.headers);
        if (length) headers.set("content-length", "100");
        else headers.delete("content-length");
        return new Response(body, { status: 200, headers });
      });
    };
    for (const length of [true, false]) {
      const client = new PortableWebData({ apiKey: f.apiKey, apiUrl: "https://fake.test", maxRetries: 0, maxResponseBytes: 1_000, fetch: endless(length) });
      const err = await client.getCreditUsage({ timeoutMs: 50 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimeoutError);
    }
  });

  it("a late answer after the timeout is released, not read", async () => {
    // On a fake clock (the fetch below is in-process): the timeout and the late answer are timers, nothing else waits.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const f = fake();
      let called = false;
      let cancelled = false;
      const client = new PortableWebData({
        apiKey: f.apiKey,
        apiUrl: "https://fake.test",
        maxRetries: 0,
        fetch: () => {
          called = true;
          return new Promise<Response>((resolve) =>
            setTimeout(() => resolve(new Response(new ReadableStream({ cancel: () => void (cancelled = true) }), { status: 200 })), 120),
          );
        },
      });
      const settled = client.getCreditUsage({ timeoutMs: 30 }).catch((e: unknown) => e);
      while (!called) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(30);
      expect(await settled).toBeInstanceOf(TimeoutError);
      // The late answer arrives 120 ms after the call; its body is cancelled as soon as it does.
      await vi.advanceTimersByTimeAsync(90);
      await vi.waitFor(() => expect(cancelled).toBe(true), { timeout: 2_000, interval: 5 });
    } finally {
      vi.useRealTimers();
    }
  });
});

/**
 * The fake's stalled stream and SSE answers follow the caller's abort even after the `Request` they
 * were made from has been garbage-collected (undici's link from a Request's signal to the caller's
 * dies with the Request object). It used to hang a test under memory pressure.
 */
describe("the fake follows the caller's abort after a garbage collection", () => {

  it("stallStream: the stalled body errors when the caller aborts", async () => {
    const f = createFakeService();
    f.stallStream({ afterBytes: 3 });
    const ctl = new AbortController();
    const res = await f.fetch("https://fake.test/v2/team/credit-usage", { headers: { authorization: `Bearer ${f.apiKey}` }, signal: ctl.signal });
    gc();
    await new Promise((r) => setTimeout(r, 10));
    gc();
    const reading = res.text().then(() => "ended", () => "errored");
    setTimeout(() => ctl.abort(), 20);
    const outcome = await Promise.race([reading, new Promise((r) => setTimeout(() => r("hung"), 2_000))]);
    expect(outcome).toBe("errored");
  });
});

describe("the fake's SSE answer after a garbage collection", () => {

  it("ends when the caller aborts, though the Request it came from was collected", async () => {
    const f = createFakeService({ sse: true, streamIntervalMs: 20 });
    fakeJobs(f).configure({ pagesPerPoll: 0 });
    const auth = { authorization: `Bearer ${f.apiKey}` };
    const start = await f.fetch("https://fake.test/v2/crawl", { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test", limit: 3 }) });
    const { id } = (await start.json()) as { id: string };
    const ctl = new AbortController();
    const res = await f.fetch(`https://fake.test/v2/crawl/${id}`, { headers: { ...auth, accept: "text/event-stream" }, signal: ctl.signal });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    await reader.read();
    gc();
    await new Promise((r) => setTimeout(r, 10));
    gc();
    const draining = (async () => {
      for (;;) if ((await reader.read()).done) return "ended";
    })().catch(() => "errored");
    setTimeout(() => ctl.abort(), 30);
    const outcome = await Promise.race([draining, new Promise((r) => setTimeout(() => r("hung"), 2_000))]);
    expect(outcome).not.toBe("hung");
    await reader.cancel().catch(() => undefined);
  });
});
