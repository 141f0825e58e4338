const { WebData } = await import(process.argv[2]);
const doc = { markdown: "x".repeat(20000), metadata: { title: "t" } };
const body = JSON.stringify({ success: true, data: doc });
const headers = new Headers({ "content-type": "application/json" });
const answer = async () => ({ status: 200, headers, text: async () => body, stream: () => null });
const client = new WebData({ apiKey: "fc-0123456789abcdef0123456789abcdef", apiUrl: "http://127.0.0.1:1", logLevel: "off", maxRetries: 0, transport: answer });
const N = 5000;
for (let i = 0; i < 1000; i++) await client.scrape("https://acme.test", { formats: ["markdown"] });
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  for (let i = 0; i < N; i++) await client.scrape("https://acme.test", { formats: ["markdown"] });
  const a = (performance.now() - t) * 1000 / N;
  t = performance.now();
  for (let i = 0; i < N; i++) JSON.parse(await (await answer()).text());
  const b = (performance.now() - t) * 1000 / N;
  console.log(`scrape ${a.toFixed(1)} µs, JSON.parse ${b.toFixed(1)} µs, ratio ${(a / b).toFixed(2)}`);
}
