/**
 * Fake routes the service added after the reference's baseline (§14), as the
 * official client 4.x uses them: scrape interaction (`POST`/`DELETE
 * /v2/scrape/:id/interact`) and search feedback (`POST /v2/search/:id/feedback`).
 * Their wire is read from that client, not from the reference: the fake checks
 * only what the client relies on.
 */
import { fail, HttpFailure, json, type FakeService, type HandlerContext } from "../service.js";
import { scriptAnswer } from "./browser.js";
import { fakeTasks, findTask } from "./tasks.js";
import { feedbackOnce } from "./parse.js";
import { badRequest, UUID } from "./scrape.js";

function jobId(raw: string | undefined, what: string): string {
  if (!raw || !UUID.test(raw)) throw new HttpFailure(fail(404, `${what} not found`));
  return raw;
}

/** Registers the post-baseline routes. */
export function registerLater(fake: FakeService): void {
  const stopped = new Set<string>();
  const feedback = new Map<string, string>();
  fake.route("POST", "/v2/scrape/:id/interact", (c) => interact(stopped, c));
  fake.route("DELETE", "/v2/scrape/:id/interact", ({ params }) => {
    const id = jobId(params.id, "Scrape job");
    if (stopped.has(id)) throw new HttpFailure(fail(404, "Interactive browser session not found"));
    stopped.add(id);
    return json(200, { success: true, status: "destroyed" });
  });
  fake.route("GET", "/v2/agent", (c) => listAgents(fake, c));
  fake.route("GET", "/v2/agent/:id/trace", (c) => agentTrace(fake, c));
  fake.route("GET", "/v2/agent/:id/snapshots/:snapshotId", ({ params }) => {
    const t = findTask(fake, params.id, "agent");
    if (t.status !== "completed" || params.snapshotId !== `${t.id}-result`) throw new HttpFailure(fail(404, "Snapshot not found"));
    return json(200, { success: true, id: t.id, snapshotId: params.snapshotId, snapshot: JSON.stringify(t.data) });
  });
  fake.route("POST", "/v2/search/:id/feedback", ({ params, body }) => {
    const id = jobId(params.id, "Search job");
    const b = (body ?? {}) as Record<string, unknown>;
    if (!["good", "partial", "bad"].includes(String(b.rating))) badRequest(["rating"], 'Invalid option: expected one of "good"|"partial"|"bad"', "invalid_value");
    return feedbackOnce(fake, feedback, id);
  });
}

/** `POST /v2/scrape/:id/interact`: runs the code (scripted) or answers the prompt, in the scrape's browser. */
function interact(stopped: Set<string>, { params, body, origin }: HandlerContext): Response {
  const id = jobId(params.id, "Scrape job");
  const b = (body ?? {}) as Record<string, unknown>;
  const code = typeof b.code === "string" && b.code.trim() ? b.code : undefined;
  const prompt = typeof b.prompt === "string" && b.prompt.trim() ? b.prompt : undefined;
  if (!code && !prompt) badRequest(["code"], "Either 'code' or 'prompt' must be provided");
  if (b.language !== undefined && !["python", "node", "bash"].includes(String(b.language))) badRequest(["language"], 'Invalid option: expected one of "python"|"node"|"bash"', "invalid_value");
  stopped.delete(id);
  const live = { cdpUrl: `${origin.replace(/^http/, "ws")}/cdp/${id}`, liveViewUrl: `${origin}/live/${id}` };
  if (!code) return json(200, { success: true, output: `Done: ${prompt}`, ...live });
  return json(200, { success: true, ...live, ...scriptAnswer(code, typeof b.timeout === "number" ? b.timeout : 30) });
}

/** `GET /v2/agent`: agent runs, newest first, 20 a page (`before` pages on). */
function listAgents(fake: FakeService, { url, origin }: HandlerContext): Response {
  const before = url.searchParams.has("before") ? Number(url.searchParams.get("before")) : Infinity;
  const runs = [...fakeTasks(fake).all.values()].filter((t) => t.kind === "agent" && t.createdAt < before).sort((a, b) => b.createdAt - a.createdAt);
  const page = runs.slice(0, 20);
  const agents = page.map((t) => ({
    id: t.id, createdAt: new Date(t.createdAt).toISOString(), targetHint: String(t.request.prompt ?? "").slice(0, 80), origin: typeof t.request.origin === "string" ? t.request.origin : "api",
    settings: { hidden: false, starred: false }, status: t.status === "cancelled" ? "failed" : t.status, options: { prompt: t.request.prompt, urls: t.request.urls, model: t.request.model ?? "spark-1-pro" },
  }));
  const last = page.at(-1);
  return json(200, { success: true, agents, ...(runs.length > 20 && last ? { next: `${origin}/v2/agent?before=${last.createdAt}` } : {}) });
}

/** `GET /v2/agent/:id/trace`: the run's events so far (and its live browser while it runs, when asked). */
function agentTrace(fake: FakeService, { params, url, origin }: HandlerContext): Response {
  const t = findTask(fake, params.id, "agent");
  const base = (n: number, type: string) => ({ schemaVersion: 1, eventId: `${t.id}-${n}`, runId: t.id, occurredAt: new Date(t.createdAt + n).toISOString(), producerSequence: n, agent: { id: "orchestrator", role: "orchestrator" }, type });
  const events: Record<string, unknown>[] = [base(1, "run.started")];
  if (t.status === "completed") {
    events.push({ ...base(2, "artifact.updated"), artifact: { kind: "json", artifactId: "result", snapshotId: `${t.id}-result`, change: "init" } });
    events.push({ ...base(3, "run.finished"), status: "completed" });
  } else if (t.status !== "processing") events.push({ ...base(2, "run.finished"), status: t.status });
  const live = url.searchParams.get("liveView") === "true" && t.status === "processing" ? { activeBrowserSessions: [{ id: `${t.id}-browser`, liveViewUrl: `${origin}/live/${t.id}`, viewport: { width: 1280, height: 800 } }] } : {};
  return json(200, { success: true, id: t.id, events, ...live });
}
