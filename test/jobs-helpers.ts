/**
 * Helpers of the tests that keep time: fake timers that still let loopback I/O
 * run, waiting on real I/O for a condition, and the drivers that advance the
 * fake clock until a promise settles (`drive`, and `drivePaced` for a whole
 * program that does real work between its waits).
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

/** Lets real I/O run (the clock may be fake) until `ready()` holds; after 5 s of real time, throws naming `what`. */
export async function until(ready: () => boolean, what = "the condition"): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!ready()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
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

/** How `drivePaced` steps fake time. */
export interface PaceOptions {
  /** Fake time runs at most this many times as fast as real time (default 50: a 500 ms poll pause takes 10 ms, a 120 s timeout 2.4 s). */
  ratio?: number;
  /** The largest single step of fake time, in ms (default 500). */
  stepMs?: number;
  /** Stop driving after this much real time and return the promise as it is (default 15 s; the test's timeout reports it). */
  maxRealMs?: number;
}

/**
 * Settles `p` by alternating real I/O turns with steps of fake time, as {@link drive}
 * does, but fake time runs at most `ratio` times as fast as real time (in steps
 * of at most `stepMs`). {@link drive} steps a fixed 500 ms per I/O turn, so a real wait of a few
 * hundred turns (a WebSocket handshake while its module loads) passes minutes
 * of fake time and can trip a client timeout the real run never meets; paced,
 * a 120 s timeout (the client's default, and the WebSocket open's) needs 2.4 s
 * of real time to pass.
 */
export async function drivePaced<T>(p: Promise<T>, { ratio = 50, stepMs = 500, maxRealMs = 15_000 }: PaceOptions = {}): Promise<T> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  const until = performance.now() + maxRealMs;
  let last = performance.now();
  let owed = 0; // fake ms earned by real time and not yet stepped; never more than one step, so nothing is banked
  while (!settled && performance.now() < until) {
    await tick();
    if (settled) break;
    const now = performance.now();
    owed = Math.min(stepMs, owed + (now - last) * ratio);
    last = now;
    const step = Math.floor(owed);
    if (step < 1) continue;
    owed -= step;
    await vi.advanceTimersByTimeAsync(step);
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
