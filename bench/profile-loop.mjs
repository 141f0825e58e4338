// A loop of sequential scrapes to profile (not run by `npm run bench`): the Node entry, or raw undici.request
// for comparison, against a bench server in another process (`npx tsx bench/serve.ts` prints its URL):
//   node --cpu-prof --cpu-prof-dir=prof --cpu-prof-interval 50 bench/profile-loop.mjs webdata http://127.0.0.1:PORT 8000
// mode: "webdata" | "undici" | "undici-signal" (raw undici with an AbortSignal and a timer a call, as the SDK had).
// Prints wall and CPU time a call (process.cpuUsage) after a 300-call warm-up.
const [mode, url, nArg] = process.argv.slice(2);
const N = Number(nArg ?? 5000);
const KEY = "fc-bench";
let call;
if (mode === "undici" || mode === "undici-signal") {
  const { Agent, request } = await import("undici");
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
  const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };
  const body = JSON.stringify({ url: "https://acme.test", formats: ["markdown"] });
  call = async () => {
    const ctl = mode === "undici-signal" ? new AbortController() : undefined;
    const timer = ctl ? setTimeout(() => ctl.abort(), 60_000) : undefined;
    const res = await request(`${url}/v2/scrape`, { method: "POST", headers, body, dispatcher, signal: ctl?.signal });
    const parsed = JSON.parse(await res.body.text());
    clearTimeout(timer);
    return parsed;
  };
} else {
  const { WebData } = await import("webdata");
  const client = new WebData({ apiKey: KEY, apiUrl: url, logLevel: "off", maxRetries: 0 });
  call = () => client.scrape("https://acme.test", { formats: ["markdown"] });
}
for (let i = 0; i < 300; i++) await call();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await call();
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ mode, wallUs: ((performance.now() - t0) * 1000) / N, cpuUs: (cpu.user + cpu.system) / N }));
