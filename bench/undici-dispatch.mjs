// Raw undici, two ways, at 256 requests in flight against the bench server (`npx tsx bench/serve.ts` in another
// process): `request()` with `body.json()` (what the Node transport used before its own dispatch handler) against
// `Dispatcher.dispatch` with a handler that collects the chunks and parses in the end step, in undici's older
// handler API ("legacy", what `request()`'s own handler uses and what the Node transport's `Exchange` implements)
// and its newer one ("modern"). Prints the client's CPU a request (user + system) and req/s; bench/README.md,
// "third pass", has the figures.
//   node bench/undici-dispatch.mjs <url printed by bench/serve.ts> <request|legacy|modern> [total]
import { Agent, request } from "undici";
const [url, mode, totalArg] = process.argv.slice(2);
const TOTAL = Number(totalArg ?? 6000), CONC = 256;
const dispatcher = new Agent({ connections: CONC, keepAliveTimeout: 10_000 });
let n = 0;
const payload = () => JSON.stringify({ url: `https://acme.test/page/${n++}`, formats: ["markdown"] });
const headers = { "content-type": "application/json", authorization: "Bearer fc-bench" };
const u = new URL(`${url}/v2/scrape`);
class Legacy {
  constructor(resolve, reject) { this.resolve = resolve; this.reject = reject; this.chunks = []; this.length = 0; this.status = 0; }
  onConnect(abort) { this.abort = abort; }
  onHeaders(status, raw, resume) { this.status = status; this.raw = raw; return true; }
  onData(chunk) { this.chunks.push(chunk); this.length += chunk.length; return true; }
  onComplete() { const b = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length); this.resolve(JSON.parse(b.toString("utf8"))); }
  onError(err) { this.reject(err); }
}
class Modern {
  constructor(resolve, reject) { this.resolve = resolve; this.reject = reject; this.chunks = []; this.length = 0; this.status = 0; }
  onRequestStart(c) { this.c = c; }
  onResponseStart(c, status, headers) { this.status = status; this.headers = headers; }
  onResponseData(c, chunk) { this.chunks.push(chunk); this.length += chunk.length; }
  onResponseEnd() { const b = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length); this.resolve(JSON.parse(b.toString("utf8"))); }
  onResponseError(c, err) { this.reject(err); }
}
const call =
  mode === "request" ? async () => (await request(u.href, { method: "POST", headers, body: payload(), dispatcher })).body.json()
  : mode === "legacy" ? () => new Promise((res, rej) => dispatcher.dispatch({ origin: u.origin, path: u.pathname, method: "POST", headers, body: payload() }, new Legacy(res, rej)))
  : () => new Promise((res, rej) => dispatcher.dispatch({ origin: u.origin, path: u.pathname, method: "POST", headers, body: payload() }, new Modern(res, rej)));
let left = 1000;
const worker = async () => { while (left-- > 0) await call(); };
await Promise.all(Array.from({ length: CONC }, worker));
left = TOTAL;
const cpu0 = process.cpuUsage(); const t0 = performance.now();
await Promise.all(Array.from({ length: CONC }, worker));
const wall = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
let s = 0; for (let i = 0; i < 300; i++) { const t = performance.now(); await call(); s += performance.now() - t; }
console.log(JSON.stringify({ mode, reqPerS: Math.round(TOTAL / (wall / 1000)), concCpuUs: Math.round((cpu.user + cpu.system) / TOTAL), seqUs: Math.round(s * 1000 / 300) }));
process.exit(0);
