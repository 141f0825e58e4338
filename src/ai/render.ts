/** Documents and jobs as text for a model (each function's JSDoc gives its layout). Private to `webdata/ai`. */
import { shownUrl, type Document } from "../api/document.js";
import type { JobStatus } from "../jobs/types.js";
import type { ToolName } from "./names.js";
import type { Reply } from "./spec.js";

const json = (v: unknown): string => JSON.stringify(v, null, 2);

/** One document as text: a heading with its title and URL (and its scrape id when `scrapeIdFor` names the tool it is for), then every format it carries. */
export function pageText(doc: Document, options: { scrapeIdFor?: ToolName | undefined } = {}): string {
  const m = doc.metadata ?? ({} as Document["metadata"]);
  const url = shownUrl(doc);
  const title = Array.isArray(m.title) ? m.title[0] : m.title;
  const parts = [`## ${title ? `${title} ` : ""}(${url})`];
  if (options.scrapeIdFor && m.scrapeId) parts.push(`scrape id: ${m.scrapeId} (for ${options.scrapeIdFor})`);
  if (m.error) parts.push(`page error: ${m.error}`);
  if (typeof doc.summary === "string") parts.push(`Summary:\n${doc.summary}`);
  if (typeof doc.answer === "string") parts.push(`Answer:\n${doc.answer}`);
  if (typeof doc.markdown === "string") parts.push(doc.markdown);
  if (doc.json !== undefined) parts.push(`JSON:\n${json(doc.json)}`);
  if (typeof doc.html === "string") parts.push(`HTML:\n${doc.html}`);
  if (typeof doc.rawHtml === "string") parts.push(`Raw HTML:\n${doc.rawHtml}`);
  if (doc.links?.length) parts.push(`Links:\n${doc.links.join("\n")}`);
  if (doc.images?.length) parts.push(`Images:\n${doc.images.join("\n")}`);
  if (typeof doc.screenshot === "string") parts.push(`Screenshot: ${doc.screenshot.startsWith("data:") ? `an inline image (${doc.screenshot.length} characters of data URI, not shown)` : doc.screenshot}`);
  if (doc.branding) parts.push(`Branding:\n${json(doc.branding)}`);
  if (doc.warning) parts.push(`warning: ${doc.warning}`);
  if (parts.length === 1) parts.push(json(m));
  return parts.join("\n\n");
}

/** A crawl or batch scrape: its counters as the head, its pages as the body. */
export function jobReply(kind: "crawl" | "batch", job: Pick<JobStatus, "id" | "status" | "completed" | "total" | "data" | "error">, statusTool: "crawl_status" | "batch_status"): Reply {
  const failed = job.status === "failed" && job.error ? ` (${job.error})` : "";
  const running = job.status === "scraping" ? `; still running: call ${statusTool} with this id later for more pages` : "";
  const head = `${kind === "crawl" ? "crawl" : "batch scrape"} ${job.id}: ${job.status}${failed}, ${job.completed} of ${job.total} pages done, ${job.data.length} shown below${running}`;
  return { head, body: job.data.map((d) => pageText(d)).join("\n\n"), readOn: { tool: statusTool, args: { id: job.id } }, failed: job.status === "failed" };
}

/** An extract or agent job: its state as the head, its data (JSON) as the body. */
export function taskReply(kind: "extract" | "agent", s: { id: string; status: string; data?: unknown; error?: string | undefined; creditsUsed?: number | undefined }, statusTool: "extract_status" | "agent_status"): Reply {
  const credits = typeof s.creditsUsed === "number" ? `, ${s.creditsUsed} credits used` : "";
  const state = s.status === "processing" ? `; still running: call ${statusTool} with this id later` : s.error ? ` (${s.error})` : "";
  return { head: `${kind} ${s.id}: ${s.status}${credits}${state}`, body: s.status === "completed" ? json(s.data ?? null) : "", readOn: { tool: statusTool, args: { id: s.id } }, failed: s.status === "failed" };
}
