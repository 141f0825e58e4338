/**
 * The crawl WebSocket probe of `webdata doctor`: an HTTP upgrade handshake to
 * `/v2/crawl/<id>` (the key as the sub-protocol, as the service's clients
 * send it), checked by its `101 Switching Protocols` answer and
 * `Sec-WebSocket-Accept` (RFC 6455 §4.1), then the server's first frame read
 * when it is a close frame. Only the handshake and that one frame: a probe,
 * not a WebSocket client. Node's `http`/`https`, so it works on Node 20
 * without a WebSocket global.
 */
import { createHash, randomBytes } from "node:crypto";
import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";

/** What the handshake found. */
export interface HandshakeResult {
  /** The server switched protocols with a valid `Sec-WebSocket-Accept`. */
  upgraded: boolean;
  /** The HTTP status of the answer (101 when upgraded), when one came. */
  status?: number | undefined;
  /** The close frame the server sent first (code and reason), when it sent one within the wait. */
  close?: { code: number; reason: string } | undefined;
  /** Why no answer came (connection error, timeout). */
  error?: string | undefined;
}

/** The GUID of RFC 6455 that the accept hash is made with. */
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** Reads a close frame (opcode 8) from the start of `data`: its code and reason. */
export function readCloseFrame(data: Buffer): { code: number; reason: string } | undefined {
  if (data.length < 2 || (data[0]! & 0x0f) !== 0x8) return undefined;
  let len = data[1]! & 0x7f;
  let at = 2;
  if (len === 126) {
    if (data.length < 4) return undefined;
    len = data.readUInt16BE(2);
    at = 4;
  } else if (len === 127) return undefined;
  if ((data[1]! & 0x80) !== 0) at += 4; // a masked frame (servers do not mask, but read past it)
  if (data.length < at + len || len < 2) return len === 0 ? { code: 1005, reason: "" } : undefined;
  return { code: data.readUInt16BE(at), reason: data.subarray(at + 2, at + len).toString("utf8") };
}

/**
 * Opens the WebSocket handshake to `url` (`http(s)://.../v2/crawl/<id>`) and reports what came back
 * within `timeoutMs`; `protocol` is the sub-protocol to offer (the API key), when any.
 */
export function webSocketHandshake(url: string, protocol: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<HandshakeResult> {
  const key = randomBytes(16).toString("base64");
  const expected = createHash("sha1").update(key + WS_GUID).digest("base64");
  const u = new URL(url);
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<HandshakeResult>((resolve) => {
    let req: ClientRequest | undefined;
    let socket: Socket | undefined;
    let settled = false;
    const done = (result: HandshakeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket?.destroy();
      req?.destroy();
      resolve(result);
    };
    const onAbort = () => done({ upgraded: false, error: "aborted" });
    const timer = setTimeout(() => done({ upgraded: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    req = send(u, {
      method: "GET",
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": key,
        ...(protocol ? { "sec-websocket-protocol": protocol } : {}),
      },
    });
    req.on("upgrade", (res, sock, head) => {
      socket = sock;
      if (res.headers["sec-websocket-accept"] !== expected) return done({ upgraded: false, status: res.statusCode, error: "the Sec-WebSocket-Accept answer is wrong" });
      awaitFirstFrame(sock, head, Math.min(1_000, timeoutMs), done);
    });
    req.on("response", (res) => {
      res.resume();
      done({ upgraded: false, status: res.statusCode });
    });
    req.on("error", (err: NodeJS.ErrnoException) => done({ upgraded: false, error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end();
  });
}

/** After the upgrade, waits briefly for a first frame: a server closes an unknown job at once (1008 "Job not found"). */
function awaitFirstFrame(sock: Socket, head: Buffer, waitMs: number, done: (result: HandshakeResult) => void): void {
  const first = (data: Buffer) => done({ upgraded: true, status: 101, close: readCloseFrame(data) });
  if (head.length > 0) return first(head);
  sock.once("data", first);
  sock.once("error", () => done({ upgraded: true, status: 101 }));
  sock.once("close", () => done({ upgraded: true, status: 101 }));
  setTimeout(() => done({ upgraded: true, status: 101 }), waitMs).unref();
}
