/**
 * `webdata/testing` on Node: adds `serveFake`, the loopback adapter that
 * serves a fake service over real HTTP (for the undici transport, other
 * runtimes and browsers). The fake allows all origins, as the real service does.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeService } from "./service.js";
import { fakeWebSocketServer } from "./ws.js";

export * from "./index.js";

/** A fake served on loopback. */
export interface ServedFake {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The underlying server. */
  server: Server;
  /**
   * Whether the crawl WebSocket (`ws://.../v2/crawl/<id>`) is served: false with `webSocket: false`, or when
   * the optional `ws` package is not installed (upgrades are then answered 501 and watchers read by REST). It loads
   * `ws` when asked (as the first upgrade does), so serving starts no sooner or later for a caller that does not ask.
   */
  webSocket(): Promise<boolean>;
  /** Stops the server and closes open connections. */
  close(): Promise<void>;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "*",
  "access-control-allow-methods": "GET,POST,PATCH,DELETE,OPTIONS",
  "access-control-expose-headers": "*",
};

/** Options of {@link serveFake}. */
export interface ServeFakeOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to listen on (default `127.0.0.1`). */
  host?: string;
  /**
   * Serve the crawl WebSocket (default true, when the optional `ws` package is installed). `false`
   * answers upgrades with 501, as a proxy that drops them does: watchers read by REST. Useful under
   * fake timers, where a real socket's handshake races the virtual clock.
   */
  webSocket?: boolean;
}

/**
 * Serves `fake` on `127.0.0.1` (port 0 picks a free one), including the crawl
 * WebSocket (`ws://.../v2/crawl/<id>`) when the optional `ws` package is installed.
 *
 * @example const served = await serveFake(fake); const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url })
 */
export async function serveFake(fake: FakeService, options: ServeFakeOptions = {}): Promise<ServedFake> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => {
    void answer(fake, req, res, host);
  });
  const sockets = fakeWebSocketServer(fake, options.webSocket !== false);
  server.on("upgrade", sockets.upgrade);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    server,
    webSocket: () => sockets.served(),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(fake: FakeService, req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
  if (req.method === "OPTIONS") {
    res.writeHead(204, CORS).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const ctl = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) ctl.abort();
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === "string") headers.set(k, v);
    else if (Array.isArray(v)) for (const item of v) headers.append(k, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(`http://${req.headers.host ?? host}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
    signal: ctl.signal,
  });
  let response: Response;
  try {
    response = await fake.handle(request);
  } catch {
    req.socket.destroy();
    return;
  }
  res.writeHead(response.status, { ...CORS, ...Object.fromEntries(response.headers) });
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // A stream that errors mid-body (a dropped SSE stream): flush what was written, then cut the connection.
      req.socket.end();
      return;
    }
  }
  res.end();
}
