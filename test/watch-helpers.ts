/**
 * Helpers of the watcher tests: a client over a served fake (so the WebSocket
 * works) for either transport, event collection, and a tiny scripted
 * WebSocket + REST server that replays recorded frames.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket as WsWebSocket, WebSocketServer } from "ws";
import { WebData as PortableWebData, type ClientOptions } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import type { WatchEvent } from "../src/jobs/watch-types.js";
import type { WebSocketConstructor } from "../src/jobs/watch-types.js";
import { createFakeService, serveFake, type FakeService, type FakeServiceOptions, type ServeFakeOptions } from "../src/testing/node.js";
import { v1 } from "../src/v1/index.js";
import { sse } from "../src/sse.js";
import { websocket } from "../src/websocket.js";

/** The `ws` package's WebSocket, as the watcher option wants it. */
export const NodeWebSocket: WebSocketConstructor = WsWebSocket;

/** A fake served on loopback and a client of the given transport pointed at it. */
export async function servedSetup(kind: "fetch" | "undici", fakeOptions: FakeServiceOptions = {}, clientOptions: ClientOptions = {}, serveOptions: ServeFakeOptions = {}) {
  const fake = createFakeService({ streamIntervalMs: 2, ...fakeOptions });
  const served = await serveFake(fake, serveOptions);
  const opts: ClientOptions = { apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off", ...clientOptions, plugins: [v1, sse, websocket, ...(clientOptions.plugins ?? [])] };
  const client = kind === "undici" ? new NodeWebData(opts) : new PortableWebData(opts);
  return { fake, client, url: served.url, close: () => served.close() };
}

/** In-process client over the fake as `fetch` (no loopback, no WebSocket). */
export function inProcessSetup(fakeOptions: FakeServiceOptions = {}, clientOptions: ClientOptions = {}) {
  const fake = createFakeService({ streamIntervalMs: 2, ...fakeOptions });
  const client = new PortableWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", ...clientOptions, plugins: [v1, sse, websocket, ...(clientOptions.plugins ?? [])] });
  return { fake, client, close: async () => undefined };
}

/** Collects every event of an iteration, and the error it threw (if any). */
export async function collect<T>(iterable: AsyncIterable<WatchEvent<T>>): Promise<{ events: WatchEvent<T>[]; thrown: unknown }> {
  const events: WatchEvent<T>[] = [];
  try {
    for await (const e of iterable) events.push(e);
    return { events, thrown: undefined };
  } catch (err) {
    return { events, thrown: err };
  }
}

/** Scrape ids of the document events, in order. */
export function docIds(events: WatchEvent[]): string[] {
  return events.flatMap((e) => (e.type === "document" ? [String(e.document.metadata.scrapeId)] : []));
}

/** The scrape ids of every document the fake job produced. */
export function jobDocIds(fake: FakeService, id: string): string[] {
  const job = (fake.state.get("jobEngine") as { jobs: Map<string, { docs: { metadata: { scrapeId: string } }[] }> }).jobs.get(id);
  return (job?.docs ?? []).map((d) => d.metadata.scrapeId);
}

/** One scripted socket session: frames to send, then a close (or a drop). */
export interface ScriptedSession {
  frames: unknown[];
  close?: { code: number; reason: string } | "drop";
}

/** A loopback server whose WebSocket plays scripted sessions and whose REST status answers from a list (the last one repeats). */
export async function scriptedServer(sessions: ScriptedSession[], restBodies: { status: number; body: unknown }[]) {
  const rest: string[] = [];
  const protocols: string[] = [];
  const upgrades: string[] = [];
  const clientCloses: number[] = [];
  let restIndex = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    rest.push(`${req.method} ${req.url} accept=${req.headers.accept ?? ""}`);
    const answer = restBodies[Math.min(restIndex++, restBodies.length - 1)] ?? { status: 404, body: { success: false, error: "Job not found" } };
    res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(answer.body));
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => p.values().next().value ?? false });
  let session = 0;
  server.on("upgrade", (req, socket, head) => {
    upgrades.push(req.url ?? "");
    wss.handleUpgrade(req, socket, head, (ws) => {
      protocols.push(ws.protocol);
      ws.on("close", (code) => clientCloses.push(code));
      const s = sessions[Math.min(session++, sessions.length - 1)] ?? { frames: [], close: "drop" };
      for (const f of s.frames) ws.send(typeof f === "string" ? f : JSON.stringify(f));
      if (s.close === "drop") ws.terminate();
      else if (s.close) ws.close(s.close.code, s.close.reason);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    rest,
    protocols,
    upgrades,
    clientCloses,
    get sessions() {
      return session;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
