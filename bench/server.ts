/**
 * The loopback server every benchmark talks to: fixed answers, so the figures
 * are client cost. `POST /v2/scrape` answers a scrape of `docBytes` of markdown
 * (every `rateLimitEvery`-th one a 429 asking for `retryAfterS` seconds, as the
 * service words it); `GET /v2/crawl/<id>` pages a finished crawl of `crawlDocs`
 * documents of 5 KB, `pageSize` a page, with absolute `next` links.
 * Bounded: it serves only loopback and is closed by the caller.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the server answers. */
export interface BenchServerOptions {
  /** Markdown size of a scrape answer, in bytes. */
  docBytes?: number;
  /** Documents in the finished crawl. */
  crawlDocs?: number;
  /** Documents per crawl status page. */
  pageSize?: number;
  /** Every n-th scrape is a 429 (0: never). */
  rateLimitEvery?: number;
  /** The wait the 429 asks for, in seconds. */
  retryAfterS?: number;
}

/** A running bench server. */
export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests answered so far, by route. */
  counts: { scrape: number; rateLimited: number; crawlPages: number };
  /** Closes every socket and the server. */
  close(): Promise<void>;
}

/** The finished crawl's id. */
export const CRAWL_ID = "01a200de-0266-76d8-8503-80a52f44f4b3";

function scrapeBody(bytes: number): string {
  const line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ";
  const markdown = `# Acme\n\n${line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes)}`;
  return JSON.stringify({
    success: true,
    data: { markdown, metadata: { title: "Acme", sourceURL: "https://acme.test", url: "https://acme.test/", statusCode: 200, contentType: "text/html" } },
  });
}

function crawlPage(base: string, skip: number, size: number, total: number): string {
  const data = [];
  for (let i = skip; i < Math.min(total, skip + size); i++) {
    data.push({ markdown: `# Page ${i}\n\n${"x".repeat(5 * 1024 - 20)}`, metadata: { sourceURL: `https://acme.test/p/${i}`, url: `https://acme.test/p/${i}`, statusCode: 200, title: `Page ${i}` } });
  }
  const next = skip + size < total ? `${base}/v2/crawl/${CRAWL_ID}?skip=${skip + size}&limit=${size}` : undefined;
  return JSON.stringify({ success: true, status: "completed", total, completed: total, creditsUsed: total, expiresAt: "2099-01-01T00:00:00.000Z", ...(next ? { next } : {}), data });
}

/** Starts the server on an ephemeral loopback port. */
export async function startBenchServer(opts: BenchServerOptions = {}): Promise<BenchServer> {
  const { docBytes = 20 * 1024, crawlDocs = 1000, pageSize = 100, rateLimitEvery = 0, retryAfterS = 1 } = opts;
  const scrape = scrapeBody(docBytes);
  const counts = { scrape: 0, rateLimited: 0, crawlPages: 0 };
  let base = "";
  const send = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      const u = new URL(req.url ?? "/", base);
      if (req.method === "POST" && u.pathname === "/v2/scrape") {
        counts.scrape++;
        if (rateLimitEvery > 0 && counts.scrape % rateLimitEvery === 0) {
          counts.rateLimited++;
          return send(res, 429, JSON.stringify({ success: false, error: `Rate limit exceeded. Consumed (req/min): 11, Remaining (req/min): 0. Upgrade your plan at https://firecrawl.dev/pricing for increased rate limits or please retry after ${retryAfterS}s, resets at ${new Date(Date.now() + retryAfterS * 1000).toString()}` }));
        }
        return send(res, 200, scrape);
      }
      if (req.method === "GET" && u.pathname === `/v2/crawl/${CRAWL_ID}`) {
        counts.crawlPages++;
        const skip = Number(u.searchParams.get("skip") ?? 0);
        const limit = Number(u.searchParams.get("limit") ?? pageSize);
        return send(res, 200, crawlPage(base, skip, Math.min(limit, pageSize), crawlDocs));
      }
      send(res, 404, JSON.stringify({ success: false, error: "Not found" }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    counts,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
