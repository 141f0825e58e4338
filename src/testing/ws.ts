/**
 * The crawl WebSocket of the fake service on Node (reference §4.5), for
 * `serveFake`, with the optional `ws` package (8.x), loaded on the first
 * upgrade so that `webdata/testing` works without it.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket as WsSocket, WebSocketServer } from "ws";
import type { FakeService } from "./service.js";
import { jobStream, openConnection } from "./handlers/streams.js";

/** Upgrade handling of one served fake. */
export interface FakeWebSocketServer {
  /** True when the crawl WebSocket is served: enabled, and the optional `ws` package loads (it is loaded by this call). */
  served(): Promise<boolean>;
  /** Answers an HTTP upgrade request. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Terminates every open socket. */
  close(): void;
}

/** Creates the upgrade handler for `fake` (the `ws` package is imported on first use); `enabled: false` answers every upgrade 501. */
export function fakeWebSocketServer(fake: FakeService, enabled = true): FakeWebSocketServer {
  let wss: Promise<WebSocketServer | undefined> | undefined;
  const open = new Set<WsSocket>();
  const load = () =>
    (wss ??= import("ws").then(
      (mod) => new mod.WebSocketServer({ noServer: true, handleProtocols: (protocols) => protocols.values().next().value ?? false }),
      () => undefined,
    ));
  return {
    served: async () => enabled && (await load()) !== undefined,
    upgrade(req, socket, head) {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const m = /^\/(v1|v2)\/crawl\/([^/]+)$/.exec(url.pathname);
      void (enabled ? load() : Promise.resolve(undefined)).then((server) => {
        if (!server || !m) {
          socket.end(`HTTP/1.1 ${server ? "404 Not Found" : "501 Not Implemented"}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
          return;
        }
        server.handleUpgrade(req, socket, head, (ws) => {
          open.add(ws);
          ws.on("close", () => open.delete(ws));
          void serve(fake, ws, req, url.origin, m[1] as string, decodeURIComponent(m[2] as string));
        });
      });
    },
    close() {
      for (const ws of open) ws.terminate();
    },
  };
}

async function serve(fake: FakeService, ws: WsSocket, req: IncomingMessage, origin: string, version: string, jobId: string): Promise<void> {
  const { conn, dropAt } = openConnection(fake, "ws", jobId);
  const ctl = new AbortController();
  ws.on("close", (code) => {
    if (conn.closedBy === undefined) {
      conn.closedBy = "client";
      conn.code = code;
    }
    ctl.abort();
  });
  const authorization = req.headers.authorization ?? (ws.protocol ? `Bearer ${ws.protocol}` : undefined);
  const frames = jobStream(fake, {
    jobId,
    origin,
    authorization,
    paths: [`/${version}/crawl/${jobId}`, `/${version}/batch/scrape/${jobId}`],
    mode: "ws",
    signal: ctl.signal,
  });
  for await (const f of frames) {
    if (ctl.signal.aborted) return;
    if (dropAt !== undefined && conn.frames >= dropAt && (f.type === "catchup" || f.type === "document")) {
      conn.dropped = true;
      conn.closedBy = "server";
      ctl.abort();
      ws.terminate();
      return;
    }
    if (f.type === "done" || f.type === "error") {
      conn.closedBy = "server";
      conn.code = f.type === "done" ? 1000 : f.code;
      const reason = f.type === "done" ? { type: "done" } : { type: "error", error: f.error };
      ws.close(conn.code, f.type === "error" && f.plain ? f.error : JSON.stringify(reason));
      return;
    }
    if (f.type === "status") continue;
    conn.frames += 1;
    ws.send(JSON.stringify(f.type === "document" ? { type: "document", data: f.data } : f));
  }
}
