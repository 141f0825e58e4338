/**
 * Transport parity: every hostile case runs over the `fetch` path (the portable
 * client over the runtime's own `fetch`, as browsers, Workers, Deno and Bun
 * send) and the undici path (the Node client), against loopback servers built
 * to misbehave. Each case reports one outcome per transport: the class of what
 * came back, how many requests each origin received, and whether a secret (the
 * key, a credential header, a URL password) appears in any string the SDK
 * produced. The two outcomes must be equal, and each must be the one the case
 * expects. The table of outcomes is printed at the end of the run.
 *
 * Binary WebSocket frames are covered over both transports in
 * `test/watch-ws-binary.test.ts`; the key echoed by a server in
 * `test/secrets.test.ts`.
 */
import { inspect, format } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  PaginationError,
  RedirectError,
  ValidationError,
  WebData as PortableWebData,
  type ClientOptions,
  type Document,
} from "../src/index.js";
import { WebData as NodeWebData, type NodeClientOptions } from "../src/node.js";
import { TRANSPORTS, type TransportKind } from "./helpers.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { capture, json, serve, stringsOf, type Served } from "./support/loopback.js";

const KEY = "fc-0parity5ecret7e57a11c0de9f3b2a1";
const GATEWAY_SECRET = "cf-access-51de5ecret-0f-the-gateway";
const PASSWORD = "hunter2-url-password";
const SECRETS = [KEY, GATEWAY_SECRET, PASSWORD];
const JOB = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
const OTHER_JOB = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
const doc = (id: string): Document => ({ markdown: `# ${id}`, metadata: { sourceURL: `https://site.test/${id}`, statusCode: 200, scrapeId: id } }) as Document;
const status = (s: string, data: Document[], next?: string) => ({ success: true, status: s, completed: 3, total: 3, creditsUsed: 3, expiresAt: "2030-01-01T00:00:00Z", data, ...(next ? { next } : {}) });

/** What one case produced over one transport. */
interface Outcome {
  /** The error's class, or `ok: <summary>` for a result. */
  result: string;
  /** Requests each origin received, in the case's order (`api`, then any other). */
  requests: number[];
  /** True when a secret appears in any string the SDK produced (result, error, log lines). */
  leaked: boolean;
}

interface Hooks {
  /** Options for both clients. */
  options?: ClientOptions;
  /** The `fetch` path's `fetch` (default: the runtime's own). */
  fetch?: typeof globalThis.fetch;
  /** The undici path's dispatcher (default: the Node client's pool). */
  dispatcher?: NodeClientOptions["dispatcher"];
}

function clientFor(kind: TransportKind, url: string, hooks: Hooks, logger: ClientOptions["logger"]): PortableWebData {
  const options: ClientOptions = { apiKey: KEY, apiUrl: url, maxRetries: 0, timeoutMs: 5_000, logger, logLevel: "debug", ...hooks.options };
  return kind === "undici" ? new NodeWebData({ ...options, dispatcher: hooks.dispatcher }) : new PortableWebData({ ...options, fetch: hooks.fetch });
}

/** Runs `call` over `kind` and describes what came back. */
async function outcome(kind: TransportKind, origins: Served[], hooks: Hooks, call: (c: PortableWebData) => Promise<unknown>, summary: (v: unknown) => string = () => "ok"): Promise<Outcome & { value: unknown }> {
  const log = capture();
  let value: unknown;
  let result: string;
  try {
    value = await call(clientFor(kind, origins[0]!.url, hooks, log.logger));
    result = `ok: ${summary(value)}`;
  } catch (err) {
    value = err;
    result = err instanceof Error ? err.constructor.name : typeof err;
  }
  const strings = [...stringsOf(value), ...log.lines];
  return { result, requests: origins.map((o) => o.requests.length), leaked: strings.some((s) => SECRETS.some((x) => s.includes(x))), value };
}

/** Construction of a client over `kind` (no server): the class of what was thrown, and whether its strings hold a secret. */
function construct(kind: TransportKind, options: ClientOptions): Outcome & { value: unknown } {
  try {
    const c = kind === "undici" ? new NodeWebData(options) : new PortableWebData(options);
    return { result: "ok", requests: [], leaked: false, value: c };
  } catch (err) {
    return { result: err instanceof Error ? err.constructor.name : typeof err, requests: [], leaked: stringsOf(err).some((s) => SECRETS.some((x) => s.includes(x))), value: err };
  }
}

const table: { name: string; outcome: Record<string, Outcome> }[] = [];

/** Runs a case over both transports, checks each outcome and their equality, and records the row. */
function parity(name: string, run: (kind: TransportKind) => Promise<Outcome & { value: unknown }>, check: (o: Outcome & { value: unknown }, kind: TransportKind) => void): void {
  it(name, async () => {
    const row: Record<string, Outcome> = {};
    for (const kind of TRANSPORTS) {
      const o = await run(kind);
      check(o, kind);
      expect(o.leaked, `${kind}: a secret in what the SDK produced`).toBe(false);
      row[kind] = { result: o.result, requests: o.requests, leaked: o.leaked };
    }
    expect(row.fetch).toEqual(row.undici);
    table.push({ name, outcome: row });
  });
}

afterAll(() => {
  const lines = ["| case | fetch | undici |", "|---|---|---|"];
  const cell = (o: Outcome) => `${o.result}; requests ${o.requests.join("/") || "0"}; ${o.leaked ? "LEAK" : "no secret"}`;
  for (const r of table) lines.push(`| ${r.name} | ${cell(r.outcome.fetch!)} | ${cell(r.outcome.undici!)} |`);
  if (process.env.PARITY_TABLE) console.log(lines.join("\n"));
});

describe("transport parity: credentials", () => {
  parity(
    "a fetch wrapper or dispatcher whose error quotes the request headers",
    async (kind) => {
      const api = await serve((_q, res) => json(res, 200, { success: true, data: doc("a") }));
      let calls = 0;
      const echo = (headers: unknown) => {
        calls += 1;
        const cause = Object.assign(new Error(`upstream said: ${JSON.stringify(headers)}`), { code: "EPROXY", headers });
        return Object.assign(new TypeError(`proxy agent failed sending ${JSON.stringify(headers)}`, { cause }), { request: { headers } });
      };
      const hooks: Hooks = {
        options: { headers: { "cf-access-client-secret": GATEWAY_SECRET } },
        fetch: async (_input, init) => {
          throw echo(init?.headers);
        },
        dispatcher: {
          dispatch(opts: { headers?: unknown }, handler: { onError(err: Error): void }) {
            queueMicrotask(() => handler.onError(echo(opts.headers)));
            return true;
          },
        } as unknown as NodeClientOptions["dispatcher"],
      };
      try {
        const o = await outcome(kind, [api], hooks, (c) => c.scrape("https://site.test/"));
        return { ...o, requests: [calls] };
      } finally {
        await api.close();
      }
    },
    (o) => {
      expect(o.result).toBe("ConnectionError");
      expect(o.requests).toEqual([1]);
      const err = o.value as Error & { cause: Error & { code?: string; cause?: Error } };
      expect(err.message).toContain("[redacted]");
      expect(err.cause.message).toContain("[redacted]");
      expect(err.cause.cause?.message).toContain("[redacted]");
      expect(err.cause.cause && (err.cause.cause as { code?: string }).code).toBe("EPROXY"); // the copy keeps what a program reads
      for (const text of [String(err), JSON.stringify(err), inspect(err), inspect(err, { customInspect: false, showHidden: true, depth: 10 }), format("%o", err), err.stack ?? ""]) {
        expect(SECRETS.some((s) => text.includes(s))).toBe(false);
      }
    },
  );

  for (const [name, call] of [
    ["scrape", (c: PortableWebData) => c.scrape("https://site.test/")],
    ["startCrawl (an endpoint that maps its own errors)", (c: PortableWebData) => c.startCrawl("https://site.test/")],
  ] as const) {
    parity(
      `an error answer to ${name} that echoes the gateway's credential header is redacted`,
      async (kind) => {
        const api = await serve((req, res) => json(res, 403, { success: false, error: `gateway refused ${String(req.headers["cf-access-client-secret"])}` }));
        try {
          return await outcome(kind, [api], { options: { headers: { "cf-access-client-secret": GATEWAY_SECRET } } }, call);
        } finally {
          await api.close();
        }
      },
      (o) => {
        expect(o.result).toBe("PermissionDeniedError");
        expect((o.value as Error).message).toContain("gateway refused [redacted]");
      },
    );
  }

  for (const [label, bad] of [["CR/LF", `${KEY}\r\nx-injected: 1`], ["NUL", `${KEY}\u0000`], ["non-ASCII", `${KEY}é`]] as const) {
    parity(
      `an apiKey with ${label} is refused at construction`,
      async (kind) => construct(kind, { apiKey: bad, apiUrl: "http://127.0.0.1:9" }),
      (o) => {
        expect(o.result).toBe("ValidationError");
        expect((o.value as ValidationError).issues.map((i) => i.path)).toEqual(["apiKey"]);
      },
    );
  }

  parity(
    "an apiUrl with a user name and password is refused at construction, the password never shown",
    async (kind) => construct(kind, { apiKey: KEY, apiUrl: `http://user:${PASSWORD}@127.0.0.1:9/base` }),
    (o) => {
      expect(o.result).toBe("ValidationError");
      expect((o.value as Error).message).toContain("http://127.0.0.1:9/base");
      expect((o.value as Error).message).toContain("apiKey");
    },
  );

  parity(
    "an apiUrl from the environment with a password is refused the same way",
    async (kind) => {
      process.env.WEBDATA_API_URL = `https://user:${PASSWORD}@gateway.test`;
      try {
        return construct(kind, { apiKey: KEY });
      } finally {
        delete process.env.WEBDATA_API_URL;
      }
    },
    (o) => expect(o.result).toBe("ValidationError"),
  );

  parity(
    "a CR/LF in a per-call header value is a ValidationError, nothing sent, no retry",
    async (kind) => {
      const api = await serve((_q, res) => json(res, 200, { success: true, data: doc("a") }));
      try {
        return await outcome(kind, [api], { options: { maxRetries: 2 } }, (c) => c.scrape("https://site.test/", {}, { headers: { "x-trace": `a\r\nauthorization: Bearer ${GATEWAY_SECRET}` } }));
      } finally {
        await api.close();
      }
    },
    (o) => {
      expect(o.result).toBe("ValidationError");
      expect(o.requests).toEqual([0]);
      expect((o.value as ValidationError).issues[0]?.path).toBe("headers.x-trace");
    },
  );

  parity(
    "a NUL in a client header value is refused at construction",
    async (kind) => construct(kind, { apiKey: KEY, apiUrl: "http://127.0.0.1:9", headers: { "x-gateway": `${GATEWAY_SECRET}\u0000` } }),
    (o) => expect(o.result).toBe("ValidationError"),
  );
});

describe("transport parity: redirects", () => {
  for (const code of [301, 302, 303, 307, 308]) {
    parity(
      `a ${code} to another origin is a RedirectError naming it; nothing reaches that origin`,
      async (kind) => {
        const other = await serve((_q, res) => json(res, 200, { success: true, data: doc("elsewhere") }));
        const api = await serve((_q, res) => void res.writeHead(code, { location: `${other.url}/v2/scrape` }).end());
        try {
          return await outcome(kind, [api, other], { options: { maxRetries: 2 } }, (c) => c.scrape("https://site.test/", { formats: ["markdown"] }));
        } finally {
          await api.close();
          await other.close();
        }
      },
      (o) => {
        expect(o.result).toBe("RedirectError");
        expect(o.requests).toEqual([1, 0]); // never retried, never followed
        const err = o.value as RedirectError;
        expect(err.status).toBe(code);
        expect(err.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/scrape$/);
        expect(err.message).toContain(new URL(err.location ?? "").origin);
      },
    );
  }

  parity(
    "a 302 whose body says success:false on a status read is a RedirectError, not a failed job",
    async (kind) => {
      const api = await serve((_q, res) => json(res, 302, { success: false, error: "Job expired" }, { location: "/login" }));
      try {
        return await outcome(kind, [api], {}, (c) => c.getCrawlStatus(JOB));
      } finally {
        await api.close();
      }
    },
    (o) => {
      expect(o.result).toBe("RedirectError");
      expect((o.value as RedirectError).serverMessage).toMatch(/^Redirected to /);
      expect((o.value as RedirectError).body).toEqual({ success: false, error: "Job expired" });
    },
  );

  parity(
    "an http apiUrl redirected to https names the fix",
    async (kind) => {
      const api = await serve((req, res) => void res.writeHead(301, { location: `https://${req.headers.host}${req.url}` }).end());
      try {
        return await outcome(kind, [api], {}, (c) => c.getCreditUsage());
      } finally {
        await api.close();
      }
    },
    (o) => {
      expect(o.result).toBe("RedirectError");
      expect((o.value as Error).message).toMatch(/set apiUrl to https:\/\/127\.0\.0\.1:\d+/);
    },
  );
});

describe("transport parity: hostile answers", () => {
  parity(
    "a 400 whose details nest 100,000 levels deep prints and serialises without throwing",
    async (kind) => {
      const deep = `{"success":false,"error":"Bad Request","details":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
      const api = await serve((_q, res) => void res.writeHead(400, { "content-type": "application/json" }).end(deep));
      try {
        return await outcome(kind, [api], {}, (c) => c.scrape("https://site.test/"));
      } finally {
        await api.close();
      }
    },
    (o) => {
      expect(o.result).toBe("BadRequestError");
      const err = o.value as BadRequestError;
      expect(() => inspect(err)).not.toThrow();
      expect(() => format("%s %o", err, err)).not.toThrow(); // what console.error prints
      expect(() => JSON.stringify(err)).not.toThrow();
      expect(() => JSON.stringify(err.details)).not.toThrow();
      expect(JSON.stringify(err).length).toBeLessThan(20_000);
      expect(inspect(err)).toContain("[too deep]");
    },
  );

  parity(
    "crawl() whose first download page still says scraping after the poll said completed resolves completed",
    async (kind) => {
      let downloads = 0;
      const api = await serve((req, res) => {
        const u = new URL(req.url ?? "", "http://x");
        if (req.method === "POST") return json(res, 200, { success: true, id: JOB, url: `http://x/v2/crawl/${JOB}` });
        if (u.searchParams.get("limit") === "1") return json(res, 200, status("completed", [doc("a")], `http://x/v2/crawl/${JOB}?skip=1`));
        downloads += 1;
        // The server's own pages disagree for a moment: the first says scraping, the next completed.
        if (!u.searchParams.has("skip")) return json(res, 200, status(downloads === 1 ? "scraping" : "completed", [doc("a")], `http://x/v2/crawl/${JOB}?skip=1`));
        return json(res, 200, status("completed", [doc("b"), doc("c")]));
      });
      try {
        return await outcome(kind, [api], {}, (c) => c.crawl("https://site.test/", { limit: 3, pollIntervalMs: 500 }), (v) => {
          const r = v as { status: string; data: Document[] };
          return `${r.status}, ${r.data.map((d) => d.metadata.scrapeId).join(",")}`;
        });
      } finally {
        await api.close();
      }
    },
    (o) => expect(o.result).toBe("ok: completed, a,b,c"),
  );
});

describe("transport parity: next links", () => {
  /** A job whose first page links `next` as `link(apiUrl)` and whose second page holds the rest. */
  async function pagedJob(link: string, prefix = "") {
    const other = await serve((_q, res) => json(res, 200, status("completed", [doc("foreign")])));
    const api = await serve((req, res) => {
      const u = new URL(req.url ?? "", "http://x");
      if (req.method === "POST" && u.pathname === `${prefix}/v2/crawl`) return json(res, 200, { success: true, id: JOB, url: `http://localhost:3002/v2/crawl/${JOB}` });
      if (!u.pathname.startsWith(`${prefix}/v2/crawl/${JOB}`)) return json(res, 404, { success: false, error: "Not found" });
      if (u.searchParams.get("skip") === "2") return json(res, 200, status("completed", [doc("b"), doc("c")]));
      return json(res, 200, status("completed", [doc("a"), doc("b")], link.replace("OTHER", other.url)));
    });
    return { api, other, close: async () => void (await Promise.all([api.close(), other.close()])) };
  }
  const docsOf = async (c: PortableWebData) => {
    const ids: string[] = [];
    for await (const d of c.crawlDocuments(JOB)) ids.push(String(d.metadata.scrapeId));
    return ids;
  };
  const hooks: Hooks = { options: { headers: { "cf-access-client-secret": GATEWAY_SECRET } } };

  for (const [name, link] of [
    ["a next link on a proxy's localhost is re-based onto apiUrl; a document on two pages is yielded once", `http://localhost:3002/v2/crawl/${JOB}?skip=2`],
    ["a next link on a foreign host receives neither the key nor the caller's headers: it is re-based", `OTHER/v2/crawl/${JOB}?skip=2`],
  ] as const) {
    parity(
      name,
      async (kind) => {
        const job = await pagedJob(link);
        try {
          const o = await outcome(kind, [job.api, job.other], hooks, docsOf, (v) => (v as string[]).join(","));
          expect(job.api.requests.every((r) => r.headers["cf-access-client-secret"] === GATEWAY_SECRET)).toBe(true);
          return o;
        } finally {
          await job.close();
        }
      },
      (o) => {
        expect(o.result).toBe("ok: a,b,c");
        expect(o.requests).toEqual([2, 0]);
      },
    );
  }

  parity(
    "behind a gateway's path prefix, next pages keep the prefix of apiUrl",
    async (kind) => {
      const job = await pagedJob(`http://internal:3002/v2/crawl/${JOB}?skip=2`, "/gw/firecrawl");
      try {
        const log = capture();
        const client = clientFor(kind, `${job.api.url}/gw/firecrawl`, {}, log.logger);
        const ids: string[] = [];
        for await (const d of client.crawlDocuments(JOB)) ids.push(String(d.metadata.scrapeId));
        expect(job.api.requests.map((r) => r.url)).toEqual([`/gw/firecrawl/v2/crawl/${JOB}`, `/gw/firecrawl/v2/crawl/${JOB}?skip=2`]);
        return { result: `ok: ${ids.join(",")}`, requests: [job.api.requests.length, job.other.requests.length], leaked: false, value: ids };
      } finally {
        await job.close();
      }
    },
    (o) => expect(o.result).toBe("ok: a,b,c"),
  );

  parity(
    "a next link for another job ends the walk with a PaginationError naming it",
    async (kind) => {
      const job = await pagedJob(`http://localhost:3002/v2/crawl/${OTHER_JOB}?skip=2`);
      try {
        return await outcome(kind, [job.api, job.other], hooks, docsOf);
      } finally {
        await job.close();
      }
    },
    (o) => {
      expect(o.result).toBe("PaginationError");
      expect(o.requests).toEqual([1, 0]);
      expect((o.value as PaginationError).message).toContain(`another job, ${OTHER_JOB}`);
      expect((o.value as PaginationError).next).toBe(`/v2/crawl/${OTHER_JOB}?skip=2`);
    },
  );

  parity(
    "a watcher polling a job whose next link names another job ends at once with that PaginationError: no error event, no second read",
    async (kind) => {
      const job = await pagedJob(`http://localhost:3002/v2/crawl/${OTHER_JOB}?skip=2`);
      const events: string[] = [];
      try {
        const o = await outcome(kind, [job.api, job.other], hooks, async (c) => {
          for await (const e of c.watcher(JOB, { ...FAST_WATCH, transports: ["poll"], maxPollFailures: 5 })) events.push(e.type);
          return events;
        });
        return { ...o, value: { error: o.value, events } };
      } finally {
        await job.close();
      }
    },
    (o) => {
      const { error, events } = o.value as { error: PaginationError; events: string[] };
      expect(o.result).toBe("PaginationError");
      expect(error.message).toContain(`another job, ${OTHER_JOB}`);
      // The first page's documents, then the refusal: the same next link would be refused on every read (crawlDocuments' rule).
      expect(events.filter((t) => t === "error")).toEqual([]);
      expect(o.requests).toEqual([1, 0]);
    },
  );

  parity(
    "crawl() with pages that repeat a document returns it once",
    async (kind) => {
      const job = await pagedJob(`/v2/crawl/${JOB}?skip=2`);
      try {
        return await outcome(kind, [job.api, job.other], {}, (c) => c.crawl("https://site.test/", { limit: 3 }), (v) => (v as { data: Document[] }).data.map((d) => d.metadata.scrapeId).join(","));
      } finally {
        await job.close();
      }
    },
    (o) => {
      expect(o.result).toBe("ok: a,b,c");
      expect(o.requests).toEqual([4, 0]); // start, one poll, two pages
    },
  );
});
