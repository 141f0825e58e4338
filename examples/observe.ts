/**
 * See and govern a crawl: OpenTelemetry spans through `webdata/otel` (one span for each call, a CLIENT span
 * for each HTTP attempt, one for the waited job), every request's id, and the credits the client spent
 * (`client.credits`) under a budget. Prints the trace as a tree and the credit total.
 *
 *   npm run build && npx tsx examples/observe.ts
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { WebData, type Hooks } from "webdata";
import { otelHooks } from "webdata/otel";
import { team } from "webdata/team";
import { runIfMain, type Connection } from "./connect.js";

/** The spans as an indented tree, each with its duration and the attributes worth reading. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const children = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const s of spans) {
    const parent = s.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const here = (children.get(parent) ?? []).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    for (const s of here) {
      const a = s.attributes;
      const extra = [a["http.response.status_code"], a["webdata.job.status"], a["webdata.credits_used"] === undefined ? undefined : `${a["webdata.credits_used"]} credits`].filter((v) => v !== undefined).join(", ");
      lines.push(`${"  ".repeat(depth)}${s.name}${extra ? ` (${extra})` : ""}`);
      walk(s.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

/** Crawls 5 pages with tracing, a request-id log and a budget; returns what it printed in numbers. */
export async function main({ client: base, site, fake, pollIntervalMs }: Connection): Promise<{ spans: number; traces: number; requests: number; everyRequestSeen: boolean; credits: number; crawlCredits: number | undefined }> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const client = new WebData({ apiUrl: base.apiUrl, apiKey: fake?.apiKey, plugins: [team], budget: { credits: 100 }, hooks: otelHooks({ tracerProvider }) });
  // A call's own hooks run after the client's: here, each answer's request id (one per call, the same on its retries).
  const ids = new Set<string>();
  const log: Hooks = { onResponse: (e) => void ids.add(e.requestId) };
  const job = await client.crawl(site, { limit: 5, pollIntervalMs }, { hooks: log });
  await tracerProvider.forceFlush();
  const spans = exporter.getFinishedSpans();
  console.log(`crawl ${job.id}: ${job.status}, ${job.data.length} pages`);
  for (const line of tree(spans)) console.log(line);
  const credits = client.credits.snapshot();
  console.log(`${ids.size} requests, each with its own x-request-id; credits spent: ${credits.total} (${JSON.stringify(credits.byOperation)}), budget 100`);
  // Against the fake: the call's hooks saw every request it sent (the start, the polls, the final download).
  const everyRequestSeen = fake === undefined || ids.size === fake.requests.length;
  // One trace: with no span of the app's active, the start call is its root and the job's span (with the polls under it) its child.
  const traces = new Set(spans.map((s) => s.spanContext().traceId)).size;
  return { spans: spans.length, traces, requests: ids.size, everyRequestSeen, credits: credits.total, crawlCredits: credits.byJob[job.id] };
}

runIfMain(import.meta.url, main);
