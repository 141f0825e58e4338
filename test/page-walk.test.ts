/**
 * One page walk (`src/jobs/pages.ts` `walkPages`) for every reader of a job's
 * status pages: the document iterator (`crawlDocuments`) and the watcher's REST
 * polling, chosen outright (`transports: ["poll"]`) or reached as the fallback
 * when the server offers no event stream. The same scripted pages (loops, a
 * page sent twice, a document listed on two pages) give each of them the same
 * documents and the same end, so a reader that walks the pages its own way (a
 * loop of its own without the loop rules, say) fails here. The two schedules
 * of the walk (the waiters' `read`, the watcher's `poll`) are pinned read by
 * read. `test/architecture.test.ts` checks the same from the source: only
 * `jobs/pages.ts` reads pages in a loop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PaginationError, type WatcherOptions } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, tick, useJobTimers } from "./jobs-helpers.js";
import { collect, docIds } from "./watch-helpers.js";
import { FAST_WATCH } from "./support/fast-poll.js";

const doc = (n: number) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, sourceURL: `https://acme.test/${n}`, statusCode: 200 } });
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
/** A status page: `status`, the documents numbered `docs`, a `next` when given; counters 3 of 3 unless `counters` says otherwise. */
const page = (status: string, docs: number[], next?: string, counters = { completed: 3, total: 3 }) => ({
  success: true,
  status,
  ...counters,
  creditsUsed: 3,
  expiresAt: "2026-11-24T00:00:00.000Z",
  data: docs.map(doc),
  ...(next ? { next } : {}),
});

/** A reader of a job's pages: what it delivered, in order, and what it threw. */
type Reader = (s: Setup, id: string) => Promise<{ ids: string[]; thrown: unknown }>;

async function documents(s: Setup, id: string): Promise<{ ids: string[]; thrown: unknown }> {
  const ids: string[] = [];
  try {
    for await (const d of s.client.crawlDocuments(id)) ids.push(String(d.metadata.scrapeId));
    return { ids, thrown: undefined };
  } catch (thrown) {
    return { ids, thrown };
  }
}

function watched(options: WatcherOptions): Reader {
  return async (s, id) => {
    const { events, thrown } = await collect(s.client.watcher(id, { ...FAST_WATCH, ...options }));
    if (thrown === undefined) expect(events.at(-1)).toMatchObject({ type: "done" });
    return { ids: docIds(events), thrown };
  };
}

/** The readers, each with the schedule of the walk it reads by. */
const READERS: [name: string, schedule: "read" | "poll", read: Reader][] = [
  ["crawlDocuments", "read", documents],
  ["the watcher polling (transports: poll)", "poll", watched({ transports: ["poll"] })],
  ["the watcher falling back to polling (no event stream offered)", "poll", watched({ transports: ["sse", "poll"] })],
];

describe.each(TRANSPORTS)("one page walk over %s", (kind) => {
  let s: Setup | undefined;
  beforeEach(() => useJobTimers());
  afterEach(async () => {
    vi.useRealTimers();
    await s?.close();
    s = undefined;
  });

  /**
   * Answers the status reads of `id` by `answer` (given the read's number, from 1, and its URL); up to 50,
   * then 404, so a reader without the loop rules fails instead of looping forever. The watcher's event-stream
   * request gets a JSON answer (no stream offered) and is not counted.
   */
  async function serve(id: string, answer: (n: number, url: URL) => unknown): Promise<Setup> {
    s = await setup(kind);
    let n = 0;
    s.fake.addHook((req, url) => {
      if (req.method !== "GET" || url.pathname !== `/v2/crawl/${id}`) return undefined;
      if ((req.headers.get("accept") ?? "").includes("text/event-stream")) return json(page("scraping", []));
      return ++n > 50 ? new Response(JSON.stringify({ success: false, error: "loop" }), { status: 404 }) : json(answer(n, url));
    });
    return s;
  }

  /** The status reads of `id` (not the event-stream request), as paths. */
  const reads = (id: string) => s!.fake.requests.filter((r) => r.method === "GET" && r.pathname === `/v2/crawl/${id}` && !(r.headers.accept ?? "").includes("text/event-stream")).map((r) => r.path);
  /** The first read: the watcher states `skip=0`, the iterator leaves it to the server. */
  const first = (id: string, schedule: "read" | "poll") => (schedule === "poll" ? `/v2/crawl/${id}?skip=0` : `/v2/crawl/${id}`);

  describe("the loop rules and document identity, the same for every reader", () => {
    it.each(READERS)("%s: a finished job's next pointing to its own page is a PaginationError, after each document once", async (_, schedule, read) => {
      await serve("job-self", (_n, url) => page("completed", [1, 2], url.href));
      const { ids, thrown } = await drive(read(s!, "job-self"));
      expect(thrown).toBeInstanceOf(PaginationError);
      expect((thrown as PaginationError).reason).toBe("loop");
      expect(thrown).toMatchObject({ jobId: "job-self" });
      expect(ids).toEqual(["scrape-1", "scrape-2"]);
      expect(reads("job-self")).toEqual([first("job-self", schedule), first("job-self", schedule)]);
    });

    it.each(READERS)("%s: a next leading back to a page already read (A -> B -> A) is a PaginationError", async (_, schedule, read) => {
      await serve("job-ab", (_n, url) => {
        const b = url.searchParams.get("skip") === "1";
        return page("completed", [b ? 2 : 1], `${url.origin}/v2/crawl/job-ab${b ? "?skip=0&x=a" : "?skip=1"}`);
      });
      const { ids, thrown } = await drive(read(s!, "job-ab"));
      expect(thrown).toBeInstanceOf(PaginationError);
      expect((thrown as PaginationError).reason).toBe("loop");
      expect(ids).toEqual(["scrape-1", "scrape-2"]);
      expect(reads("job-ab")).toEqual([first("job-ab", schedule), "/v2/crawl/job-ab?skip=1", "/v2/crawl/job-ab?skip=0&x=a"]);
    });

    it.each(READERS)("%s: a finished job's page sent again under another next is a PaginationError, nothing repeated", async (_, _schedule, read) => {
      await serve("job-again", (_n, url) => page("completed", [1, 2], `${url.origin}/v2/crawl/job-again?skip=${Number(url.searchParams.get("skip") ?? 0) + 2}`));
      const { ids, thrown } = await drive(read(s!, "job-again"));
      expect(thrown).toBeInstanceOf(PaginationError);
      expect((thrown as PaginationError).reason).toBe("loop");
      expect(thrown).toMatchObject({ message: expect.stringContaining("the same page again") });
      expect(ids).toEqual(["scrape-1", "scrape-2"]);
      expect(reads("job-again")).toHaveLength(2);
    });

    it.each(READERS)("%s: a document the server lists on two pages is delivered once, and next is followed to the end", async (_, schedule, read) => {
      await serve("job-twice", (_n, url) => (url.searchParams.get("skip") === "2" ? page("completed", [2, 3]) : page("completed", [1, 2], `${url.origin}/v2/crawl/job-twice?skip=2`)));
      const { ids, thrown } = await drive(read(s!, "job-twice"));
      expect(thrown).toBeUndefined();
      expect(ids).toEqual(["scrape-1", "scrape-2", "scrape-3"]);
      expect(reads("job-twice")).toEqual([first("job-twice", schedule), "/v2/crawl/job-twice?skip=2"]);
    });
  });

  describe("the two schedules of the walk, read by read", () => {
    it.each(READERS)("%s: a running job's empty page with a next: the iterator follows the next after its pause, the watcher reads again from skip", async (_, schedule, read) => {
      const id = "job-empty-next";
      await serve(id, (n, url) => {
        const next = `${url.origin}/v2/crawl/${id}?skip=1&via=next`;
        return n === 1 ? page("scraping", [1], next) : n === 2 ? page("scraping", [], next) : page("completed", [2]);
      });
      const { ids, thrown } = await drive(read(s!, id));
      expect(thrown).toBeUndefined();
      expect(ids).toEqual(["scrape-1", "scrape-2"]);
      expect(reads(id)).toEqual([first(id, schedule), `/v2/crawl/${id}?skip=1&via=next`, schedule === "poll" ? `/v2/crawl/${id}?skip=1` : `/v2/crawl/${id}?skip=1&via=next`]);
    });

    it.each(READERS)("%s: after a running job's page with documents and no next, the iterator reads on at once, the watcher after its pause", async (_, schedule, read) => {
      const id = "job-no-next";
      await serve(id, (n) => (n === 1 ? page("scraping", [1]) : page("completed", [2])));
      const done = read(s!, id);
      // No fake time passes here: only a read without a pause can happen.
      for (let i = 0; i < 400 && reads(id).length < 2; i++) await tick();
      for (let i = 0; i < 20; i++) await tick();
      expect(reads(id)).toHaveLength(schedule === "poll" ? 1 : 2);
      const { ids, thrown } = await drive(done);
      expect(thrown).toBeUndefined();
      expect(ids).toEqual(["scrape-1", "scrape-2"]);
      expect(reads(id)).toEqual([first(id, schedule), `/v2/crawl/${id}?skip=1`]);
    });

    it.each(READERS)("%s: a finished job with all-zero counters: the iterator believes it at once, the watcher reads it a second time", async (_, schedule, read) => {
      const id = "job-zero";
      await serve(id, () => page("completed", [], undefined, { completed: 0, total: 0 }));
      const { ids, thrown } = await drive(read(s!, id));
      expect(thrown).toBeUndefined();
      expect(ids).toEqual([]);
      expect(reads(id)).toEqual(schedule === "poll" ? [first(id, schedule), first(id, schedule)] : [first(id, schedule)]);
    });
  });
});
