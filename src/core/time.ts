/**
 * The one home of time in the library: one-shot timers ({@link after}: an attempt's timeout, a
 * waiter's deadline, a socket's handshake limit, a deferred start), the abortable sleep
 * ({@link delay}: retry waits, polls, reconnects) and the idle timer of a stream
 * ({@link idleTimer}). No other module of the library calls `setTimeout` or `clearTimeout`
 * (`test/architecture-time-state.test.ts` checks it).
 *
 * Every delay is clamped as {@link after} says, so a long value that was accepted waits long and never
 * fires early. The timer globals are read at each call, never captured at import, so a test's fake clock
 * (`vi.useFakeTimers()`) drives every timer of the library.
 */
import { AbortError } from "./errors.js";

/** The longest delay one runtime timer can hold (2^31 - 1 ms, about 24.8 days); a longer one fires at once, so {@link after} chains. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Cancels a timer; calling it after the timer fired, or twice, does nothing. */
export type CancelTimer = () => void;

/**
 * Calls `fn` once after `ms` (a negative or NaN `ms` is 0; `Infinity` never fires). Above
 * {@link MAX_TIMER_MS} the wait is chained, so it is never cut short. Returns the function that cancels it.
 */
export function after(ms: number, fn: () => void): CancelTimer {
  let left = ms > 0 ? ms : 0;
  if (left <= MAX_TIMER_MS) {
    // The common case: one timer, and no closure but the cancel (an attempt's timeout runs this per attempt).
    const handle = setTimeout(fn, left);
    return () => clearTimeout(handle);
  }
  let handle: ReturnType<typeof setTimeout>;
  const arm = (): void => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    handle = setTimeout(left > 0 ? arm : fn, step);
  };
  arm();
  return () => clearTimeout(handle);
}

/**
 * The one abortable wait (retry waits, polls, reconnects): resolves after `ms` (clamped as {@link after}
 * does), or rejects with an `AbortError` (the signal's reason as its `cause`) as soon as `signal` aborts,
 * through the signal's one shared listener ({@link onAbort}).
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError(undefined, { cause: signal.reason }));
    const off = signal
      ? onAbort(signal, () => {
          cancel();
          reject(new AbortError(undefined, { cause: signal.reason }));
        })
      : undefined;
    const cancel = after(ms, () => {
      off?.();
      resolve();
    });
  });
}

/** A timer that fires after `ms` of silence (see {@link idleTimer}). */
export interface IdleTimer {
  /** Something was heard: the silence starts again now. Cheap (no timer is re-armed). */
  heard(): void;
  /** Stops counting (time spent waiting for a slow consumer is not the other side's silence). */
  pause(): void;
  /** Counts on from where {@link pause} stopped: the deadline moves by the paused time. */
  resume(): void;
  /** Stops the timer for good. */
  stop(): void;
}

/**
 * Calls `onIdle` once `ms` pass without {@link IdleTimer.heard} (a stream's server gone silent), not
 * counting the time between {@link IdleTimer.pause} and {@link IdleTimer.resume}.
 */
export function idleTimer(ms: number, onIdle: () => void): IdleTimer {
  let deadline = Date.now() + ms;
  let pausedAt: number | undefined;
  let stopped = false;
  const check = (): void => {
    const left = deadline - Date.now();
    if (left > 0) cancel = after(left, check);
    else {
      stopped = true;
      onIdle();
    }
  };
  let cancel = after(ms, check);
  return {
    heard: () => void (deadline = Date.now() + ms),
    pause() {
      if (stopped || pausedAt !== undefined) return;
      cancel();
      pausedAt = Date.now();
    },
    resume() {
      if (stopped || pausedAt === undefined) return;
      deadline += Date.now() - pausedAt;
      pausedAt = undefined;
      cancel = after(Math.max(0, deadline - Date.now()), check);
    },
    stop() {
      stopped = true;
      cancel();
    },
  };
}

/*
 * One `abort` listener per caller `AbortSignal`, however many calls share it: a signal shared by more than
 * ten concurrent calls got one listener per call and attempt, and Node warned `MaxListenersExceededWarning`.
 * Each call follows a signal of its own, linked to the caller's through one shared listener that fans out.
 */
const fanouts = new WeakMap<AbortSignal, Set<() => void>>();
const linked = new WeakSet<AbortSignal>();

/** Calls `fn` once when `signal` aborts. Returns the function that unsubscribes. Adds at most one listener to `signal`, ever. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  const known = fanouts.get(signal);
  const set = known ?? new Set<() => void>();
  if (!known) {
    fanouts.set(signal, set);
    signal.addEventListener(
      "abort",
      () => {
        for (const f of [...set]) f();
        set.clear();
      },
      { once: true },
    );
  }
  set.add(fn);
  return () => void set.delete(fn);
}

/** A call's own signal, linked to the caller's (aborted with its reason). */
export interface LinkedSignal {
  /** The call's signal: give it to everything the call does (attempts, sleeps). */
  signal: AbortSignal;
  /** Unlinks from the caller's signal; call when the call settles. */
  dispose(): void;
}

/**
 * Links a call to the caller's signal through {@link onAbort}. Returns `undefined` when there is
 * nothing to link (no signal, or a signal this module made: the call is already linked).
 */
export function linkSignal(caller: AbortSignal | undefined): LinkedSignal | undefined {
  if (!caller || linked.has(caller)) return undefined;
  const ctl = new AbortController();
  linked.add(ctl.signal);
  if (caller.aborted) {
    ctl.abort(caller.reason);
    return { signal: ctl.signal, dispose: () => undefined };
  }
  const off = onAbort(caller, () => ctl.abort(caller.reason));
  return { signal: ctl.signal, dispose: off };
}
