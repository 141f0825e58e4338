const { WebData } = await import("../.distC/node/index.js");
const doc = { markdown: "x".repeat(20000), metadata: { title: "t" } };
const body = JSON.stringify({ success: true, data: doc });
const headers = new Headers({ "content-type": "application/json" });
const answer = async () => ({ status: 200, headers, text: async () => body, stream: () => null });
const client = new WebData({ apiKey: "fc-0123456789abcdef0123456789abcdef", apiUrl: "http://127.0.0.1:1", logLevel: "off", maxRetries: 0, transport: answer });
for (const v of [undefined, { formats: ["markdown"] }]) {
  globalThis.__chk = [];
  for (let i = 0; i < 5000; i++) await client.scrape("https://acme.test", v && { formats: ["markdown"] });
  const by = {};
  for (const [c, t, k] of globalThis.__chk.slice(2000)) { const key = c + " [" + k + "]"; (by[key] ??= [0, 0]); by[key][0]++; by[key][1] += t; }
  for (const [k, [n, t]] of Object.entries(by)) console.log(JSON.stringify(v), k, n, (t * 1000 / n).toFixed(2), "µs");
}
