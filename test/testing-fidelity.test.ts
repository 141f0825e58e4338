/**
 * Fidelity of the fake service (`webdata/testing`):
 *
 * 1. Every endpoint's answers (v1 and v2, successes and the documented
 *    errors) conform to the response schemas of the service's OpenAPI
 *    documents (test/fixtures/openapi/), except where the API reference
 *    (§13, read from the server's source) says the documents are wrong;
 *    those cases are listed in DOCS_ARE_WRONG and must fail exactly there.
 * 2. The recorded exchanges of the real server (test/fixtures/recorded/) are
 *    the reference for status codes and error texts: every recording that
 *    does not depend on the recording server's setup or on a job it ran is
 *    replayed against the fake, which must answer the same status with the
 *    same error text.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { createFakeService, fakeJobs, type FakeService } from "../src/testing/index.js";
import { recorded } from "./helpers.js";
import { loadOpenApi, validate } from "./support/openapi.js";

type Doc = Record<string, unknown>;
const DOCS = { v1: loadOpenApi("v1-openapi"), v2: loadOpenApi("v2-openapi") };
const ORIGIN = "https://api.fake.test";

/** The response schema of `METHOD /vN/path` for `status`, or undefined when the document has none. */
function responseSchema(version: "v1" | "v2", method: string, docPath: string, status: number): Doc | undefined {
  const op = ((DOCS[version].paths as Doc)[docPath] as Doc | undefined)?.[method.toLowerCase()] as Doc | undefined;
  const res = (op?.responses as Doc | undefined)?.[String(status)] as Doc | undefined;
  return ((res?.content as Doc | undefined)?.["application/json"] as Doc | undefined)?.schema as Doc | undefined;
}

async function send(fake: FakeService, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fake.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { authorization: `Bearer ${fake.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: res.status, body: parsed };
}

/** One answer of the fake to check against the OpenAPI document. */
interface Case {
  /** `METHOD /vN/path` as in the document, plus what the case shows. */
  name: string;
  version: "v1" | "v2";
  method: "GET" | "POST" | "DELETE";
  /** Path in the document (`/crawl/{id}`). */
  docPath: string;
  /** The request path, after setup (ids filled in). */
  path: (ids: Ids) => string;
  body?: unknown;
  /** Faults or state before the request. */
  arrange?: (fake: FakeService) => void;
  status: number;
}

interface Ids {
  crawl: string;
  runningCrawl: string;
  batch: string;
  extract: string;
  agent: string;
  browser: string;
  research: string;
  llmstxt: string;
  v1Extract: string;
  v1Crawl: string;
  v1Batch: string;
}

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const SCRAPE = { url: "https://acme.test/about", formats: ["markdown"] };
const broke = (status: number) => (fake: FakeService) => fake.failNext(status);
const limited = (fake: FakeService) => fake.rateLimit();
const poor = (fake: FakeService) => {
  fake.team.creditsUsed = fake.team.planCredits;
};

const CASES: Case[] = [];
for (const version of ["v1", "v2"] as const) {
  const v = `/${version}`;
  const id = (k: keyof Ids) => (ids: Ids) => ids[version === "v1" && k === "crawl" ? "v1Crawl" : version === "v1" && k === "batch" ? "v1Batch" : k];
  CASES.push(
    { name: "POST /scrape", version, method: "POST", docPath: "/scrape", path: () => `${v}/scrape`, body: SCRAPE, status: 200 },
    { name: "POST /scrape out of credits", version, method: "POST", docPath: "/scrape", path: () => `${v}/scrape`, body: SCRAPE, arrange: poor, status: 402 },
    { name: "POST /scrape rate-limited", version, method: "POST", docPath: "/scrape", path: () => `${v}/scrape`, body: SCRAPE, arrange: limited, status: 429 },
    { name: "POST /scrape engines failed", version, method: "POST", docPath: "/scrape", path: () => `${v}/scrape`, body: { url: "https://unknown-host.example/" }, status: 500 },
    { name: "POST /map", version, method: "POST", docPath: "/map", path: () => `${v}/map`, body: { url: "https://acme.test" }, status: 200 },
    { name: "POST /map rate-limited", version, method: "POST", docPath: "/map", path: () => `${v}/map`, body: { url: "https://acme.test" }, arrange: limited, status: 429 },
    { name: "POST /crawl", version, method: "POST", docPath: "/crawl", path: () => `${v}/crawl`, body: { url: "https://acme.test", limit: 2 }, status: 200 },
    { name: "POST /crawl out of credits", version, method: "POST", docPath: "/crawl", path: () => `${v}/crawl`, body: { url: "https://acme.test" }, arrange: poor, status: 402 },
    { name: "GET /crawl/{id} completed", version, method: "GET", docPath: "/crawl/{id}", path: (ids) => `${v}/crawl/${id("crawl")(ids)}`, status: 200 },
    { name: "GET /crawl/{id} page 1", version, method: "GET", docPath: "/crawl/{id}", path: (ids) => `${v}/crawl/${id("crawl")(ids)}?limit=1`, status: 200 },
    { name: "GET /crawl/{id} server error", version, method: "GET", docPath: "/crawl/{id}", path: (ids) => `${v}/crawl/${id("crawl")(ids)}`, arrange: broke(500), status: 500 },
    { name: "GET /crawl/{id}/errors", version, method: "GET", docPath: "/crawl/{id}/errors", path: (ids) => `${v}/crawl/${id("crawl")(ids)}/errors`, status: 200 },
    { name: "GET /crawl/active", version, method: "GET", docPath: "/crawl/active", path: () => `${v}/crawl/active`, status: 200 },
    { name: "DELETE /crawl/{id} unknown", version, method: "DELETE", docPath: "/crawl/{id}", path: () => `${v}/crawl/${UNKNOWN}`, status: 404 },
    { name: "POST /batch/scrape", version, method: "POST", docPath: "/batch/scrape", path: () => `${v}/batch/scrape`, body: { urls: ["https://acme.test/about"] }, status: 200 },
    { name: "GET /batch/scrape/{id}", version, method: "GET", docPath: "/batch/scrape/{id}", path: (ids) => `${v}/batch/scrape/${id("batch")(ids)}`, status: 200 },
    { name: "GET /batch/scrape/{id}/errors", version, method: "GET", docPath: "/batch/scrape/{id}/errors", path: (ids) => `${v}/batch/scrape/${id("batch")(ids)}/errors`, status: 200 },
    { name: "DELETE /batch/scrape/{id} unknown", version, method: "DELETE", docPath: "/batch/scrape/{id}", path: () => `${v}/batch/scrape/${UNKNOWN}`, status: 404 },
    { name: "POST /search", version, method: "POST", docPath: "/search", path: () => `${v}/search`, body: { query: "widgets", limit: 3 }, status: 200 },
    { name: "POST /extract", version, method: "POST", docPath: "/extract", path: () => `${v}/extract`, body: { urls: ["https://acme.test/about"], prompt: "the company name" }, status: 200 },
    { name: "POST /extract without urls or prompt", version, method: "POST", docPath: "/extract", path: () => `${v}/extract`, body: {}, status: 400 },
    { name: "GET /extract/{id}", version, method: "GET", docPath: "/extract/{id}", path: (ids) => `${v}/extract/${version === "v1" ? ids.v1Extract : ids.extract}`, status: 200 },
    { name: "GET /team/credit-usage", version, method: "GET", docPath: "/team/credit-usage", path: () => `${v}/team/credit-usage`, status: 200 },
    { name: "GET /team/token-usage", version, method: "GET", docPath: "/team/token-usage", path: () => `${v}/team/token-usage`, status: 200 },
    { name: "GET /team/queue-status", version, method: "GET", docPath: "/team/queue-status", path: () => `${v}/team/queue-status`, status: 200 },
  );
}
CASES.push(
  { name: "DELETE /crawl/{id} running", version: "v2", method: "DELETE", docPath: "/crawl/{id}", path: (ids) => `/v2/crawl/${ids.runningCrawl}`, status: 200 },
  { name: "GET /team/credit-usage/historical", version: "v2", method: "GET", docPath: "/team/credit-usage/historical", path: () => "/v2/team/credit-usage/historical", status: 200 },
  { name: "GET /team/token-usage/historical", version: "v2", method: "GET", docPath: "/team/token-usage/historical", path: () => "/v2/team/token-usage/historical", status: 200 },
  { name: "POST /agent", version: "v2", method: "POST", docPath: "/agent", path: () => "/v2/agent", body: { prompt: "Find the gadget's price" }, status: 200 },
  { name: "POST /agent rate-limited", version: "v2", method: "POST", docPath: "/agent", path: () => "/v2/agent", body: { prompt: "x" }, arrange: limited, status: 429 },
  { name: "GET /agent/{jobId}", version: "v2", method: "GET", docPath: "/agent/{jobId}", path: (ids) => `/v2/agent/${ids.agent}`, status: 200 },
  { name: "DELETE /agent/{jobId}", version: "v2", method: "DELETE", docPath: "/agent/{jobId}", path: (ids) => `/v2/agent/${ids.agent}`, status: 200 },
  { name: "POST /browser", version: "v2", method: "POST", docPath: "/browser", path: () => "/v2/browser", body: {}, status: 200 },
  { name: "GET /browser", version: "v2", method: "GET", docPath: "/browser", path: () => "/v2/browser", status: 200 },
  { name: "POST /browser/{sessionId}/execute", version: "v2", method: "POST", docPath: "/browser/{sessionId}/execute", path: (ids) => `/v2/browser/${ids.browser}/execute`, body: { code: "console.log(1)" }, status: 200 },
  { name: "DELETE /browser/{sessionId}", version: "v2", method: "DELETE", docPath: "/browser/{sessionId}", path: (ids) => `/v2/browser/${ids.browser}`, status: 200 },
  { name: "POST /deep-research", version: "v1", method: "POST", docPath: "/deep-research", path: () => "/v1/deep-research", body: { query: "widgets" }, status: 200 },
  { name: "GET /deep-research/{id}", version: "v1", method: "GET", docPath: "/deep-research/{id}", path: (ids) => `/v1/deep-research/${ids.research}`, status: 200 },
  { name: "GET /deep-research/{id} unknown", version: "v1", method: "GET", docPath: "/deep-research/{id}", path: () => `/v1/deep-research/${UNKNOWN}`, status: 404 },
  { name: "POST /llmstxt", version: "v1", method: "POST", docPath: "/llmstxt", path: () => "/v1/llmstxt", body: { url: "https://acme.test" }, status: 200 },
  { name: "GET /llmstxt/{id}", version: "v1", method: "GET", docPath: "/llmstxt/{id}", path: (ids) => `/v1/llmstxt/${ids.llmstxt}`, status: 200 },
  { name: "GET /llmstxt/{id} unknown", version: "v1", method: "GET", docPath: "/llmstxt/{id}", path: () => `/v1/llmstxt/${UNKNOWN}`, status: 404 },
);

/**
 * Where the OpenAPI document is wrong (the API reference, read from the
 * server's source, and the recordings win) and the fake follows the server:
 * every schema problem of the case must be one of these, and there must be one.
 */
const ACTIVE_CRAWLS = {
  reason: "recorded crawl-v2-active.json / crawl-v1-active.json: `{ success, crawls }` without `data`, items without `status`",
  problems: [/^\$\.data: required$/, /^\$\.crawls\[\d+\]\.status: required$/],
};
const DOCS_ARE_WRONG: Record<string, { reason: string; problems: RegExp[] }> = {
  "v1 GET /crawl/active": ACTIVE_CRAWLS,
  "v2 GET /crawl/active": ACTIVE_CRAWLS,
  "v2 GET /extract/{id}": { reason: "reference §8: `data` is `[]` until the job completes", problems: [/^\$\.data: expected object, got array$/] },
};

let fake: FakeService;
let ids: Ids;

beforeAll(async () => {
  fake = createFakeService();
  const start = async (path: string, body: unknown) => ((await send(fake, "POST", path, body)).body as { id: string }).id;
  const crawl = await start("/v2/crawl", { url: "https://acme.test", limit: 3 });
  const runningCrawl = await start("/v2/crawl", { url: "https://acme.test", limit: 20 });
  const batch = await start("/v2/batch/scrape", { urls: ["https://acme.test/about", "https://acme.test/contact"] });
  const v1Crawl = await start("/v1/crawl", { url: "https://acme.test", limit: 2 });
  const v1Batch = await start("/v1/batch/scrape", { urls: ["https://acme.test/about"] });
  for (const job of [crawl, batch, v1Crawl, v1Batch]) fakeJobs(fake).finish(job);
  fakeJobs(fake).configure({ pagesPerPoll: 0 });
  const extract = await start("/v2/extract", { urls: ["https://acme.test/about"], prompt: "name" });
  const v1Extract = await start("/v1/extract", { urls: ["https://acme.test/about"], prompt: "name" });
  const agent = await start("/v2/agent", { prompt: "price" });
  const research = await start("/v1/deep-research", { query: "widgets" });
  const llmstxt = await start("/v1/llmstxt", { url: "https://acme.test" });
  const browser = await start("/v2/browser", {});
  ids = { crawl, runningCrawl, batch, extract, agent, browser, research, llmstxt, v1Extract, v1Crawl, v1Batch };
});

describe("the fake's answers conform to the OpenAPI response schemas", () => {
  for (const c of CASES) {
    it(`${c.version} ${c.name} -> ${c.status}`, async () => {
      const before = fake.team.creditsUsed;
      c.arrange?.(fake);
      const res = await send(fake, c.method, c.path(ids), c.body);
      fake.team.creditsUsed = Math.min(fake.team.creditsUsed, before);
      fake.clearFaults();
      expect(res.status, JSON.stringify(res.body)).toBe(c.status);
      const schema = responseSchema(c.version, c.method, c.docPath, c.status);
      expect(schema, `the ${c.version} document has a schema for ${c.method} ${c.docPath} ${c.status}`).toBeDefined();
      const problems = validate(DOCS[c.version], schema!, res.body);
      const known = DOCS_ARE_WRONG[`${c.version} ${c.name}`];
      if (!known) expect(problems, JSON.stringify(res.body).slice(0, 400)).toEqual([]);
      else {
        expect(problems.length, known.reason).toBeGreaterThan(0);
        for (const p of problems) expect(known.problems.some((r) => r.test(p)), `${p} (${known.reason})`).toBe(true);
      }
    });
  }
});

// --- 2. the recordings as the reference -------------------------------------------------------

const DIR = fileURLToPath(new URL("./fixtures/recorded/", import.meta.url));
const RECORDED_SITE = "http://127.0.0.1:8080";

/**
 * Recordings not replayed, and why: they show the recording server's own
 * setup (no AI, search or database keys; auth off), a target the fake does
 * not have, or a job that server ran (ids and timings of its own).
 */
function skipReason(file: string, ex: { request: { path: string } }): string | undefined {
  if (/status-500-unknown-id/.test(file)) return "the recording server's setup (no database: the reference says 404)";
  if (/no-ai-key|no-search-provider|no-db|self-hosted|historical|concurrency-check|queue-status|connection-refused|dns-failure|unresolvable/.test(file)) return "the recording server's setup";
  if (/01a2[0-9a-f]{4}-/.test(ex.request.path)) return "a job of the recording server";
  if (/-start|-active|ongoing|token-usage|credit-usage|websocket|-markdown|multi-formats|screenshot|json-format|target-404|text-plain|no-auth-header|^map-v[12]-(default|limit|search|sitemap|ignore)/.test(file)) return "content of the recording server's site and jobs (shapes are checked in recorded.test.ts)";
  if (/agent-signup-v2-429/.test(file)) return "needs three signups first (checked below)";
  return undefined;
}

/** The recorded request with the recorded site's URLs moved to the fake's fixture web. */
function toFakeBody(body: unknown): unknown {
  if (typeof body === "string") return body;
  return JSON.parse(JSON.stringify(body ?? null).replaceAll(RECORDED_SITE, "https://acme.test")) as unknown;
}

describe("the fake answers as the recorded real server does (status and error text)", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".json") && !f.startsWith("crawl-websocket-"));
  const skipped = new Map(files.map((f) => [f, skipReason(f, JSON.parse(readFileSync(`${DIR}${f}`, "utf8")) as { request: { path: string } })] as const).filter(([, why]) => why !== undefined));
  const replayed = files.filter((f) => !skipped.has(f));

  it("replays every recording that does not depend on the recording server (the rest are listed with a reason)", () => {
    expect(replayed.length).toBeGreaterThanOrEqual(30);
    expect(replayed.length + skipped.size).toBe(files.length);
  });

  for (const file of replayed) {
    it(file, async () => {
      const ex = await recorded(file);
      const f = createFakeService({ authDisabled: true }); // recorded with authentication off
      const body = toFakeBody(ex.request.body);
      const res = await f.fetch(`${ORIGIN}${ex.request.path}`, {
        method: ex.request.method,
        headers: { authorization: `Bearer ${f.apiKey}`, ...(body === null || body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === null || body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      expect(res.status).toBe(ex.response.status);
      const text = await res.text();
      const want = ex.response.body as Record<string, unknown> | string;
      if (typeof want === "string") {
        expect(text).toBe(want);
        return;
      }
      const got = JSON.parse(text) as Record<string, unknown>;
      // Error ids (32 hex digits) differ from run to run.
      const words = (v: unknown) => (typeof v === "string" ? v.replace(/[0-9a-f]{32}/g, "<id>") : v);
      if (typeof want.error === "string") expect(words(got.error)).toBe(words(want.error));
      if (typeof want.code === "string") expect(got.code).toBe(want.code);
      if ("success" in want) expect(got.success).toBe(want.success);
    });
  }

  // Cancels of the recording server's jobs, replayed on a job of the fake in the same state.
  const CANCELS: Record<string, "finished" | "running" | "cancelled"> = {
    "crawl-v1-cancel-finished-409.json": "finished",
    "crawl-v2-cancel-finished-409.json": "finished",
    "batch-scrape-v2-cancel-finished.json": "finished",
    "crawl-v2-cancel-running.json": "running",
    "crawl-v2-cancel-cancelled-again.json": "cancelled",
  };
  for (const [file, state] of Object.entries(CANCELS)) {
    it(`${file} (on a ${state} job of the fake)`, async () => {
      const ex = await recorded(file);
      const f = createFakeService({ authDisabled: true });
      const [, version, kind] = /^\/(v[12])\/(crawl|batch\/scrape)\//.exec(ex.request.path) ?? [];
      const start = await f.fetch(`${ORIGIN}/${version}/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(kind === "crawl" ? { url: "https://acme.test", limit: 5 } : { urls: ["https://acme.test/about"] }),
      });
      const { id } = (await start.json()) as { id: string };
      if (state === "finished") fakeJobs(f).finish(id);
      if (state === "cancelled") fakeJobs(f).cancel(id);
      const res = await f.fetch(`${ORIGIN}${ex.request.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, id)}`, { method: "DELETE" });
      expect(res.status).toBe(ex.response.status);
      expect(await res.json()).toEqual(ex.response.body);
    });
  }

  it("agent-signup-v2-429-ip-limit.json: the fourth signup of the day", async () => {
    const ex = await recorded("agent-signup-v2-429-ip-limit.json");
    const f = createFakeService();
    let res: Response | undefined;
    for (let i = 0; i < 4; i++) {
      res = await f.fetch(`${ORIGIN}/v2/agent-signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...(ex.request.body as object), email: `owner${i}@example.com` }) });
    }
    expect(res!.status).toBe(429);
    expect(((await res!.json()) as { error: string }).error).toBe((ex.response.body as { error: string }).error);
  });
});
