/**
 * The backoff base, and the internal test-only option that lowers it: a 503
 * is retried after 500 ms (Math.random at 0: the lowest of p-retry's 1..2x
 * jitter), and after the given base when a test passes
 * `Symbol.for("webdata.internal.backoffBaseMs")` (the fault-injection suite
 * does, over real sockets where fake timers cannot drive the waits). A value
 * that is not a number from 0 to the public base is ignored.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientOptions } from "../src/index.js";
import { BACKOFF_BASE_MS, BACKOFF_BASE_OPTION } from "../src/core/retry.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { until } from "./jobs-helpers.js";

const realSetTimeout = globalThis.setTimeout;

describe.each(TRANSPORTS)("backoff base over %s", (kind) => {
  let s: Setup | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await s?.close();
    s = undefined;
  });

  /**
   * Checks that the retry of a 503 is sent exactly `ms` of fake time after the failure: not at `ms - 1`
   * (after 30 real ms for anything in flight to arrive), and at `ms`.
   */
  async function retriedAfter(extra: Record<symbol, unknown>, ms: number): Promise<void> {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(Math, "random").mockReturnValue(0);
    let retried = false;
    s = await setup(kind, {}, { maxRetries: 1, onRetry: () => void (retried = true), ...extra } as ClientOptions);
    s.fake.inject({ match: "/v2/team", status: 503 });
    const fake = s.fake;
    const p = s.client.getCreditUsage();
    await until(() => retried);
    await vi.advanceTimersByTimeAsync(ms - 1);
    await new Promise((r) => realSetTimeout(r, 30));
    expect(fake.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => fake.requests.length === 2);
    expect((await p).planCredits).toBe(100_000);
  }

  it("is 500 ms by default", async () => {
    await retriedAfter({}, BACKOFF_BASE_MS);
  });

  it("is the internal option's value when a test gives one", async () => {
    await retriedAfter({ [BACKOFF_BASE_OPTION]: 20 }, 20);
    expect(BACKOFF_BASE_OPTION).toBe(Symbol.for("webdata.internal.backoffBaseMs"));
  });

  it.each([[-1], [BACKOFF_BASE_MS + 1], [Number.NaN], ["20"]])("ignores %s: not a number from 0 to the public base", async (value) => {
    await retriedAfter({ [BACKOFF_BASE_OPTION]: value }, BACKOFF_BASE_MS);
  });
});
