/**
 * The WebSocket handshake has a timeout: a server that accepts the TCP
 * connection and never answers the upgrade (a stalled proxy, a half-dead
 * host) must not hang the watcher. The socket is closed after the per-attempt
 * timeout (the watcher's request options, else the client's `timeoutMs`) and
 * the session counts as a failed connection: the watcher falls back to the
 * next transport. Real loopback TCP server; the timeouts run on the fake clock,
 * which moves only once the server holds the request it will never answer (the
 * upgrade, then the poll's GET), so each timeout fires on a real, stalled
 * connection and the test waits on no real timer.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { WatchTransportError, WebData, WebDataError, type WatchEvent } from "../src/index.js";
import type { WebSocketConstructor } from "../src/jobs/watch-types.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { until, useJobTimers } from "./jobs-helpers.js";
import { websocket } from "../src/websocket.js";

const NodeWebSocket = WsWebSocket as unknown as WebSocketConstructor;

/**
 * A TCP server that accepts every connection and never writes a byte; counts the WebSocket upgrade
 * connections the client closed, and the upgrades and plain requests it received.
 */
async function silentServer(): Promise<{ url: string; server: Server; sockets: Socket[]; closed: () => number; upgrades: () => number; requests: () => number }> {
  const sockets: Socket[] = [];
  let closed = 0;
  let upgrades = 0;
  let requests = 0;
  const server = createServer((s) => {
    sockets.push(s);
    let upgrade = false;
    let seen = false;
    s.on("data", (chunk: Buffer) => {
      const text = chunk.toString("latin1");
      upgrade ||= /^upgrade: websocket/im.test(text);
      if (!seen && /\r\n\r\n/.test(text)) {
        seen = true;
        if (upgrade) upgrades += 1;
        else requests += 1;
      }
    });
    s.on("close", () => (closed += upgrade ? 1 : 0));
    s.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server, sockets, closed: () => closed, upgrades: () => upgrades, requests: () => requests };
}

let open: Awaited<ReturnType<typeof silentServer>> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  for (const s of open?.sockets ?? []) s.destroy();
  await new Promise<void>((resolve) => (open ? open.server.close(() => resolve()) : resolve()));
  open = undefined;
});

/** Runs a WebSocket-first watcher against the silent server; returns its events, its ending and how long it took. */
async function watchSilent(clientTimeoutMs: number, requestTimeoutMs?: number): Promise<{ events: WatchEvent[]; thrown: unknown; ms: number }> {
  open = await silentServer();
  const server = open;
  useJobTimers();
  const client = new WebData({ apiKey: "fc-handshake-test", apiUrl: open.url, timeoutMs: clientTimeoutMs, maxRetries: 0, logLevel: "off", plugins: [websocket] });
  const w = client.watcher(
    "job-1",
    { ...FAST_WATCH, webSocket: NodeWebSocket, transports: ["websocket", "poll"], maxReconnects: 0, maxPollFailures: 1 },
    requestTimeoutMs === undefined ? undefined : { timeoutMs: requestTimeoutMs },
  );
  const events: WatchEvent[] = [];
  const t0 = performance.now();
  let thrown: unknown;
  const run = (async () => {
    try {
      for await (const e of w) events.push(e);
    } catch (err) {
      thrown = err;
    }
  })();
  // The clock moves by the timeout once the server holds the upgrade, then once it holds the poll's GET.
  const timeoutMs = requestTimeoutMs ?? clientTimeoutMs;
  await until(() => server.upgrades() === 1, "the WebSocket upgrade");
  await vi.advanceTimersByTimeAsync(timeoutMs);
  await until(() => server.requests() === 1, "the status GET");
  await vi.advanceTimersByTimeAsync(timeoutMs);
  await run;
  return { events, thrown, ms: performance.now() - t0 };
}

function handshakeErrors(events: WatchEvent[]): WatchTransportError[] {
  return events.flatMap((e) => (e.type === "error" && e.error instanceof WatchTransportError && /did not open within/.test(e.error.message) ? [e.error] : []));
}

describe("WebSocket handshake timeout", () => {
  it("closes a socket whose upgrade is never answered after the client's timeoutMs and falls back to polling", async () => {
    const { events, thrown, ms } = await watchSilent(300);
    const [err] = handshakeErrors(events);
    expect(err?.message).toMatch(/did not open within 300 ms/);
    // The fallback (polling the same silent server) times out too: the watcher ends with a typed error, not a hang.
    expect(thrown).toBeInstanceOf(WebDataError);
    expect(ms).toBeLessThan(3_000);
    // The client closed the stalled upgrade connection (it does not linger until the server gives up).
    await expect.poll(() => open!.closed(), { timeout: 1_000 }).toBeGreaterThanOrEqual(1);
  }, 10_000);

  it("uses the watcher's request options' timeoutMs when given", async () => {
    const { events } = await watchSilent(5_000, 250);
    expect(handshakeErrors(events)[0]?.message).toMatch(/did not open within 250 ms/);
  }, 10_000);
});
