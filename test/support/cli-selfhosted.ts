/**
 * A self-hosted server replayed from its recordings (test/fixtures/recorded/), served on
 * loopback for `webdata doctor`: authentication off, no database (a crawl start
 * carrying `x-idempotency-key` answers 500, `/v2/concurrency-check` 401), no AI
 * key, no search provider. Each route answers as the recording of that route did.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { WebSocket as WsWebSocket } from "ws";
import { json, serve, type Served } from "./loopback.js";

interface Exchange {
  response: { status: number; headers: Record<string, string>; body: unknown };
}

function load(name: string): Exchange {
  const url = new URL(`../fixtures/recorded/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), "utf8")) as Exchange;
}

/** The recorded WebSocket transcript's close frame for an unknown job. */
function unknownJobClose(): { code: number; reason: string } {
  const events = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/recorded/crawl-websocket-v2-unknown-id.json", import.meta.url)), "utf8")) as { event: string; code?: number; reason?: string }[];
  const close = events.find((e) => e.event === "close")!;
  return { code: close.code!, reason: close.reason! };
}

/** Which recording answers a request (method, path without query, whether it carried x-idempotency-key). */
function recordingFor(method: string, path: string, idempotencyKey: boolean, crawlId: string | undefined): string | undefined {
  const route = `${method} ${path.replace(/\/[0-9a-f-]{36}(?=\/|$)/, "/:id")}`;
  switch (route) {
    case "GET /v2/team/credit-usage":
      return "team-v2-credit-usage";
    case "GET /v2/team/queue-status":
      return "team-v2-queue-status";
    case "GET /v2/concurrency-check":
      return "team-v2-concurrency-check";
    case "GET /v2/crawl/active":
      return "crawl-v2-active-none";
    case "POST /v2/crawl":
      // The idempotency check runs before the body's (and needs the database this server lacks).
      return idempotencyKey ? "crawl-v2-500-idempotency-key-self-hosted" : "crawl-v2-start";
    case "GET /v2/crawl/:id":
      return path.endsWith(crawlId ?? "-") ? "crawl-v2-status-sse-accept-json" : "crawl-v2-status-404-unknown-id";
    case "DELETE /v2/crawl/:id":
      return "crawl-v2-cancel-running";
    case "POST /v2/scrape":
      return "scrape-v2-json-format-no-ai-key";
    case "POST /v2/search":
      return "search-v2-no-search-provider";
    case "POST /v2/extract":
      return "extract-v2-start";
    case "GET /v2/extract/:id":
      return "extract-v2-status-final";
    case "POST /v2/agent":
      return "agent-v2-no-ai-key";
    default:
      return undefined;
  }
}

/** Serves the recorded self-hosted server; `webSocket: false` leaves out the crawl WebSocket (upgrades answer 404). */
export async function serveSelfHosted(options: { webSocket?: boolean } = {}): Promise<Served> {
  const crawlId = (load("crawl-v2-start").response.body as { id: string }).id;
  const close = unknownJobClose();
  return serve(
    (req, res, _auth, body) => {
      const path = (req.url ?? "/").split("?")[0]!;
      let parsed: Record<string, unknown> = {};
      try {
        parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        // not JSON: answered as the route's recording
      }
      let name = recordingFor(req.method ?? "GET", path, req.headers["x-idempotency-key"] !== undefined, crawlId);
      // A crawl start of "not a url" without the header is refused by validation (recorded too).
      if (name === "crawl-v2-start" && parsed.url === "not a url") name = "crawl-v2-400-invalid-url";
      if (!name) return void res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end(`<pre>Cannot ${req.method} ${path}</pre>`);
      const { status, body: answer } = load(name).response;
      json(res, status, answer);
    },
    options.webSocket === false ? undefined : (ws: WsWebSocket) => ws.close(close.code, close.reason),
  );
}
