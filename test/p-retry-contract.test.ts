/**
 * What `core/retry.ts` assumes of p-retry 7, checked on p-retry itself (so an
 * update that changes one of these fails here, not in production): the order of
 * the hooks, that `shouldConsumeRetry: false` adds no backoff and consumes no
 * retry, the randomized backoff range, and rejection with the signal's reason.
 */
import pRetry from "p-retry";
import { afterEach, describe, expect, it, vi } from "vitest";

const options = { factor: 2, minTimeout: 500, maxTimeout: 8000, randomize: true, maxRetryTime: Number.POSITIVE_INFINITY, unref: false };

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("p-retry 7 as core/retry.ts uses it", () => {
  it("calls onFailedAttempt, then shouldConsumeRetry, then shouldRetry; a throw in onFailedAttempt ends it with that error", async () => {
    const calls: string[] = [];
    let n = 0;
    const stop = new Error("stop");
    const p = pRetry(
      async () => {
        n++;
        throw new Error(`fail ${n}`);
      },
      {
        ...options,
        retries: 5,
        onFailedAttempt: ({ attemptNumber }) => {
          calls.push(`failed ${attemptNumber}`);
          if (attemptNumber === 2) throw stop;
        },
        shouldConsumeRetry: () => (calls.push("consume?"), false),
        shouldRetry: () => (calls.push("retry?"), true),
      },
    );
    await expect(p).rejects.toBe(stop);
    expect(calls).toEqual(["failed 1", "consume?", "retry?", "failed 2"]);
  });

  it("shouldConsumeRetry false: the next attempt starts at once, and the retry budget is not spent", async () => {
    vi.useFakeTimers();
    let n = 0;
    const p = pRetry(
      async (attempt) => {
        n = attempt;
        if (attempt < 5) throw new Error("again");
        return "ok";
      },
      { ...options, retries: 1, shouldConsumeRetry: () => false },
    );
    await vi.advanceTimersByTimeAsync(0);
    await expect(p).resolves.toBe("ok");
    expect(n).toBe(5);
  });

  it("backs off minTimeout x (1..2) x factor^consumed, capped at maxTimeout", async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    const at: number[] = [];
    const p = pRetry(
      async () => {
        at.push(Date.now());
        if (at.length < 6) throw new Error("again");
      },
      { ...options, retries: 5 },
    );
    await vi.runAllTimersAsync();
    await p;
    const waits = at.slice(1).map((t, i) => t - at[i]!);
    expect(waits).toEqual([1000, 1999, 3998, 7996, 8000]);
  });

  it("an abort during its backoff rejects at once with the signal's reason", async () => {
    vi.useFakeTimers();
    const ac = new AbortController();
    let n = 0;
    const p = pRetry(
      async () => {
        n++;
        throw new Error("again");
      },
      { ...options, retries: 3, signal: ac.signal },
    ).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    const reason = new Error("gave up");
    ac.abort(reason);
    expect(await p).toBe(reason);
    expect(n).toBe(1);
  });
});
