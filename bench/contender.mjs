// One contender of the per-call and throughput measures, in a fresh process of its own, against the bench
// server in another process (`bench/serve.ts`): how an app meets the client, with no server taking turns on
// its event loop. Run by bench/clients.ts, once per contender and run, in rotated order:
//   node bench/contender.mjs <contender> <apiUrl> <seq> <conc> <concTotal>
// contender: "http" (node:http keep-alive agent) | "undici" (undici.request) | "fetch" (global fetch) |
//   "official" (@mendable/firecrawl-js) | "webdata" (the Node entry, undici) | "webdata-fetch" (webdata over global fetch)
// Prints one JSON line: µs a call (the mean of `seq` sequential scrapes after a warm-up), the median and the
// p99 of the single calls, the process's CPU time a call (user + system: what a loaded machine inflates least),
// and req/s of `concTotal` scrapes with `conc` in flight (after a warm-up that opens
// the sockets). BENCH_SKIP=call or BENCH_SKIP=throughput leaves one out (for a profile of the other).
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [contender, apiUrl, seqArg, concArg, totalArg] = process.argv.slice(2);
const SEQ = Number(seqArg);
const CONC = Number(concArg);
const TOTAL = Number(totalArg);
const SKIP = process.env.BENCH_SKIP ?? "";
const KEY = "fc-bench";
const url = `${apiUrl}/v2/scrape`;
// Each call scrapes a URL of its own, as an app does (a client that remembered one request body would be
// flattered by a loop that sends the same one); every contender builds its body per call.
let n = 0;
const page = () => `https://acme.test/page/${n++}`;
const payload = () => JSON.stringify({ url: page(), formats: ["markdown"] });
const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };

/** The official client: by its name when scripts/official-client.mjs has linked it, else from its own install. */
async function importOfficial() {
  try {
    return await import("@mendable/firecrawl-js");
  } catch {
    const root = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "official-client", "package.json");
    const pkg = createRequire(root).resolve("@mendable/firecrawl-js/package.json");
    return import(pathToFileURL(join(dirname(pkg), createRequire(root)(pkg).exports["."].import)).href);
  }
}

async function makeCall() {
  if (contender === "http") {
    const agent = new HttpAgent({ keepAlive: true, maxSockets: CONC });
    return () =>
      new Promise((resolve, reject) => {
        const body = payload();
        const sent = { ...headers, "content-length": Buffer.byteLength(body) };
        const req = httpRequest(url, { method: "POST", agent, headers: sent }, (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(body);
      });
  }
  if (contender === "undici") {
    const { Agent, request } = await import("undici");
    const dispatcher = new Agent({ connections: CONC, keepAliveTimeout: 10_000 });
    return async () => (await request(url, { method: "POST", headers, body: payload(), dispatcher })).body.json();
  }
  if (contender === "fetch") return async () => (await fetch(url, { method: "POST", headers, body: payload() })).json();
  if (contender === "official") {
    const Firecrawl = (await importOfficial()).default;
    const client = new Firecrawl({ apiKey: KEY, apiUrl, maxRetries: 1 }); // its maxRetries counts attempts
    return () => client.scrape(page(), { formats: ["markdown"] });
  }
  if (contender === "webdata" || contender === "webdata-fetch") {
    // The Node entry, as an app gets it (the exports map's "node" condition); BENCH_WEBDATA=<file>: another build of it (an A/B).
    const entry = process.env.BENCH_WEBDATA;
    const { WebData } = await import(entry ? pathToFileURL(resolve(entry)).href : "webdata");
    const extra = contender === "webdata-fetch" ? { fetch: globalThis.fetch } : {};
    const client = new WebData({ apiKey: KEY, apiUrl, logLevel: "off", maxRetries: 0, ...extra });
    return () => client.scrape(page(), { formats: ["markdown"] });
  }
  throw new Error(`unknown contender ${contender}`);
}

const call = await makeCall();
const out = { contender };

if (!SKIP.includes("call")) {
  for (let i = 0; i < Math.min(200, SEQ); i++) await call();
  const times = new Float64Array(SEQ);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < SEQ; i++) {
    const t = performance.now();
    await call();
    times[i] = performance.now() - t;
  }
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  times.sort();
  const at = (q) => times[Math.min(SEQ - 1, Math.floor(q * SEQ))] * 1000;
  Object.assign(out, { perCallUs: (total * 1000) / SEQ, medianUs: at(0.5), p99Us: at(0.99), maxUs: at(1), cpuUs: (cpu.user + cpu.system) / SEQ });
}

if (!SKIP.includes("throughput")) {
  let left = Math.min(TOTAL, 1000);
  const worker = async () => {
    while (left-- > 0) await call();
  };
  await Promise.all(Array.from({ length: CONC }, worker)); // open and warm the sockets
  left = TOTAL;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONC }, worker));
  out.reqPerS = TOTAL / ((performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  out.concCpuUs = (cpu.user + cpu.system) / TOTAL; // the client's CPU a request under load: what caps its throughput

}

console.log(JSON.stringify(out));
process.exit(0);
