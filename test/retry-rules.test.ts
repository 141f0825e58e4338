/**
 * The retry and idempotency rules against the service's own server, replayed
 * from the recorded exchanges over real loopback HTTP, on both transports:
 * idempotency keys only where the server honours them, and
 * permanent 5xx answers not retried.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { APIError, InternalServerError, WebData as PortableWebData, type ClientOptions } from "../src/index.js";
import { isRetryable, isWatchFatal } from "../src/core/retry.js";
import { ConnectionError, PaginationError, TimeoutError, WatchTransportError } from "../src/core/errors.js";
import { WebData as NodeWebData } from "../src/node.js";
import { recorded, TRANSPORTS, type TransportKind } from "./helpers.js";
import { v1 as v1Face } from "../src/v1/index.js";

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** A loopback server answering with `route(request)`. */
async function serve(route: (req: Seen) => Answer) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const r: Seen = { method: req.method ?? "", path: req.url ?? "", headers: req.headers };
      seen.push(r);
      const a = route(r);
      res.writeHead(a.status, { "content-type": "application/json; charset=utf-8", ...a.headers });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}
type Served = Awaited<ReturnType<typeof serve>>;

/**
 * A client over `kind` to `apiUrl`, whose connections all go to the loopback server
 * (so `https://api.firecrawl.dev` can be played by it: plain HTTP on the socket).
 */
function client(kind: TransportKind, srv: Served, apiUrl: string, options: ClientOptions = {}): PortableWebData {
  const base = { apiKey: "fc-selfhost-test", apiUrl, logLevel: "off" as const, ...options };
  if (kind === "fetch") {
    return new PortableWebData({ plugins: [v1Face], ...base, fetch: (input, init) => fetch(String(input instanceof Request ? input.url : input).replace(apiUrl, srv.url), init) });
  }
  const dispatcher = new Agent({ connect: (_opts, cb) => {
    const socket = connect(srv.port, "127.0.0.1", () => cb(null, socket));
    socket.on("error", (e) => cb(e, null));
  } });
  return new NodeWebData({ plugins: [v1Face], ...base, dispatcher });
}

const body = async (name: string): Promise<Answer> => {
  const r = await recorded(name);
  return { status: r.response.status, body: r.response.body };
};

let srv: Served | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe.each(TRANSPORTS)("idempotency keys over %s", (kind) => {
  /** The self-hosted server without Supabase: 500 UNKNOWN_ERROR to any request carrying the header (recorded). */
  async function selfHosted() {
    const refused: Record<string, Answer> = {
      "/v2/crawl": await body("crawl-v2-500-idempotency-key-self-hosted.json"),
      "/v1/crawl": await body("crawl-v1-500-idempotency-key-self-hosted.json"),
      "/v1/batch/scrape": await body("batch-scrape-v1-500-idempotency-key-self-hosted.json"),
    };
    const started: Record<string, Answer> = {
      "/v2/crawl": await body("crawl-v2-start.json"),
      "/v1/crawl": await body("crawl-v1-start.json"),
      "/v1/batch/scrape": await body("batch-scrape-v1-start.json"),
    };
    const status = await body("crawl-v2-status-completed.json");
    return serve((req) => {
      if (req.method === "GET") return status;
      return req.headers["x-idempotency-key"] ? refused[req.path]! : started[req.path]!;
    });
  }

  it("with default options, every crawl start works on a self-hosted server that fails keyed requests", async () => {
    srv = await selfHosted();
    const c = client(kind, srv, srv.url);
    const started = await c.startCrawl("http://127.0.0.1:8080/", { limit: 10 });
    expect(started.id).toBe("01a200de-0266-76d8-8503-80a52f44f4b3");
    const done = await c.crawl("http://127.0.0.1:8080/", { limit: 10, pollIntervalMs: 1 });
    expect(done.status).toBe("completed");
    expect((await c.v1.asyncCrawlUrl("http://127.0.0.1:8080/", { limit: 10 })).success).toBe(true);
    expect((await c.v1.asyncBatchScrapeUrls(["http://127.0.0.1:8080/"])).success).toBe(true);
    const posts = srv.seen.filter((r) => r.method === "POST");
    expect(posts.map((r) => r.path)).toEqual(["/v2/crawl", "/v2/crawl", "/v1/crawl", "/v1/batch/scrape"]);
    for (const r of posts) expect(r.headers["x-idempotency-key"]).toBeUndefined();
  });

  it("a keyed start refused by such a server says why and how to turn keys off; the server's text is kept", async () => {
    srv = await selfHosted();
    const c = client(kind, srv, srv.url, { idempotencyKeys: true, maxRetries: 0 });
    const err = (await c.startCrawl("http://127.0.0.1:8080/", { limit: 2 }).catch((e: unknown) => e)) as InternalServerError;
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.code).toBe("UNKNOWN_ERROR");
    expect(err.serverMessage).toMatch(/^An error occurred\. Please check your logs for more details\. Error ID: [0-9a-f]{32}$/);
    expect(err.message).toMatch(/x-idempotency-key: a self-hosted server without its database/);
    expect(err.message).toMatch(/idempotencyKeys/);
    const own = await c.v1.asyncCrawlUrl("http://127.0.0.1:8080/", {}, "6f1c8a52-7a3e-4c55-9d0b-2f8e5b6a1c3d", { maxRetries: 0 }).catch((e: unknown) => e);
    expect((own as Error).message).toMatch(/self-hosted server without its database/);
  });

  it("on the public deployment (default), a start retried after a 503 sends one generated key on every attempt", async () => {
    const start = await body("crawl-v2-start.json");
    let n = 0;
    srv = await serve(() => (++n === 1 ? { status: 503, body: { success: false, error: "Service Unavailable" }, headers: { "retry-after": "0" } } : start));
    const c = client(kind, srv, "https://api.firecrawl.dev");
    const started = await c.startCrawl("https://example.com/", { limit: 2 });
    expect(started.id).toBe("01a200de-0266-76d8-8503-80a52f44f4b3");
    const keys = srv.seen.map((r) => r.headers["x-idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(srv.seen[0]!.headers.authorization).toBe("Bearer fc-selfhost-test");
  });

  it("idempotencyKeys: false turns generated keys off on the public deployment too (the start is then not retried after a 503)", async () => {
    srv = await serve(() => ({ status: 503, body: { success: false, error: "Service Unavailable" }, headers: { "retry-after": "0" } }));
    const c = client(kind, srv, "https://api.firecrawl.dev", { idempotencyKeys: false });
    await expect(c.startCrawl("https://example.com/")).rejects.toBeInstanceOf(InternalServerError);
    expect(srv.seen).toHaveLength(1);
    expect(srv.seen[0]!.headers["x-idempotency-key"]).toBeUndefined();
  });
});

describe.each(TRANSPORTS)("permanent server failures over %s", (kind) => {
  it.each(["scrape-v2-connection-refused.json", "scrape-v2-dns-failure.json", "scrape-v2-screenshot.json"])(
    "%s: 500 SCRAPE_ALL_ENGINES_FAILED is thrown after one attempt (the server tried every engine)",
    async (name) => {
      const r = await recorded(name);
      srv = await serve(() => ({ status: r.response.status, body: r.response.body }));
      const c = client(kind, srv, srv.url, { maxRetries: 2 });
      const { url } = r.request.body as { url: string };
      const err = (await c.scrape(url).catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(InternalServerError);
      expect(err.code).toBe("SCRAPE_ALL_ENGINES_FAILED");
      expect(srv.seen).toHaveLength(1);
    },
  );

  it("500 UNKNOWN_ERROR with an Error ID stays retryable", async () => {
    const failed = await body("scrape-v2-status-by-id-500-no-db.json");
    const ok = await body("scrape-v2-markdown.json");
    let n = 0;
    srv = await serve(() => (++n === 1 ? { ...failed, headers: { "retry-after": "0" } } : ok));
    const c = client(kind, srv, srv.url);
    const doc = await c.scrape("http://127.0.0.1:8080/");
    expect(doc.markdown).toBeTruthy();
    expect(srv.seen).toHaveLength(2);
  });
});

describe("which recorded 5xx answers are final", () => {
  const errorOf = async (name: string) => {
    const r = await recorded(name);
    const b = r.response.body as { error: string; code?: string };
    return APIError.from({ status: r.response.status, message: b.error, code: b.code, body: b });
  };
  it.each([
    ["scrape-v2-connection-refused.json", false],
    ["scrape-v2-dns-failure.json", false],
    ["scrape-v2-screenshot.json", false],
    ["extract-v1-500-no-ai-key.json", false],
    ["crawl-v2-500-idempotency-key-self-hosted.json", true],
    ["scrape-v2-status-by-id-500-no-db.json", true],
    ["extract-v2-status-500-unknown-id.json", true],
    ["crawl-v1-status-500-non-uuid.json", true],
    ["agent-v2-no-ai-key.json", true],
    ["agent-signup-v2-valid-no-db.json", true],
  ] as const)("%s: retryable %s", async (name, retryable) => {
    const err = await errorOf(name);
    expect(err.status).toBeGreaterThanOrEqual(500);
    expect(isRetryable(err, "safe")).toBe(retryable);
  });

  it("the agent's own 'Agent beta is not enabled.' text (reference §9) is final", () => {
    const err = APIError.from({ status: 500, message: "Agent beta is not enabled.", body: {} });
    expect(isRetryable(err, "safe")).toBe(false);
  });
});

describe("the watcher's fatal rule comes from core/retry.ts (isWatchFatal), beside the retry decision", () => {
  const api = (status: number) => APIError.from({ status, message: "x", endpoint: "GET /v2/crawl/x" });

  it("a 4xx the request path does not retry ends a watcher; 408, 429 and 5xx do not", () => {
    for (const status of [400, 401, 402, 403, 404, 409, 410, 418]) expect(isWatchFatal(api(status)), String(status)).toBe(true);
    for (const status of [408, 429, 500, 502, 503, 504, 200, 302]) expect(isWatchFatal(api(status)), String(status)).toBe(false);
  });

  it("agrees with the retry decision: a 4xx is fatal exactly when it is not retried", () => {
    for (let status = 400; status < 500; status++) expect(isWatchFatal(api(status)), String(status)).toBe(!isRetryable(api(status), "safe"));
  });

  it("a refused next link (PaginationError, reason foreign or loop) is fatal; a dropped stream, a timeout or a foreign error is not", () => {
    expect(isWatchFatal(new PaginationError("j", "next points at another job"))).toBe(true);
    expect(isWatchFatal(new PaginationError("j", "loop", undefined, "loop"))).toBe(true);
    for (const err of [new ConnectionError("reset"), new TimeoutError(10), new WatchTransportError("websocket", "dropped"), new Error("x"), undefined]) expect(isWatchFatal(err)).toBe(false);
  });
});
