/**
 * Shapes of the service's official client (`@mendable/firecrawl-js` 4.x) that
 * the drop-in (`webdata/firecrawl`) adapts `WebData`'s to (each function's JSDoc
 * names one). Only `src/firecrawl/` uses them: `WebData` returns its own shapes
 * (test/architecture.test.ts holds that).
 */
import { isRecord } from "../core/errors.js";

/** `{ success }` as the official client's results carry it (not enumerable here: not in JSON, spreads or `toEqual`). */
export interface SuccessFlag<S extends boolean = true> {
  /**
   * For code written for the official client (`if (!res.success)`): `true` for every
   * result (a failed request throws); on a job status, `false` when the server said so.
   * Not enumerable.
   */
  readonly success: S;
  /**
   * The official response types' `error` (`if (!res.success) throw new Error(res.error)` compiles): never set
   * on a result here, as a failed request throws a typed error instead.
   */
  readonly error?: string;
}

/** Adds a non-enumerable `success` flag to `value` (returned as is). */
export function withSuccess<T extends object, S extends boolean = true>(value: T, success: S = true as S): T & SuccessFlag<S> {
  return Object.defineProperty(value, "success", { value: success, enumerable: false, configurable: true }) as T & SuccessFlag<S>;
}

/** A list result that also answers to the official client's wrapper (`res.sessions`, `res.periods`), not enumerable. */
export type ListWithAlias<T, K extends string> = T[] & SuccessFlag & { readonly [P in K]: T[] };

/** Adds the non-enumerable `success` flag and an alias `key` pointing at the array itself. */
export function listWithAlias<T, K extends string>(list: T[], key: K): ListWithAlias<T, K> {
  Object.defineProperty(list, key, { value: list, enumerable: false, configurable: true });
  return withSuccess(list) as ListWithAlias<T, K>;
}

/**
 * Batch scrape options as the official client nests them (`{ options: { formats }, ... }`),
 * flattened to the wire's shape (scrape options at the top level). A key given both
 * nested and at the top level keeps the top-level value.
 */
export function flattenBatchOptions<O extends object>(given: O): O {
  if (!isRecord(given) || !isRecord(given.options)) return given;
  const { options: nested, ...rest } = given;
  return { ...nested, ...rest } as O;
}

/** The official `historical(byApiKey?: boolean)` argument as webdata's `{ byApiKey }`. */
export function historicalOptions<O extends object>(given: O | boolean | undefined): O | { byApiKey: boolean } | undefined {
  return typeof given === "boolean" ? { byApiKey: given } : given;
}

/**
 * `agent(prompt, options, requestOptions)` or the official `agent({ prompt, ...options }, requestOptions)`,
 * as `[prompt, options, requestOptions]`. Anything else is passed on for the request check to report.
 */
export function agentArgs<O extends object, R>(first: unknown, second: unknown, third: R | undefined): [string, O | undefined, R | undefined] {
  if (isRecord(first) && !Array.isArray(first)) {
    const { prompt, ...options } = first;
    return [prompt as string, options as O, second as R | undefined];
  }
  return [first as string, second as O | undefined, third];
}
