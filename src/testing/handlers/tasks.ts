/**
 * Fake extract and agent jobs (reference §8, §9): `processing` for a number of
 * status reads, then `completed` with data conforming to the request's schema
 * (built from the first URL's fixture page), or `failed` when a test says so
 * with {@link fakeTasks}.
 */
import { CREDITS, fail, HttpFailure, json, type FakeService } from "../service.js";
import { badRequest, conform, fakeId, rejectUnknownKeys, stateOf } from "./scrape.js";

/** A fake extract or agent job. */
export interface FakeTask {
  /** Job id. */
  id: string;
  /** `extract` or `agent`. */
  kind: "extract" | "agent";
  /** Current status. */
  status: "processing" | "completed" | "failed" | "cancelled";
  /** Status reads left before it ends. */
  pollsLeft: number;
  /** How it ends. */
  outcome: "completed" | "failed";
  /** Error text of a failed job. */
  error?: string | undefined;
  /** The request body. */
  request: Record<string, unknown>;
  /** The result, once completed. */
  data?: unknown;
  /** Creation time (fake clock). */
  createdAt: number;
}

/** Settings for new extract and agent jobs. */
export interface TaskOptions {
  /** Status reads that answer `processing` before the job ends (default 1). */
  pollsToFinish: number;
  /** How new jobs end (default `completed`). */
  outcome: "completed" | "failed";
  /** Error text of failed jobs. */
  error: string;
}

interface TaskState {
  tasks: Map<string, FakeTask>;
  options: TaskOptions;
}

function state(fake: FakeService): TaskState {
  return stateOf(fake, "tasks", () => ({ tasks: new Map(), options: { pollsToFinish: 1, outcome: "completed", error: "Extraction failed: no content could be extracted" } }));
}

/** What a test can do with the fake's extract and agent jobs. */
export interface FakeTasks {
  /** Every job, by id. */
  readonly all: ReadonlyMap<string, FakeTask>;
  /** Settings for jobs started from now on. */
  configure(options: Partial<TaskOptions>): void;
  /** Ends a job now as failed. */
  fail(id: string, error?: string): void;
}

/** The extract/agent handle of `fake`. */
export function fakeTasks(fake: FakeService): FakeTasks {
  const s = state(fake);
  return {
    all: s.tasks,
    configure: (o) => Object.assign(s.options, o),
    fail: (id, error) => {
      const t = s.tasks.get(id);
      if (!t) throw new Error(`No fake task ${id}`);
      t.status = "failed";
      t.error = error ?? s.options.error;
    },
  };
}

/** The option keys of an extract request (v2 and v1 alike). */
export const EXTRACT_KEYS = new Set([
  "urls", "prompt", "systemPrompt", "schema", "limit", "ignoreSitemap", "includeSubdomains", "allowExternalLinks", "enableWebSearch", "scrapeOptions",
  "showSources", "__experimental_showSources", "urlTrace", "timeout", "agent", "ignoreInvalidURLs", "webhook", "origin", "integration",
]);
const AGENT_KEYS = new Set(["prompt", "urls", "schema", "maxCredits", "strictConstrainToURLs", "model", "webhook", "origin", "integration", "overrideWhitelist"]);

function create(fake: FakeService, kind: FakeTask["kind"], request: Record<string, unknown>): FakeTask {
  const s = state(fake);
  const t: FakeTask = { id: fakeId(fake), kind, status: "processing", pollsLeft: s.options.pollsToFinish, outcome: s.options.outcome, request, createdAt: fake.now() };
  if (t.outcome === "failed") t.error = s.options.error;
  s.tasks.set(t.id, t);
  return t;
}

function progress(fake: FakeService, t: FakeTask, team: Parameters<FakeService["charge"]>[0], key: string | undefined): void {
  if (t.status !== "processing") return;
  if (t.pollsLeft > 0) {
    t.pollsLeft -= 1;
    return;
  }
  if (t.outcome === "failed") {
    t.status = "failed";
    return;
  }
  const urls = Array.isArray(t.request.urls) ? (t.request.urls as string[]) : [];
  const page = fake.findPage(urls[0] ?? "") ?? fake.pages[0];
  if (!page) throw new Error("the fixture web is empty");
  t.data = t.request.schema ? conform(t.request.schema, page) : { answer: `${page.title}: ${page.description}` };
  fake.charge(team, t.kind === "extract" ? CREDITS.extract : CREDITS.agent, key);
  t.status = "completed";
}

function expires(t: FakeTask): string {
  return new Date(t.createdAt + 24 * 3600 * 1000).toISOString();
}

/** The extract or agent job `id` (404 for another kind's or an unknown id). */
export function findTask(fake: FakeService, id: string | undefined, kind: FakeTask["kind"]): FakeTask {
  const t = id === undefined ? undefined : state(fake).tasks.get(id);
  if (!t || t.kind !== kind) throw new HttpFailure(fail(404, kind === "extract" ? "Extract job not found" : "Agent job not found"));
  return t;
}

/** Registers `/v2/extract` and `/v2/agent`. */
export function registerTasks(fake: FakeService): void {
  fake.route("POST", "/v2/extract", ({ body, team }) => {
    const b = rejectUnknownKeys(body, EXTRACT_KEYS);
    if (!(Array.isArray(b.urls) && b.urls.length) && typeof b.prompt !== "string") badRequest([], "Either 'urls' or 'prompt' must be provided.");
    fake.requireCredits(team, CREDITS.extract);
    const t = create(fake, "extract", b);
    return json(200, { success: true, id: t.id, urlTrace: [] });
  });
  fake.route("GET", "/v2/extract/:id", ({ params, team, key }) => {
    const t = findTask(fake, params.id, "extract");
    progress(fake, t, team, key);
    const done = t.status === "completed";
    return json(200, {
      success: t.status !== "failed",
      data: done ? t.data : [],
      status: t.status,
      ...(t.status === "failed" ? { error: t.error } : {}),
      expiresAt: expires(t),
      ...(done ? { creditsUsed: CREDITS.extract, tokensUsed: 300 } : {}),
    });
  });
  fake.route("POST", "/v2/agent", ({ body, team }) => {
    const b = rejectUnknownKeys(body, AGENT_KEYS);
    if (typeof b.prompt !== "string" || !b.prompt) badRequest(["prompt"], "Invalid input: expected string, received undefined", "invalid_type");
    fake.requireCredits(team, CREDITS.agent);
    const t = create(fake, "agent", b);
    return json(200, { success: true, id: t.id });
  });
  fake.route("GET", "/v2/agent/:id", ({ params, team, key }) => {
    const t = findTask(fake, params.id, "agent");
    progress(fake, t, team, key);
    return json(200, {
      success: true,
      status: t.status,
      ...(t.status === "failed" ? { error: t.error } : {}),
      ...(t.status === "completed" ? { data: t.data, creditsUsed: CREDITS.agent } : {}),
      model: typeof t.request.model === "string" ? t.request.model : "spark-1-pro",
      expiresAt: expires(t),
    });
  });
  fake.route("DELETE", "/v2/agent/:id", ({ params }) => {
    const t = findTask(fake, params.id, "agent");
    if (t.status === "cancelled") return fail(409, "Agent is already cancelled");
    if (t.status !== "processing") return fail(409, "Agent already finished");
    t.status = "cancelled";
    return json(200, { success: true });
  });
}
