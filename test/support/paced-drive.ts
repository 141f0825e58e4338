/**
 * `drive` (test/jobs-helpers.ts) for code that does a lot of real work while
 * fake time passes: a whole example, which opens sockets, loads modules on
 * first use and does handshakes between its waits.
 */
import { vi } from "vitest";
import { tick } from "../jobs-helpers.js";

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
 * Settles `p` by alternating real I/O turns with steps of fake time, as `drive`
 * does, but fake time runs at most `ratio` times as fast as real time (in steps
 * of at most `stepMs`). `drive` steps a fixed 500 ms per I/O turn, so a real wait of a few
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
