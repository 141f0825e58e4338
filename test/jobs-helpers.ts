/**
 * Helpers of the job tests: fake timers that still let loopback I/O run, and
 * a driver that advances the fake clock until a promise settles.
 */
import { afterEach, beforeEach, vi } from "vitest";
import { setup, type Setup } from "./helpers.js";

/** Fakes only `setTimeout`/`clearTimeout`/`Date`, so real sockets (and `setImmediate`) keep working. */
export function useJobTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
}

/** Lets real I/O and microtasks run once. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Settles `p` by alternating real I/O turns with `stepMs` of fake time, for at
 * most `maxSteps` steps and at least `minRealMs` of real time: the steps are
 * quick, and real I/O (a loopback round trip, a module the client loads on its
 * first request) can outlast a fixed count of them on a busy machine.
 */
export async function drive<T>(p: Promise<T>, stepMs = 500, maxSteps = 2000, minRealMs = 15_000): Promise<T> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  const until = performance.now() + minRealMs;
  for (let i = 0; (i < maxSteps || performance.now() < until) && !settled; i++) {
    await tick();
    if (!settled) await vi.advanceTimersByTimeAsync(stepMs);
  }
  return p;
}

/** Collects an async iterable while driving fake time. */
export function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  return (async () => {
    const out: T[] = [];
    for await (const x of it) out.push(x);
    return out;
  })();
}

/**
 * Registers the job tests' hooks (fake job timers before each test; real timers
 * and the fake closed after it) and returns `open`, the test helper `setup` whose
 * result is closed after the test.
 */
export function jobTestSetups(): { open: typeof setup } {
  let current: Setup | undefined;
  beforeEach(() => useJobTimers());
  afterEach(async () => {
    vi.useRealTimers();
    await current?.close();
    current = undefined;
  });
  return {
    open: async (...args) => {
      current = await setup(...args);
      return current;
    },
  };
}
