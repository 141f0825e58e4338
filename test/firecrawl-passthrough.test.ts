/**
 * The official methods whose routes are not webdata's own operations (`getAgentThread`, `developerSearch`,
 * `findTools`, `firecrawl.research.*`, `scrape({ alexandria })`): the drop-in sends the request the official
 * client sends and the server's answer decides. Both clients at the same served fake: the
 * same method, path, query and body (less the official `origin` tag), and the same `status`, `code` and
 * `details` of the fake's answer (404 for a route it lacks, 400 for a body it refuses). An argument the
 * official client refuses itself is refused with its words, nothing sent.
 */
import OfficialFirecrawl from "@mendable/firecrawl-js";
import { afterEach, describe, expect, it } from "vitest";
import type { Firecrawl } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl } from "../src/firecrawl/node.js";
import { setup, type Setup } from "./helpers.js";

let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function both(): Promise<{ official: OfficialFirecrawl; ours: Firecrawl; fake: Setup["fake"] }> {
  s = await setup("undici");
  return { official: new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url }), ours: new NodeFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" }), fake: s.fake };
}

interface Failure {
  status?: unknown;
  code?: unknown;
  details?: unknown;
  message: string;
}
async function failure(p: Promise<unknown>): Promise<Failure> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as Failure | undefined;
  expect(err).toBeInstanceOf(Error);
  return { status: err!.status, code: err!.code, details: err!.details, message: err!.message };
}

/** A request as the server reads it, less the official client's `origin` tag (its name and version; webdata sends none). */
function wire(r: { method: string; path: string; body: unknown; headers: Record<string, string | undefined> }): unknown {
  const url = new URL(r.path, "http://x");
  url.searchParams.delete("origin");
  const body = r.body && typeof r.body === "object" ? Object.fromEntries(Object.entries(r.body).filter(([k]) => k !== "origin")) : r.body;
  return { method: r.method, path: url.pathname + url.search, body, requestId: r.headers["x-request-id"] };
}

type Call = (c: Firecrawl) => Promise<unknown>;
const CALLS: [string, Call][] = [
  ["getAgentThread", (c) => c.getAgentThread("0190f2a4-0000-7000-8000-00000000000a", { includeData: true })],
  ["getAgentThread (no data)", (c) => c.getAgentThread("thread-1")],
  ["developerSearch", (c) => c.developerSearch("react hooks", { k: 3, minStars: 10, maxStars: 900, repos: ["a/b"], types: ["issue"], skills: "only" })],
  ["findTools", (c) => c.findTools({ urls: ["https://acme.test/"], level: "tools", limit: 5 })],
  ["research.searchPapers", (c) => c.research.searchPapers("crispr base editing", { k: 2, authors: ["A. B", "C"], categories: ["q-bio.GN"], from: "2020-01-01" })],
  ["research.getPaper", (c) => c.research.getPaper("arxiv:2101.00001/v2", { query: "methods", k: 1 })],
  ["research.getPaper (metadata)", (c) => c.research.getPaper("pmid:123")],
  ["research.similarPapers", (c) => c.research.similarPapers("p1", { intent: "follow-ups", mode: "citers", k: 2, rerank: true, anchor: ["p2", "p3"] })],
  ["research.searchGithub", (c) => c.research.searchGithub("undici proxy", { k: 2 })],
];

describe("a method sends what the official client sends; the server's answer decides", () => {
  it.each(CALLS)("%s: the same request, the same status, code and details", async (_name, call) => {
    const { official, ours, fake } = await both();
    const want = await failure(call(official as unknown as Firecrawl));
    const sentByOfficial = fake.requests.map(wire);
    const got = await failure(call(ours));
    const sentByUs = fake.requests.slice(sentByOfficial.length).map(wire);
    expect(sentByOfficial).toHaveLength(1);
    // webdata sends an x-request-id on every request: a random UUID where the official client sends none or a random one.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(sentByUs).toEqual(sentByOfficial.map((w) => {
      const id = (w as { requestId?: string }).requestId;
      return { ...(w as object), requestId: id === undefined || uuid.test(id) ? expect.stringMatching(uuid) : id };
    }));
    expect(want.status).toBeGreaterThanOrEqual(400);
    expect({ status: got.status, code: got.code, details: got.details }).toEqual({ status: want.status, code: want.code, details: want.details });
    expect(got.message).not.toContain("not supported");
  });

  it("scrape({ alexandria }): the official catalogue request (x-request-id the caller's), the server's 400 with the official fields", async () => {
    const { official, ours, fake } = await both();
    const request = { alexandria: { provider: "p", capability: "c", options: { a: 1 } }, timeout: 1000, requestId: "req-1" };
    const want = await failure(official.scrape(request));
    const got = await failure(ours.scrape(request)); // official code compiles as it is
    const [a, b] = fake.requests;
    expect(wire(b!)).toEqual(wire(a!));
    expect([a!.headers["x-request-id"], b!.headers["x-request-id"]]).toEqual(["req-1", "req-1"]);
    expect({ status: got.status, code: got.code, details: got.details }).toEqual({ status: want.status, code: want.code, details: want.details });
    // With URL scrape options beside it, both refuse it before sending, with the official words.
    const mixed = { alexandria: { provider: "p", capability: "c" }, formats: ["markdown"] };
    expect((await failure(official.scrape(mixed as never))).message).toBe("Provide an alexandria request without URL scrape options");
    expect((await failure(ours.scrape(mixed as never))).message).toContain("Provide an alexandria request without URL scrape options");
    expect(fake.requests).toHaveLength(2);
  });

  it("a server that serves the routes answers both alike: the same results", async () => {
    const { official, ours, fake } = await both();
    const thread = { success: true, thread: { id: "t1", turns: [] } };
    const developer = { success: true, results: [{ id: "r1", type: "issue" }] };
    const papers = { success: true, results: [{ id: "p1", title: "On editing" }] };
    const tools = { success: true, scrape_id: "s1", data: { creditsCost: 0, alexandria: [{ provider: "firecrawl", capability: "find-tools", creditsCost: 0, data: { level: "tools", items: [], total: 0, next: null } }] } };
    const answer = () => {
      fake.inject({ match: "/v2/agent/threads/t1", status: 200, body: thread });
      fake.inject({ match: "/v2/search/developer", status: 200, body: developer });
      fake.inject({ match: "/v2/search/research/papers", status: 200, body: papers });
      fake.inject({ match: "/v2/scrape", status: 200, body: tools });
    };
    const run = async (c: Firecrawl) => [await c.getAgentThread("t1"), await c.developerSearch("hooks"), await c.research.searchPapers("editing"), await c.findTools({ level: "tools" })];
    answer();
    const want = await run(official as unknown as Firecrawl);
    answer();
    const got = await run(ours);
    expect(want).toEqual([thread, developer, papers, tools.data.alexandria[0]!.data]);
    expect(ours.research).toBe(ours.research); // one object, as the official client's property
    expect(got).toEqual(want);
  });

  it("a research error in the problem format (type, title, detail): the official code (its type), details and words", async () => {
    const { official, ours, fake } = await both();
    const problem = { type: "paper_not_found", title: "Not Found", detail: "No paper with id pmid:9" };
    const want = await (fake.inject({ match: "/v2/search/research/papers/pmid%3A9", status: 404, body: problem }), failure(official.research.getPaper("pmid:9")));
    const got = await (fake.inject({ match: "/v2/search/research/papers/pmid%3A9", status: 404, body: problem }), failure(ours.research.getPaper("pmid:9")));
    expect(want).toMatchObject({ status: 404, code: "paper_not_found", details: problem, message: "No paper with id pmid:9" });
    expect({ status: got.status, code: got.code, details: got.details }).toEqual({ status: want.status, code: want.code, details: want.details });
    expect(got.message).toContain(want.message);
  });

  it("an argument the official client refuses itself: its words, no status, nothing sent", async () => {
    const { official, ours, fake } = await both();
    const cases: [string, Call][] = [
      ["query cannot be empty", (c) => c.developerSearch("  ")],
      ["query cannot be empty", (c) => c.research.searchPapers("")],
      ["k must be positive", (c) => c.research.searchPapers("q", { k: 0 })],
      ["id cannot be empty", (c) => c.research.getPaper(" ")],
      ["k is only valid together with query", (c) => c.research.getPaper("p", { k: 2 } as never)],
      ["intent cannot be empty", (c) => c.research.similarPapers("p", { intent: "" })],
      ["query cannot be empty", (c) => c.research.searchGithub("")],
    ];
    for (const [words, call] of cases) {
      expect((await failure(call(official as unknown as Firecrawl))).message).toBe(words);
      const got = await failure(call(ours));
      expect(got.message).toContain(words);
      expect(got.status).toBeUndefined();
    }
    expect(fake.requests).toHaveLength(0);
  });
});
