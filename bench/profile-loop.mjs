// A loop of sequential scrapes to profile (not run by `npm run bench`): the Node entry, or raw undici.request
// for comparison, against a bench server in another process (`npx tsx bench/serve.ts` prints its URL):
//   node --cpu-prof --cpu-prof-dir=prof --cpu-prof-interval 50 bench/profile-loop.mjs webdata http://127.0.0.1:PORT 8000
// mode: "webdata" | "undici" | "undici-signal" (raw undici with an AbortSignal and a timer a call, as the SDK had).
// Prints wall and CPU time a call (process.cpuUsage) after a 300-call warm-up. BENCH_PROFILE=<file.cpuprofile> writes a
// CPU profile of the timed loop alone; BENCH_WEBDATA=<file> loads another build of the Node entry (an A/B before a build).
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
  // BENCH_WEBDATA: another build of the Node entry to load (a file path or URL), for an A/B of a change before `npm run build`.
  const entry = process.env.BENCH_WEBDATA;
  const { WebData } = await import(entry ? new URL(entry, `file://${process.cwd()}/`).href : "webdata");
  const client = new WebData({ apiKey: KEY, apiUrl: url, logLevel: "off", maxRetries: 0 });
  call = () => client.scrape("https://acme.test", { formats: ["markdown"] });
}
for (let i = 0; i < 300; i++) await call();
// BENCH_PROFILE=<file>: a CPU profile of the timed loop alone (no start-up, no warm-up), by node:inspector, 50 µs sampling.
const profile = process.env.BENCH_PROFILE;
let session;
if (profile) {
  const { Session } = await import("node:inspector/promises");
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
}
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await call();
const cpu = process.cpuUsage(cpu0);
if (session) {
  const { profile: data } = await session.post("Profiler.stop");
  (await import("node:fs")).writeFileSync(profile, JSON.stringify(data));
}
console.log(JSON.stringify({ mode, wallUs: ((performance.now() - t0) * 1000) / N, cpuUs: (cpu.user + cpu.system) / N }));
