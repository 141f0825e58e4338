/**
 * Node extras: `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` are honoured by the Node
 * entry (undici's EnvHttpProxyAgent, read when the pool is made), a caller's
 * `dispatcher` wins, `maxConnections` bounds the sockets per origin, and
 * keep-alive reuses one connection for sequential calls. Proven through a
 * forward proxy on loopback that counts what it forwards.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Agent, ProxyAgent } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createFakeService, serveFake, type FakeService, type ServedFake } from "../src/testing/node.js";

const PROXY_VARS = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"];

/** A plain HTTP forward proxy: forwards absolute-form requests, refuses CONNECT tunnels; counts both. */
interface CountingProxy {
  url: string;
  forwarded: string[];
  tunnels: string[];
  close(): Promise<void>;
}

async function startProxy(): Promise<CountingProxy> {
  const forwarded: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    forwarded.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("connect", (req, socket: Socket) => {
    tunnels.push(req.url ?? "");
    socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    tunnels,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A fresh copy of the Node entry, so its process-wide pool is made under the current environment. */
async function freshNodeEntry(): Promise<typeof import("../src/node.js")> {
  vi.resetModules();
  return import("../src/node.js");
}

let proxy: CountingProxy;
let fake: FakeService;
let served: ServedFake;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
});
beforeEach(async () => {
  for (const v of PROXY_VARS) {
    saved[v] = process.env[v];
    delete process.env[v];
  }
  proxy.forwarded.length = 0;
  proxy.tunnels.length = 0;
  fake = createFakeService();
  served = await serveFake(fake);
});
afterEach(async () => {
  for (const v of PROXY_VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  await served.close();
});

describe("proxy environment (Node entry)", () => {
  it("without proxy variables, requests go direct", async () => {
    const { WebData } = await freshNodeEntry();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
    await client.scrape("https://acme.test");
    expect(proxy.forwarded).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("HTTP_PROXY: every request to an http URL goes through the proxy", async () => {
    process.env.HTTP_PROXY = proxy.url;
    const { WebData } = await freshNodeEntry();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
    await client.scrape("https://acme.test");
    await client.map("https://acme.test");
    expect(proxy.forwarded).toEqual([`POST ${served.url}/v2/scrape`, `POST ${served.url}/v2/map`]);
    expect(fake.requests.map((r) => r.pathname)).toEqual(["/v2/scrape", "/v2/map"]);
  });

  it("lower-case http_proxy works too", async () => {
    process.env.http_proxy = proxy.url;
    const { WebData } = await freshNodeEntry();
    await new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" }).getCreditUsage();
    expect(proxy.forwarded).toEqual([`GET ${served.url}/v2/team/credit-usage`]);
  });

  it("NO_PROXY excludes a host from the proxy", async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = "localhost,127.0.0.1";
    const { WebData } = await freshNodeEntry();
    await new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" }).scrape("https://acme.test");
    expect(proxy.forwarded).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("HTTPS_PROXY: an https URL is tunnelled with CONNECT through the proxy", async () => {
    process.env.HTTPS_PROXY = proxy.url;
    const { WebData, ConnectionError } = await freshNodeEntry();
    const client = new WebData({ apiKey: "fc-key", apiUrl: "https://api.webdata.test", maxRetries: 0, logLevel: "off" });
    await expect(client.getCreditUsage()).rejects.toBeInstanceOf(ConnectionError);
    expect(proxy.tunnels).toEqual(["api.webdata.test:443"]);
  });

  it("HTTPS_PROXY alone leaves plain http direct", async () => {
    process.env.HTTPS_PROXY = proxy.url;
    const { WebData } = await freshNodeEntry();
    await new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" }).scrape("https://acme.test");
    expect(proxy.forwarded).toEqual([]);
    expect(proxy.tunnels).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("the process-wide pool reads the environment once; maxConnections makes a new pool that reads it again", async () => {
    const { WebData } = await freshNodeEntry();
    const before = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
    await before.getTokenUsage();
    process.env.HTTP_PROXY = proxy.url;
    await new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" }).getTokenUsage();
    expect(proxy.forwarded).toEqual([]);
    await new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off", maxConnections: 4 }).getTokenUsage();
    expect(proxy.forwarded).toEqual([`GET ${served.url}/v2/team/token-usage`]);
  });
});

describe("dispatcher option (Node entry)", () => {
  it("sends through the caller's dispatcher (a ProxyAgent)", async () => {
    const { WebData } = await freshNodeEntry();
    const dispatcher = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, dispatcher, logLevel: "off" });
    await client.scrape("https://acme.test");
    expect(proxy.forwarded).toEqual([`POST ${served.url}/v2/scrape`]);
    await dispatcher.close();
  });

  it("a caller's dispatcher wins over the proxy environment", async () => {
    process.env.HTTP_PROXY = "http://127.0.0.1:9"; // nothing listens there
    const { WebData } = await freshNodeEntry();
    const dispatcher = new Agent();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, dispatcher, maxRetries: 0, logLevel: "off" });
    await client.scrape("https://acme.test");
    expect(fake.requests).toHaveLength(1);
    await dispatcher.close();
  });
});

describe("connection reuse (Node entry)", () => {
  function countConnections(server: Server): { count: number } {
    const c = { count: 0 };
    server.on("connection", () => c.count++);
    return c;
  }

  it("sequential calls reuse keep-alive connections", async () => {
    const { WebData } = await freshNodeEntry();
    const conns = countConnections(served.server);
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
    for (let i = 0; i < 20; i++) await client.getTokenUsage();
    expect(fake.requests).toHaveLength(20);
    // undici's pool may open a second socket while the first is finishing its response; never one per call.
    expect(conns.count).toBeLessThanOrEqual(2);
  });

  it("maxConnections bounds the sockets per origin under concurrency", async () => {
    const { WebData } = await freshNodeEntry();
    const conns = countConnections(served.server);
    fake.inject({ match: "/v2/team/token-usage", delayMs: 20, times: 12 });
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, maxConnections: 2, logLevel: "off" });
    await Promise.all(Array.from({ length: 12 }, () => client.getTokenUsage()));
    expect(fake.requests).toHaveLength(12);
    expect(conns.count).toBeLessThanOrEqual(2);
  });
});
