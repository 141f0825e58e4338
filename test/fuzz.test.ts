/**
 * Property-based tests: every public method of
 * the client (v2 and v1), called with generated arguments and `RequestOptions`
 * (`test/support/hostile.ts`). Each call must either pass validation and send
 * only requests the OpenAPI contract accepts (route unchanged by the id, body
 * valid, key only to the API's origin), or reject with `ValidationError` with
 * nothing sent; never throw synchronously, never reject with a raw
 * `TypeError`/`RangeError`. Bad per-call options, waiter options, job ids and
 * options arguments must be a `ValidationError` (the rules of `rulesOf`).
 *
 * Fixed seed; a failure prints its seed and path. Rerun one case:
 *   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/fuzz.test.ts -t "<method>"
 * More runs: FUZZ_RUNS=2000. Prints the counts per method.
 *
 * The server answers every request `400 {success:false}` (recorded, not
 * processed): what is under test is what leaves the client.
 */
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { ValidationError, WebData, WebDataError } from "../src/index.js";
import { contractProblems, routeOf, type SentRequest } from "./support/contract.js";
import { id, options, requestOptions, text, url } from "./support/hostile.js";
import { v1 as v1Face } from "../src/v1/index.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const PATH = process.env.FUZZ_PATH;
const API = "https://api.fuzz.test";
const KEY = "fc-FUZZ-secret-key-0123456789abcdef";
/** Longest a call may take against the instant server before it counts as a hang, ms. */
const HANG_MS = 3_000;

type Args = unknown[];
interface Method {
  name: string;
  args: fc.Arbitrary<Args>;
  call: (c: WebData, a: Args) => unknown;
  /** Positions of job / session ids among the arguments. */
  ids?: number[];
  /** Position of the options argument, whether it holds waiter options, and whether it is required. */
  options?: number;
  required?: boolean;
  waiter?: boolean;
  /** Position of the RequestOptions argument. */
  ro: number;
}

/** Calls a method by name with arguments its types forbid (the point of the test). */
type Callable = Record<string, (...args: unknown[]) => unknown>;
const m = (name: string, args: fc.Arbitrary<unknown>[], rest: Partial<Method> = {}): Method => ({
  name,
  args: fc.tuple(...args),
  call: (c, a) => {
    const target = (name.startsWith("v1.") ? c.v1 : c) as unknown as Callable;
    const fn = target[name.replace(/^v1\./, "")] as (...args: unknown[]) => unknown;
    return fn.apply(target, a);
  },
  ro: args.length - 1,
  ...rest,
});

const METHODS: Method[] = [
  m("scrape", [url, options, requestOptions], { options: 1 }),
  m("map", [url, options, requestOptions], { options: 1 }),
  m("search", [text, options, requestOptions], { options: 1 }),
  m("crawlParamsPreview", [url, text, requestOptions]),
  m("startCrawl", [url, options, requestOptions], { options: 1 }),
  m("crawl", [url, options, requestOptions], { options: 1, waiter: true }),
  m("getCrawlStatus", [id, options, requestOptions], { ids: [0], options: 1 }),
  m("crawlDocuments", [id, options, requestOptions], { ids: [0], options: 1 }),
  m("getCrawlErrors", [id, requestOptions], { ids: [0] }),
  m("cancelCrawl", [id, requestOptions], { ids: [0] }),
  m("getActiveCrawls", [requestOptions]),
  m("startBatchScrape", [fc.oneof(fc.array(url, { maxLength: 3 }), url), options, requestOptions], { options: 1 }),
  m("batchScrape", [fc.oneof(fc.array(url, { maxLength: 3 }), url), options, requestOptions], { options: 1, waiter: true }),
  m("getBatchScrapeStatus", [id, options, requestOptions], { ids: [0], options: 1 }),
  m("batchScrapeDocuments", [id, options, requestOptions], { ids: [0], options: 1 }),
  m("getBatchScrapeErrors", [id, requestOptions], { ids: [0] }),
  m("cancelBatchScrape", [id, requestOptions], { ids: [0] }),
  m("watcher", [id, options, requestOptions], { ids: [0], options: 1 }),
  m("startExtract", [options, requestOptions], { options: 0, required: true }),
  m("extract", [options, requestOptions], { options: 0, waiter: true, required: true }),
  m("getExtractStatus", [id, requestOptions], { ids: [0] }),
  m("startAgent", [text, options, requestOptions], { options: 1 }),
  m("agent", [text, options, requestOptions], { options: 1, waiter: true }),
  m("getAgentStatus", [id, requestOptions], { ids: [0] }),
  m("cancelAgent", [id, requestOptions], { ids: [0] }),
  m("getTokenUsage", [requestOptions]),
  m("getCreditUsage", [requestOptions]),
  m("getCreditUsageHistorical", [options, requestOptions], { options: 0 }),
  m("getTokenUsageHistorical", [options, requestOptions], { options: 0 }),
  m("getQueueStatus", [requestOptions]),
  m("getConcurrency", [requestOptions]),
  m("browser", [options, requestOptions], { options: 0 }),
  m("listBrowsers", [options, requestOptions], { options: 0 }),
  m("browserExecute", [id, options, requestOptions], { ids: [0], options: 1, required: true }),
  m("deleteBrowser", [id, requestOptions], { ids: [0] }),
  m("agentSignup", [options, requestOptions], { options: 0, required: true }),
  m("v1.scrapeUrl", [url, options, requestOptions], { options: 1 }),
  m("v1.mapUrl", [url, options, requestOptions], { options: 1 }),
  m("v1.search", [text, options, requestOptions], { options: 1 }),
  m("v1.asyncCrawlUrl", [url, options, fc.option(id, { nil: undefined }), requestOptions], { options: 1 }),
  m("v1.checkCrawlStatus", [id, fc.boolean(), fc.constant(undefined), fc.option(fc.integer({ min: -2, max: 50 }), { nil: undefined }), fc.option(fc.integer({ min: -2, max: 50 }), { nil: undefined }), requestOptions], { ids: [0] }),
  m("v1.cancelCrawl", [id, requestOptions], { ids: [0] }),
  // The official v1 signature: (urls, params, idempotencyKey, webhook, ignoreInvalidURLs, requestOptions); the
  // request options are the sixth argument, not the fourth (passing them fourth made them the webhook).
  m("v1.asyncBatchScrapeUrls", [fc.oneof(fc.array(url, { maxLength: 3 }), url), options, fc.option(id, { nil: undefined }), fc.constant(undefined), fc.constant(undefined), requestOptions], { options: 1 }),
  m("v1.asyncExtract", [fc.oneof(fc.array(url, { maxLength: 3 }), url), options, fc.option(id, { nil: undefined }), requestOptions], { options: 1 }),
  m("v1.getExtractStatus", [id, requestOptions], { ids: [0] }),
];

const isPlainObject = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));
const badMs = (v: unknown) => v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1);

/** False for a string with a lone surrogate (`String.prototype.isWellFormed`, Node 20+, not in the ES2022 lib). */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** True when JSON cannot carry `v`: a cycle, a BigInt, or nesting past 1,000 levels. */
function unserialisable(v: unknown, seen = new Set<unknown>(), depth = 0): boolean {
  if (typeof v === "bigint") return true;
  if (typeof v !== "object" || v === null) return false;
  if (seen.has(v) || depth > 1_000) return true;
  seen.add(v);
  const out = Object.values(v).some((x) => unserialisable(x, seen, depth + 1));
  seen.delete(v);
  return out;
}

/** Options that go to the query string, not a JSON body: each value must be a primitive. */
const QUERY_OPTIONS = new Set(["listBrowsers", "getCreditUsageHistorical", "getTokenUsageHistorical"]);
/** Usage methods that also take the official client's boolean `byApiKey` in place of the options object. */
const HISTORICAL = new Set(["getCreditUsageHistorical", "getTokenUsageHistorical"]);
/** Methods whose options carry a `signal` of their own (waiters, iterators, the watcher). */
const SIGNAL_OPTIONS = new Set(["crawl", "batchScrape", "extract", "agent", "crawlDocuments", "batchScrapeDocuments", "watcher"]);

/**
 * The input rules that apply to a call: `reject` names the rule that says the call must be a
 * `ValidationError` with nothing sent; `blame` names the rule that explains a raw
 * error (a `null` options or `RequestOptions` argument may also be read as absent).
 */
function rulesOf(method: Method, a: Args): { reject?: string; blame?: string } {
  // An id must be a string that can be put in a URL (a lone surrogate cannot be percent-encoded).
  for (const i of method.ids ?? []) if (typeof a[i] !== "string" || !wellFormed(a[i] as string)) return { reject: "job id" };
  if (method.options !== undefined) {
    const o = a[method.options];
    if (o === null) return { blame: "options argument" };
    // The official client's `getCreditUsageHistorical(byApiKey?: boolean)` form is accepted on purpose
    // (MIGRATION.md: `(true)` or `({ byApiKey: true })`), so a boolean is a valid options argument there.
    if (HISTORICAL.has(method.name) && typeof o === "boolean") return {};
    if (o === undefined && method.required) return { reject: "options argument" };
    if (o !== undefined && !isPlainObject(o)) return { reject: "options argument" };
    if (o !== undefined && unserialisable(o)) return { reject: "options argument" };
    const w = (o ?? {}) as Record<string, unknown>;
    if (QUERY_OPTIONS.has(method.name) && Object.values(w).some((v) => typeof v === "object" && v !== null)) return { reject: "options argument" };
    if (SIGNAL_OPTIONS.has(method.name) && w.signal !== undefined && !(w.signal instanceof AbortSignal)) return { reject: "waiter options" };
    if (method.waiter && badMs(w.timeoutMs)) return { reject: "waiter options" };
  }
  const ro = a[method.ro];
  if (ro === null) return { blame: "request options" };
  if (ro !== undefined && !isPlainObject(ro)) return { reject: "request options" };
  const r = (ro ?? {}) as Record<string, unknown>;
  if (r.timeoutMs !== undefined && (badMs(r.timeoutMs) || r.timeoutMs === 0)) return { reject: "request options" };
  if (r.maxRetries !== undefined && !(typeof r.maxRetries === "number" && Number.isInteger(r.maxRetries) && r.maxRetries >= 0)) return { reject: "request options" };
  if (r.signal !== undefined && !(r.signal instanceof AbortSignal)) return { reject: "request options" };
  if (r.headers !== undefined && !(isPlainObject(r.headers) && Object.values(r.headers as object).every((v) => typeof v === "string"))) return { reject: "request options" };
  if (r.idempotencyKey !== undefined && typeof r.idempotencyKey !== "string") return { reject: "request options" };
  return {};
}

/** Settles whatever a method returned: a promise, an async iterator (first step), or a watcher (until it ends). */
async function settle(value: unknown): Promise<void> {
  if (value && typeof (value as PromiseLike<unknown>).then === "function") {
    await value;
    return;
  }
  const iter = value as AsyncIterable<unknown> | undefined;
  if (iter && typeof iter[Symbol.asyncIterator] === "function") {
    const it = iter[Symbol.asyncIterator]();
    try {
      await it.next();
    } finally {
      await it.return?.();
    }
  }
}

interface Counts {
  runs: number;
  validation: number;
  sent: number;
}
const counts = new Map<string, Counts>();

/** Runs one call and returns what is wrong with it, each problem tagged with the defect that explains it (or "new"). */
async function problemsOf(method: Method, a: Args, count = true): Promise<{ defect: string; problem: string }[]> {
  const sent: SentRequest[] = [];
  const fetchStub = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    sent.push({ method: init?.method ?? "GET", url: String(input), body });
    const headers = new Headers(init?.headers);
    if (headers.get("authorization") !== null && new URL(String(input)).origin !== API) sent.at(-1)!.url += " [KEY SENT TO ANOTHER ORIGIN]";
    return new Response(JSON.stringify({ success: false, error: "fuzz" }), { status: 400, headers: { "content-type": "application/json" } });
  };
  const client = new WebData({ plugins: [v1Face], apiKey: KEY, apiUrl: API, fetch: fetchStub, maxRetries: 0, logLevel: "off", silenceDeprecationWarnings: true });
  const out: { defect: string; problem: string }[] = [];
  let error: unknown;
  let syncThrow = false;
  let value: unknown;
  try {
    value = method.call(client, a);
  } catch (err) {
    syncThrow = true;
    error = err;
  }
  if (!syncThrow) {
    try {
      let guard: ReturnType<typeof setTimeout> | undefined;
      const timer = new Promise<"hang">((resolve) => (guard = setTimeout(resolve, HANG_MS, "hang")));
      // The guard is cleared once the call ends: left to fire, thousands of them ran 3 s later, in later tests.
      const r = await Promise.race([settle(value).then(() => "ok" as const), timer]).finally(() => clearTimeout(guard));
      if (r === "hang") out.push({ defect: "hang", problem: `no ending within ${HANG_MS} ms` });
    } catch (err) {
      error = err;
    }
  }
  const fresh: Counts = { runs: 0, validation: 0, sent: 0 };
  const c = count ? (counts.get(method.name) ?? fresh) : fresh;
  if (count) counts.set(method.name, c);
  c.runs += 1;
  if (sent.length) c.sent += 1;
  const rules = rulesOf(method, a);
  const rule = rules.reject;
  const blame = rule ?? rules.blame ?? "new";
  for (const p of out) if (p.defect === "hang") p.defect = blame; // a bad option may well explain a hang
  if (syncThrow) out.push({ defect: blame, problem: "threw synchronously" });
  if (error !== undefined && !(error instanceof WebDataError)) out.push({ defect: blame, problem: `rejected with a raw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` });
  if (error instanceof ValidationError) {
    c.validation += 1;
    if (sent.length) out.push({ defect: "new", problem: `ValidationError after sending ${sent.length} request(s)` });
  } else {
    if (rule) out.push({ defect: rule, problem: `expected ValidationError, got ${error instanceof Error ? error.name : "success"} after sending ${sent.length} request(s)` });
    const idStrings = (method.ids ?? []).map((i) => a[i]).filter((v): v is string => typeof v === "string");
    for (const req of sent) {
      for (const p of contractProblems(req, API)) out.push({ defect: blame, problem: `${req.method} ${req.url}: ${p}` });
      const route = routeOf(req);
      for (const given of idStrings) {
        if (route && Object.keys(route.params).length && !Object.values(route.params).includes(given)) out.push({ defect: "new", problem: `id ${JSON.stringify(given)} changed the route: ${req.url}` });
      }
    }
  }
  return out;
}

function printCounts(): void {
  if (counts.size === 0) return;
  const lines = [`\nProperty-based runs (seed ${SEED}, ${RUNS} per method): method / runs / ValidationError / sent`];
  let total = 0;
  for (const [name, c] of counts) {
    total += c.runs;
    lines.push(`  ${name.padEnd(26)} ${String(c.runs).padStart(5)} ${String(c.validation).padStart(5)} ${String(c.sent).padStart(5)}`);
  }
  lines.push(`  ${total} calls in all`);
  console.log(lines.join("\n"));
}
afterAll(printCounts);

const params = (): fc.Parameters<[Args]> => ({ seed: SEED, numRuns: RUNS, ...(PATH ? { path: PATH, endOnFailure: true } : {}) });

describe("the checks themselves", () => {
  it("catch a changed route, a bad body, another origin and a raw error", async ({ expect }) => {
    expect(contractProblems({ method: "GET", url: `${API}/v2/crawl/a/b`, body: undefined }, API)).not.toEqual([]);
    expect(contractProblems({ method: "POST", url: `${API}/v2/map`, body: { url: "https://a.test", limit: "ten" } }, API)).not.toEqual([]);
    expect(contractProblems({ method: "GET", url: "https://other.test/v2/crawl/x", body: undefined }, API)).not.toEqual([]);
    expect(contractProblems({ method: "POST", url: `${API}/v2/map`, body: { url: "example.com", limit: 10 } }, API)).toEqual([]);
    expect(routeOf({ method: "GET", url: `${API}/v2/crawl/..%2Fx`, body: undefined })?.params).toEqual({ id: "../x" });
    const scrape = METHODS.find((x) => x.name === "scrape") as Method;
    expect(await problemsOf(scrape, ["https://a.test", { formats: ["markdown"] }, undefined], false)).toEqual([]);
    expect(await problemsOf(scrape, ["https://a.test", { limit: 1n }, undefined], false)).toEqual([]);
    // A method that ignores its options argument and sends anyway: the check must blame "options argument". (scrape itself
    // now rejects these with a ValidationError, so a deliberately broken stand-in proves the check can fail.)
    const broken: Method = { ...scrape, call: (c, a) => c.scrape(a[0] as string, { formats: ["markdown"] }) };
    expect(await problemsOf(broken, ["https://a.test", { limit: 1n }, undefined], false)).toContainEqual(expect.objectContaining({ defect: "options argument" }));
    expect(await problemsOf(broken, ["https://a.test", "markdown", undefined], false)).toContainEqual(expect.objectContaining({ defect: "options argument" }));
  });
});

describe("every public method under generated arguments", () => {
  for (const method of METHODS) {
    it(`${method.name}: valid request or ValidationError with nothing sent, never a raw throw`, async () => {
      await fc.assert(
        fc.asyncProperty(method.args, async (a) => {
          const problems = await problemsOf(method, a);
          if (problems.length) throw new Error(problems.map((p) => `[${p.defect}] ${p.problem}`).join("\n"));
        }),
        params(),
      );
    }, 60_000);
  }
});
