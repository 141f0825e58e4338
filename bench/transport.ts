/**
 * Transport benchmark (`npm run bench`; not part of `npm test`): per-call
 * latency (1 in flight) and throughput (256 in flight) of one scrape call
 * against a minimal loopback server that returns a fixed scrape body, so the
 * figures are client cost. Ratios are against raw `node:http` with a
 * keep-alive agent, measured in the same run. Bounded: a fixed number of
 * calls per contender, loopback only.
 *
 *   npm run bench            # defaults
 *   BENCH_SEQ=500 BENCH_CONC_TOTAL=5000 npm run bench   # quicker
 */
import { Agent as HttpAgent, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { request as undiciRequest, Agent as UndiciAgent } from "undici";
import { WebData as PortableWebData } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";

const SEQ = Number(process.env.BENCH_SEQ ?? 1000);
const CONC = 256;
const CONC_TOTAL = Number(process.env.BENCH_CONC_TOTAL ?? 10_000);
const WARMUP = 200;

const BODY = JSON.stringify({
  success: true,
  data: {
    markdown: `# Acme\n\n${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(40)}`,
    metadata: { title: "Acme", sourceURL: "https://acme.test", url: "https://acme.test/", statusCode: 200, contentType: "text/html" },
  },
});

async function startServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(BODY) });
      res.end(BODY);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type Call = () => Promise<unknown>;

function contenders(base: string): [string, Call][] {
  const payload = JSON.stringify({ url: "https://acme.test", formats: ["markdown"] });
  const headers = { "content-type": "application/json", authorization: "Bearer fc-bench" };
  const agent = new HttpAgent({ keepAlive: true, maxSockets: CONC });
  const undiciAgent = new UndiciAgent({ connections: CONC, keepAliveTimeout: 10_000 });
  const nodeClient = new NodeWebData({ apiKey: "fc-bench", apiUrl: base, logLevel: "off", maxRetries: 0 });
  const fetchClient = new PortableWebData({ apiKey: "fc-bench", apiUrl: base, logLevel: "off", maxRetries: 0, fetch: globalThis.fetch });
  const url = `${base}/v2/scrape`;

  const rawHttp: Call = () =>
    new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(payload) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(payload);
    });
  return [
    ["node:http keep-alive (baseline)", rawHttp],
    ["raw undici.request", async () => (await undiciRequest(url, { method: "POST", headers, body: payload, dispatcher: undiciAgent })).body.json()],
    ["raw global fetch", async () => (await fetch(url, { method: "POST", headers, body: payload })).json()],
    ["webdata, Node entry (undici)", () => nodeClient.scrape("https://acme.test", { formats: ["markdown"] })],
    ["webdata, global fetch injected", () => fetchClient.scrape("https://acme.test", { formats: ["markdown"] })],
  ];
}

async function sequential(call: Call): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await call();
  const t0 = performance.now();
  for (let i = 0; i < SEQ; i++) await call();
  return ((performance.now() - t0) * 1000) / SEQ; // microseconds per call
}

async function concurrent(call: Call): Promise<number> {
  let left = CONC_TOTAL;
  const worker = async () => {
    while (left-- > 0) await call();
  };
  left = Math.min(CONC_TOTAL, 1000);
  await Promise.all(Array.from({ length: CONC }, worker)); // open and warm the pool's sockets
  left = CONC_TOTAL;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONC }, worker));
  return CONC_TOTAL / ((performance.now() - t0) / 1000); // requests per second
}

const server = await startServer();
try {
  console.log(`transport benchmark: Node ${process.version}, loopback, ${SEQ} sequential calls, ${CONC_TOTAL} calls at ${CONC} in flight\n`);
  const rows: { name: string; us: number; rps: number }[] = [];
  for (const [name, call] of contenders(server.url)) {
    const us = await sequential(call);
    const rps = await concurrent(call);
    rows.push({ name, us, rps });
    console.log(`  measured ${name}`);
  }
  const base = rows[0]!;
  const pad = Math.max(...rows.map((r) => r.name.length));
  console.log(`\n${"".padEnd(pad)}  ${"us/call (1)".padStart(12)}  ${"x baseline".padStart(10)}  ${"req/s (256)".padStart(12)}  ${"x baseline".padStart(10)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(pad)}  ${r.us.toFixed(0).padStart(12)}  ${(r.us / base.us).toFixed(2).padStart(10)}  ${r.rps.toFixed(0).padStart(12)}  ${(r.rps / base.rps).toFixed(2).padStart(10)}`,
    );
  }
  console.log("\nus/call: lower is better (x baseline > 1 is slower); req/s: higher is better (x baseline < 1 is slower).");
} finally {
  await server.close();
}
