/**
 * Loopback servers that misbehave on purpose, and the scans that look for a
 * secret in what the SDK produced. Shared by the secrets scan
 * (`test/secrets.test.ts`) and the transport parity suite (`test/parity.test.ts`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { inspect } from "node:util";
import { WebSocketServer, type WebSocket as WsWebSocket } from "ws";
import { APIError, type Logger } from "../../src/index.js";

/** Answers one HTTP request; `auth` is the Bearer token it carried (empty when none). */
export type Handler = (req: IncomingMessage, res: ServerResponse, auth: string, body: string) => void;

/** What a request to a served loopback origin carried. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A served loopback origin. */
export interface Served {
  url: string;
  /** The `authorization` header of every request, in order (empty string when absent). */
  auths: string[];
  /** Every request, in order. */
  requests: Received[];
  close(): Promise<void>;
}

/** A loopback server: `handler` answers HTTP; `onSocket` (if given) serves the crawl WebSocket. */
export async function serve(handler: Handler, onSocket?: (ws: WsWebSocket, key: string) => void): Promise<Served> {
  const auths: string[] = [];
  const requests: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    auths.push(req.headers.authorization ?? "");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, (req.headers.authorization ?? "").replace(/^Bearer /, ""), body);
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => p.values().next().value ?? false });
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!onSocket) return void socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, ws.protocol));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    auths,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        for (const s of sockets) s.destroy();
        server.close(() => wss.close(() => resolve()));
      }),
  };
}

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** Every string reachable from `v` as a program or a log would print it. */
export function stringsOf(v: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
  if (typeof v === "string") {
    out.push(v);
    return out;
  }
  if (typeof v !== "object" || v === null || seen.has(v)) return out;
  seen.add(v);
  const safeJson = () => {
    try {
      return JSON.stringify(v) ?? "";
    } catch {
      return "";
    }
  };
  out.push(safeJson(), inspect(v, { depth: 10 }), inspect(v, { depth: 10, customInspect: false, showHidden: true }));
  if (v instanceof Error) {
    out.push(v.message, v.stack ?? "", String(v));
    stringsOf(v.cause, out, seen);
  }
  if (v instanceof APIError) {
    stringsOf(v.body, out, seen);
    stringsOf(v.details, out, seen);
    for (const [k, h] of v.headers ?? []) out.push(`${k}: ${h}`);
  }
  for (const x of Object.values(v)) stringsOf(x, out, seen);
  return out;
}

/** A logger that keeps every line and its data as text. */
export function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const put = (m: string, d?: Record<string, unknown>) => void lines.push(m, JSON.stringify(d ?? {}), inspect(d));
  return { logger: { debug: put, info: put, warn: put, error: put }, lines };
}
