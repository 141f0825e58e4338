/**
 * fast-check arbitraries of what a caller might pass: plausible values mixed
 * with hostile ones (wrong types, huge and deep values, `__proto__` /
 * `constructor` keys, NaN/Infinity/negatives, odd URL schemes and Unicode,
 * path-changing ids, circular objects, BigInt, functions, symbols).
 */
import fc from "fast-check";

function deep(depth: number): unknown {
  let v: object = { leaf: true };
  for (let i = 0; i < depth; i++) v = { next: v };
  // fast-check prints counterexamples recursively: give it a short name (not enumerable, not in JSON).
  return Object.defineProperty(v, fc.toStringMethod, { value: () => `deep(${depth})`, enumerable: false });
}

function circular(): unknown {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
}

/** Values no option should accept silently. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, undefined, Number.NaN, Infinity, -Infinity, -1, -0, 0, 1.5, 3e9, 2 ** 53, "", " ", "\u0000", "\uD800", "🦀", true, false, [], {}),
  fc.constantFrom("deep-10", "deep-100000", "circular", "bigint", "function", "symbol", "proto", "constructor", "huge-string", "huge-array", "date", "map").map((k): unknown => {
    switch (k) {
      case "deep-10":
        return deep(10);
      case "deep-100000":
        return deep(100_000);
      case "circular":
        return circular();
      case "bigint":
        return 1n;
      case "function":
        return () => 1;
      case "symbol":
        return Symbol("x");
      case "proto":
        return JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
      case "constructor":
        return { constructor: { prototype: { polluted: true } } };
      case "huge-string":
        return "a".repeat(10_000);
      case "huge-array":
        return Array.from({ length: 10_000 }, (_, i) => i);
      case "date":
        return new Date(0);
      default:
        return new Map([["a", 1]]);
    }
  }),
  fc.anything({ maxDepth: 2, withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true, withTypedArray: true, withBoxedValues: true }),
);

/** URLs: valid web URLs, odd schemes, Unicode and junk. */
export const url: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  fc.constantFrom("javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "ftp://x.test/", "http://", "https://exämple.test/ü?q=ß", "http://[::1]:8080/", "https://a.test/%00", "//no-scheme.test", "mailto:a@b.test", "ws://x.test", "example.com/path", "https://a.test/\u202e", " https://a.test "),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  hostileValue,
);

/** Job and session ids: UUIDs, path-changing strings, Unicode and wrong types. */
export const id: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.uuid() },
  fc.constantFrom("../x", "../../v2/team/credit-usage", "..%2F..%2Fteam", "a/b", "%2F", "x?y=1", "x#frag", "", " ", ".", "..", "a b", "\n", "\uD800", "%", "%%32%46"),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  hostileValue,
);

/** Free text (queries, prompts). */
export const text: fc.Arbitrary<unknown> = fc.oneof({ weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) }, hostileValue);

/** Option names of every method (each method gets all of them: unknown ones are passed through), plus prototype keys. */
const OPTION_NAMES = [
  "formats", "onlyMainContent", "timeout", "waitFor", "limit", "maxDepth", "maxDiscoveryDepth", "includePaths", "excludePaths", "location", "proxy",
  "actions", "headers", "mobile", "sitemap", "search", "prompt", "schema", "urls", "ttl", "activityTtl", "pollIntervalMs", "timeoutMs", "signal",
  "skip", "pageLimit", "status", "country", "webhook", "scrapeOptions", "ignoreInvalidURLs", "maxCredits", "code", "language", "byApiKey",
  "email", "agent_name", "accept_terms", "kind", "maxReconnects", "maxPollFailures", "__proto__", "constructor", "toString", "then",
] as const;

/** Plausible values of options (to get past validation often enough to reach the wire). */
const plausible: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(["markdown"], ["html", "links"], true, false, 1, 10, 1000, 30000, "US", "basic", "include", "python", "print(1)", "node", "a@b.test", "agent"),
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ noNaN: false }),
  fc.array(fc.webUrl(), { maxLength: 3 }),
);

/** An options argument: usually an object of known and hostile keys; sometimes not an object at all. */
export const options: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...OPTION_NAMES), fc.oneof(plausible, hostileValue), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  fc.constantFrom<unknown>("markdown", 42, [], null, ["markdown"]),
  hostileValue,
);

/** A `RequestOptions` argument: absent, valid, or with hostile fields; sometimes not an object. */
export const requestOptions: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        timeoutMs: fc.integer({ min: 1_000, max: 60_000 }),
        maxRetries: fc.integer({ min: 0, max: 1 }),
        signal: fc.constant(new AbortController().signal),
        headers: fc.dictionary(fc.constantFrom("x-trace", "accept", "x-idempotency-key"), fc.string({ maxLength: 10 }), { maxKeys: 2 }),
        idempotencyKey: fc.uuid(),
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        timeoutMs: fc.oneof(fc.constantFrom(Number.NaN, -1, 0, Infinity, 3e9, 1.5), hostileValue),
        maxRetries: fc.oneof(fc.constantFrom(-1, Number.NaN, 1.5, Infinity), hostileValue),
        signal: fc.oneof(fc.constantFrom<unknown>({}, "signal", { aborted: false }), hostileValue),
        headers: hostileValue,
        idempotencyKey: hostileValue,
      },
      { requiredKeys: [] },
    ),
  },
  fc.constantFrom<unknown>(null, "fast", 42, []),
);
