/**
 * What the lifecycle hooks cost a call: sequential scrapes over the Node entry (undici)
 * against the loopback bench server (`bench/server.ts`, fixed answers, so the figures are client
 * cost), with no hooks (the baseline), an empty `hooks: {}`, and a no-op hook of each kind on the
 * client. A second table takes the network out (the transport stubbed, as `bench/clients.ts`'s
 * "SDK overhead" row), where the hooks' own CPU shows best. Each figure is the median of `--runs`
 * runs, the contenders interleaved in each run, with the spread (min-max), and a ratio to the
 * baseline measured in the same run.
 *
 *   npx tsx bench/hooks-cost.mts                          # 5 runs of 2,000 calls, 2 KB answers
 *   npx tsx bench/hooks-cost.mts --runs 3 --calls 500 --doc-kb 20
 *
 * A row is one entry of CONTENDERS: a name and the client options it adds (`webdata/otel` with the API's no-op
 * tracer, and with a real SDK provider whose exporter drops the spans).
 */
import { parseArgs } from "node:util";
import { WebData } from "../src/node.js";
import type { ClientOptions } from "../src/index.js";
import { otelHooks } from "../src/otel.js";
import { ExportResultCode } from "@opentelemetry/core";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { startBenchServer } from "./server.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    calls: { type: "string", default: "2000" },
    "doc-kb": { type: "string", default: "2" },
  },
});
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);
const DOC_BYTES = Number(values["doc-kb"]) * 1024;
const KEY = "fc-bench-hooks-0000";
/** A span exporter that drops every span (the otel row with a real provider measures the spans, not an export). */
const DROP: SpanExporter = { export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }), shutdown: async () => undefined };

/** Each row: its name and the client options it adds to the baseline's. The first is the baseline. */
export const CONTENDERS: [string, ClientOptions][] = [
  ["no hooks (baseline)", {}],
  ["hooks: {} (empty)", { hooks: {} }],
  ["no-op onRequest, onResponse, onRetry, onError", { hooks: { onRequest() {}, onResponse() {}, onRetry() {}, onError() {} } }],
  ["no-op onRequest + setHeader(traceparent)", { hooks: { onRequest: (e) => e.setHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01") } }],
  // webdata/otel: with no SDK registered, the API's default (no-op) tracer; then a real SDK provider whose spans go to an
  // exporter that drops them (a batch processor, as production runs it), so the spans' own cost shows and no I/O.
  ["webdata/otel, no-op tracer (no provider registered)", { hooks: otelHooks() }],
  ["webdata/otel, BasicTracerProvider + no-op exporter", { hooks: otelHooks({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(DROP)] }) }) }],
];

type Call = () => Promise<unknown>;

/** µs per call of `CALLS` sequential calls, after a warm-up. */
async function perCall(call: Call): Promise<number> {
  for (let i = 0; i < Math.min(200, CALLS); i++) await call();
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  return ((performance.now() - t0) * 1000) / CALLS;
}

function stat(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { median: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, min: s[0]!, max: s[s.length - 1]! };
}

/** Runs every contender `RUNS` times, interleaved, and prints the table. */
async function table(title: string, make: (extra: ClientOptions) => WebData): Promise<void> {
  const clients = CONTENDERS.map(([name, extra]) => [name, make(extra)] as const);
  const results = new Map<string, number[]>(CONTENDERS.map(([n]) => [n, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, client] of clients) results.get(name)!.push(await perCall(() => client.scrape("https://acme.test/", { formats: ["markdown"] })));
  }
  const base = stat(results.get(CONTENDERS[0]![0])!).median;
  console.log(`\n${title} (ratio to ${CONTENDERS[0]![0]})`);
  for (const [name, xs] of results) {
    const { median, min, max } = stat(xs);
    const value = `${median.toFixed(1)} µs (${min.toFixed(1)}-${max.toFixed(1)})`;
    console.log(`  ${name.padEnd(52)} ${value.padEnd(28)} ${(median / base).toFixed(2)}x`);
  }
}

const server = await startBenchServer({ docBytes: DOC_BYTES });
try {
  console.log(`Node ${process.version}, loopback, ${RUNS} run(s) of ${CALLS} calls a contender, ${DOC_BYTES / 1024} KB answers`);
  await table(`per call, ${CALLS} sequential scrapes over the Node entry (undici), loopback`, (extra) => new WebData({ apiKey: KEY, apiUrl: server.url, logLevel: "off", maxRetries: 0, ...extra }));
  // The same answer from a stubbed transport: no socket, so the hooks' own CPU is what differs.
  const res = await fetch(`${server.url}/v2/scrape`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test/" }) });
  const body = await res.text();
  const headers = new Headers({ "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(body)) });
  const transport = async () => ({ status: 200, headers, text: async () => body, stream: () => null });
  await table(`per call, ${CALLS} sequential scrapes, transport stubbed (no network)`, (extra) => new WebData({ apiKey: KEY, apiUrl: "http://127.0.0.1:1", logLevel: "off", maxRetries: 0, transport, ...extra }));
} finally {
  await server.close();
}
