/**
 * One `abort` listener per caller `AbortSignal`, however many calls share it.
 * A signal shared by more than ten concurrent calls used to get one listener
 * per call and attempt, and Node warned `MaxListenersExceededWarning`. Each call
 * now follows a signal of its own, linked to the caller's through one shared
 * listener that fans out. (The abortable wait, `delay`, is in `./time.ts`, with every timer.)
 */

const fanouts = new WeakMap<AbortSignal, Set<() => void>>();
const linked = new WeakSet<AbortSignal>();

/** Calls `fn` once when `signal` aborts. Returns the function that unsubscribes. Adds at most one listener to `signal`, ever. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let subscribers = fanouts.get(signal);
  if (!subscribers) {
    const set = new Set<() => void>();
    fanouts.set(signal, set);
    signal.addEventListener(
      "abort",
      () => {
        for (const f of [...set]) f();
        set.clear();
      },
      { once: true },
    );
    subscribers = set;
  }
  const set = subscribers;
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
