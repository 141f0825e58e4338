/**
 * A module the portable entry loads on first use (its own chunk in a split
 * browser bundle), unless an entry hands it over up front. The Node entry does
 * for everything cheap to load, so that nothing is loaded between a call and
 * its timers: a test under fake timers that advances the clock would otherwise
 * run before the timer exists (TESTING.md). One loader for the v1 layer, the
 * job waiters, the watcher's transports and the zod schema converters.
 */
import { WebDataError } from "./errors.js";

/** A module loaded once, on first use, or handed over by {@link OnDemand.provide}. */
export class OnDemand<M> {
  readonly #import: () => Promise<M>;
  readonly #what: string;
  #module: M | undefined;
  #loading: Promise<M> | undefined;

  /**
   * @param what Named in the error of a failed load ("the v1 layer").
   * @param load The `import()` of the module (a literal path, so bundlers split it).
   */
  constructor(what: string, load: () => Promise<M>) {
    this.#what = what;
    this.#import = load;
  }

  /** The module when it is loaded or was handed over; `undefined` before. */
  get now(): M | undefined {
    return this.#module;
  }

  /** Hands the module over: {@link load} and {@link now} return it from now on, with no load. */
  provide(module: M): void {
    this.#module = module;
  }

  /** The module, loaded on the first call. A failed load rejects with a `WebDataError` and is tried again on the next call. */
  load(): Promise<M> {
    if (this.#module) return Promise.resolve(this.#module);
    return (this.#loading ??= this.#import().then(
      (m) => (this.#module = m),
      (err: unknown) => {
        this.#loading = undefined;
        throw new WebDataError(`Could not load ${this.#what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      },
    ));
  }
}

/**
 * A shallow copy of a plain-object argument (other values as they are), for a call that waits for
 * a load: it is sent with the options as they were at the call, not as they are after the load.
 */
export function atCall<T>(value: T): T {
  const proto = value !== null && typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  return proto === Object.prototype || proto === null ? { ...value } : value;
}

/**
 * Calls `fn` with `part`'s module and `args`: at once when the module is at hand, else once it is
 * loaded, with the plain-object arguments copied now ({@link atCall}), so the call is the one made.
 * A function, not a method, so a bundle that never calls it leaves it out.
 */
export function runWith<M, A extends unknown[], R>(part: OnDemand<M>, fn: (module: M, ...args: A) => R | Promise<R>, ...args: A): Promise<R> {
  const now = part.now;
  if (now) return Promise.resolve(fn(now, ...args));
  const copies = args.map(atCall) as A;
  return part.load().then((m) => fn(m, ...copies));
}
