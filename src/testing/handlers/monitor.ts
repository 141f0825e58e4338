/**
 * Fake page monitors (`/v2/monitor`, added after the reference's baseline), as
 * the server has them (`routes/v2.ts`, `controllers/v2/monitor.ts`,
 * `services/monitoring/types.ts`): monitors are kept per team; `run` starts a
 * check (answered `queued`, as the server answers) that has finished by the next
 * read: each page of the targets is read from the fixture web and compared with
 * what the monitor's last check saw (`new`, `same`, `changed` with a diff,
 * `removed`, `error`), one credit per page. Deterministic: ids from the fake's
 * counter, times from its clock. Schedules run only when asked (`runMonitor`).
 */
import { CREDITS, fail, HttpFailure, json, type FakeService, type FakeTeam, type HandlerContext } from "../service.js";
import { badRequest, fakeId, rejectUnknownKeys, stateOf, UUID, validUrl } from "./scrape.js";

type Rec = Record<string, unknown>;
type PageStatus = "same" | "new" | "changed" | "removed" | "error";

interface StoredPage { id: string; targetId: string; url: string; status: PageStatus; statusCode: number; diff: Rec | null; createdAt: string; scrapeId: string | null; previous: string | null }
interface StoredCheck { check: Rec; pages: StoredPage[] }
interface StoredMonitor { team: FakeTeam | undefined; monitor: Rec; checks: StoredCheck[]; seen: Map<string, { markdown: string; scrapeId: string; targetId: string }> }

const TOP_KEYS = new Set(["name", "schedule", "webhook", "notification", "targets", "retentionDays", "goal", "judgeEnabled", "origin"]);
const notFound = (what: string) => new HttpFailure(fail(404, `${what} not found`));

/** A schedule in words as the server reads it ("every 30 minutes", "hourly", "daily at 9:00"), as cron. */
function cronOf(text: string): string {
  const t = text.trim().toLowerCase();
  const every = /^every (\d+) (minute|hour)s?$/.exec(t);
  if (every) return every[2] === "minute" ? `*/${every[1]} * * * *` : `0 */${every[1]} * * *`;
  if (t === "hourly" || t === "every hour") return "0 * * * *";
  const daily = /^(?:daily|every day)(?: at (\d{1,2}):(\d{2}))?$/.exec(t);
  if (daily) return `${Number(daily[2] ?? 0)} ${Number(daily[1] ?? 0)} * * *`;
  return badRequest(["schedule", "text"], `Could not understand schedule "${text}"`);
}

function checkSchedule(s: unknown): { cron: string; timezone: string } {
  const o = (s ?? {}) as Rec;
  if (typeof s !== "object" || s === null) return badRequest(["schedule"], "Invalid input: expected object", "invalid_type");
  rejectUnknownKeys(o, new Set(["cron", "text", "timezone"]));
  if (!o.cron === !o.text) badRequest(["schedule", o.cron ? "text" : "cron"], o.cron ? "Schedule must include either cron or text, not both" : "Schedule must include either cron or text");
  if (o.cron !== undefined && (typeof o.cron !== "string" || o.cron.trim().split(/\s+/).length !== 5)) badRequest(["schedule", "cron"], "Invalid cron expression: expected 5 fields");
  return { cron: typeof o.cron === "string" ? o.cron : cronOf(String(o.text)), timezone: typeof o.timezone === "string" ? o.timezone : "UTC" };
}

function checkTargets(fake: FakeService, raw: unknown): Rec[] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > 50) return badRequest(["targets"], "Too small: expected array to have >=1 items", "too_small");
  return raw.map((t: Rec, i) => {
    const at = ["targets", String(i)];
    const type = t?.type;
    if (type === "scrape") {
      const urls = Array.isArray(t.urls) ? t.urls : t.url !== undefined ? [t.url] : undefined;
      if (!urls?.length || !urls.every((u) => validUrl(u))) badRequest([...at, "urls"], "Invalid input", "invalid_type");
      const { url: _url, ...rest } = t;
      return { ...rest, id: typeof t.id === "string" ? t.id : fakeId(fake), urls, scrapeOptions: t.scrapeOptions ?? {} };
    }
    if (type === "crawl") {
      if (!validUrl(t.url)) badRequest([...at, "url"], "Invalid input", "invalid_type");
      return { ...t, id: typeof t.id === "string" ? t.id : fakeId(fake), crawlOptions: t.crawlOptions ?? {}, scrapeOptions: t.scrapeOptions ?? {} };
    }
    if (type === "search") {
      if (!Array.isArray(t.queries) || t.queries.length < 1 || t.queries.length > 12) badRequest([...at, "queries"], "Invalid input", "too_small");
      return { searchWindow: "24h", maxResults: 10, ...t, id: typeof t.id === "string" ? t.id : fakeId(fake) };
    }
    return badRequest([...at, "type"], "Invalid input", "invalid_union");
  });
}

/** A git-style diff of two markdown texts (the lines that differ). */
function diffOf(url: string, before: string, after: string): Rec {
  const a = before.split("\n");
  const b = after.split("\n");
  const removed = a.filter((l) => !b.includes(l));
  const added = b.filter((l) => !a.includes(l));
  const text = [`--- a${new URL(url).pathname}`, `+++ b${new URL(url).pathname}`, `@@ -1,${a.length} +1,${b.length} @@`, ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join("\n");
  return { text, json: { files: [{ from: url, to: url, chunks: [{ changes: [...removed.map((content) => ({ type: "del", content })), ...added.map((content) => ({ type: "add", content }))] }] }] } };
}

/** Registers the monitor routes. */
export function registerMonitor(fake: FakeService): void {
  fake.route("POST", "/v2/monitor", (c) => createMonitor(fake, c));
  fake.route("GET", "/v2/monitor", (c) => listMonitors(fake, c));
  fake.route("GET", "/v2/monitor/:id", ({ params, team }) => json(200, { success: true, data: find(fake, team, params.id).monitor }));
  fake.route("PATCH", "/v2/monitor/:id", (c) => updateMonitor(fake, c));
  fake.route("DELETE", "/v2/monitor/:id", ({ params, team }) => {
    const found = find(fake, team, params.id);
    found.monitor = { ...found.monitor, status: "deleted", updatedAt: iso(fake) };
    return json(200, { success: true });
  });
  fake.route("POST", "/v2/monitor/:id/run", (c) => runMonitorCheck(fake, c));
  fake.route("GET", "/v2/monitor/:id/checks", (c) => listChecks(fake, c));
  fake.route("GET", "/v2/monitor/:id/checks/:checkId", (c) => readCheck(fake, c));
}

/** The fake's monitors, by id. */
const monitors = (fake: FakeService) => stateOf(fake, "monitors", () => new Map<string, StoredMonitor>());

const iso = (fake: FakeService) => new Date(fake.now()).toISOString();

/** The team's monitor `id` (400 for a malformed id, 404 for another team's or a deleted one). */
function find(fake: FakeService, team: FakeTeam | undefined, id: string | undefined): StoredMonitor {
  if (!id || !UUID.test(id)) badRequest(["monitorId"], "Invalid UUID", "invalid_format");
  const found = monitors(fake).get(id as string);
  if (!found || found.team !== team || found.monitor.status === "deleted") throw notFound("Monitor");
  return found;
}

/** A search target needs a goal, unless the judge is turned off. */
function goalRule(targets: Rec[], goal: unknown, judge: unknown): void {
  if (targets.some((t) => t.type === "search") && judge !== false && (typeof goal !== "string" || !goal.trim())) badRequest(["goal"], "A search target requires a non-empty goal");
}

/** `limit` and `offset` (or `skip`) of a list read, and its `status` filter. */
function paging(url: URL, key: "offset" | "skip") {
  const limit = url.searchParams.has("limit") ? Number(url.searchParams.get("limit")) : 25;
  const from = url.searchParams.has(key) ? Number(url.searchParams.get(key)) : 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) badRequest(["limit"], "Too big: expected number to be <=100", "too_big");
  if (!Number.isInteger(from) || from < 0) badRequest([key], "Too small: expected number to be >=0", "too_small");
  return { limit, from, status: url.searchParams.get("status") ?? undefined };
}

function createMonitor(fake: FakeService, { body, team }: HandlerContext): Response {
  const b = rejectUnknownKeys(body, TOP_KEYS);
  if (typeof b.name !== "string" || b.name.length < 1 || b.name.length > 256) badRequest(["name"], "Invalid input: expected string", "invalid_type");
  const schedule = checkSchedule(b.schedule);
  const targets = checkTargets(fake, b.targets);
  goalRule(targets, b.goal, b.judgeEnabled);
  fake.requireCredits(team, 1);
  const id = fakeId(fake);
  const now = iso(fake);
  const monitor: Rec = {
    id, name: b.name, status: "active", schedule, nextRunAt: new Date(fake.now() + 3_600_000).toISOString(), lastRunAt: null, currentCheckId: null, targets,
    webhook: b.webhook ?? null, notification: b.notification ?? {}, retentionDays: typeof b.retentionDays === "number" ? b.retentionDays : 30,
    estimatedCreditsPerMonth: targets.length * 720, lastCheckSummary: null, goal: typeof b.goal === "string" ? b.goal : null,
    judgeEnabled: b.judgeEnabled ?? (typeof b.goal === "string" && b.goal.trim() !== ""), createdAt: now, updatedAt: now,
  };
  monitors(fake).set(id, { team, monitor, checks: [], seen: new Map() });
  return json(200, { success: true, data: monitor });
}

/** `GET /v2/monitor`: the team's monitors, newest first. */
function listMonitors(fake: FakeService, { url, team }: HandlerContext): Response {
  const { limit, from } = paging(url, "offset");
  const mine = [...monitors(fake).values()].filter((m) => m.team === team && m.monitor.status !== "deleted").reverse();
  return json(200, { success: true, data: mine.slice(from, from + limit).map((m) => m.monitor) });
}

function updateMonitor(fake: FakeService, { params, body, team }: HandlerContext): Response {
  const found = find(fake, team, params.id);
  const b = rejectUnknownKeys(body, new Set([...TOP_KEYS, "status"]));
  if (Object.keys(b).length === 0) badRequest([], "Update body cannot be empty");
  if (b.status !== undefined && b.status !== "active" && b.status !== "paused") badRequest(["status"], 'Invalid option: expected one of "active"|"paused"', "invalid_value");
  const next: Rec = { ...found.monitor };
  for (const k of ["name", "status", "webhook", "notification", "retentionDays", "goal", "judgeEnabled"]) if (b[k] !== undefined) next[k] = b[k];
  if (b.schedule !== undefined) next.schedule = checkSchedule(b.schedule);
  if (b.targets !== undefined) next.targets = checkTargets(fake, b.targets);
  goalRule(next.targets as Rec[], next.goal, next.judgeEnabled);
  next.updatedAt = iso(fake);
  found.monitor = next;
  return json(200, { success: true, data: next });
}

const emptySummary = () => ({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });

/** `POST /v2/monitor/:id/run`: answered `queued`; the check runs at once and has finished by the next read. */
function runMonitorCheck(fake: FakeService, { params, team, key }: HandlerContext): Response {
  const found = find(fake, team, params.id);
  if (found.monitor.status === "paused") throw new HttpFailure(fail(409, "Monitor is paused. Resume it before running a check."));
  fake.requireCredits(team, 1);
  const id = fakeId(fake);
  const now = iso(fake);
  const queued: Rec = {
    id, monitorId: found.monitor.id, status: "queued", trigger: "manual", scheduledFor: null, startedAt: null, finishedAt: null, estimatedCredits: null,
    reservedCredits: null, actualCredits: null, billingStatus: "not_applicable", summary: emptySummary(), targetResults: null, notificationStatus: null, error: null, createdAt: now, updatedAt: now,
  };
  const { pages, targetResults, current } = readTargets(fake, found, now);
  const summary = emptySummary();
  for (const p of pages) summary[p.status] += 1;
  summary.totalPages = pages.length;
  const credits = pages.filter((p) => p.status !== "removed").length * CREDITS.scrape;
  fake.charge(team, credits, key);
  found.seen = current;
  const done: Rec = { ...queued, status: "completed", startedAt: now, finishedAt: now, actualCredits: credits, billingStatus: credits ? "confirmed" : "not_applicable", summary: { ...summary }, targetResults, updatedAt: now };
  found.checks.unshift({ check: done, pages });
  found.monitor = { ...found.monitor, lastRunAt: now, lastCheckSummary: { ...summary } };
  return json(200, { success: true, id, data: queued });
}

/** One check of monitor `m`'s targets: each page compared with what its last check saw, each target's result, and what this check saw. */
function readTargets(fake: FakeService, m: StoredMonitor, now: string): { pages: StoredPage[]; targetResults: Rec[]; current: StoredMonitor["seen"] } {
  const pages: StoredPage[] = [];
  const targetResults: Rec[] = [];
  const current = new Map<string, { markdown: string; scrapeId: string; targetId: string }>();
  for (const t of m.monitor.targets as Rec[]) {
    const scrapeIds: string[] = [];
    for (const url of targetUrls(fake, t)) {
      const page = fake.findPage(url);
      const was = m.seen.get(url);
      const scrapeId = fakeId(fake);
      scrapeIds.push(scrapeId);
      if (page) current.set(url, { markdown: page.markdown, scrapeId, targetId: String(t.id) });
      const status: PageStatus = !page ? "error" : !was ? "new" : was.markdown === page.markdown ? "same" : "changed";
      pages.push({ id: fakeId(fake), targetId: String(t.id), url, status, statusCode: page ? page.statusCode : 404, diff: status === "changed" ? diffOf(url, was!.markdown, page!.markdown) : null, createdAt: now, scrapeId: page ? scrapeId : null, previous: was?.scrapeId ?? null });
    }
    targetResults.push(t.type === "scrape" ? { targetId: t.id, type: "scrape", expectedJobs: scrapeIds } : t.type === "crawl" ? { targetId: t.id, type: "crawl", crawlId: fakeId(fake) } : { targetId: t.id, type: "search", searchCompleted: true, resultCount: 0, matches: 0, summary: "No new results." });
  }
  const read = new Set(pages.map((p) => p.url));
  for (const [url, was] of m.seen) {
    if (!read.has(url)) pages.push({ id: fakeId(fake), targetId: was.targetId, url, status: "removed", statusCode: 404, diff: null, createdAt: now, scrapeId: null, previous: was.scrapeId });
  }
  return { pages, targetResults, current };
}

/** The pages a target reads: a scrape target's URLs, a crawl target's site (up to its limit); none for a search. */
function targetUrls(fake: FakeService, t: Rec): string[] {
  if (t.type === "scrape") return t.urls as string[];
  if (t.type !== "crawl") return [];
  const origin = new URL(String(t.url)).origin;
  return fake.pages.filter((p) => p.url.startsWith(origin)).slice(0, Number((t.crawlOptions as Rec | undefined)?.limit ?? 10)).map((p) => p.url);
}

function listChecks(fake: FakeService, { params, url, team }: HandlerContext): Response {
  const found = find(fake, team, params.id);
  const { limit, from, status } = paging(url, "offset");
  const list = found.checks.map((c) => c.check).filter((c) => !status || c.status === status);
  return json(200, { success: true, data: list.slice(from, from + limit) });
}

/** `GET /v2/monitor/:id/checks/:checkId`: the check with a page of its pages, and the link to the next page. */
function readCheck(fake: FakeService, { params, url, team, origin }: HandlerContext): Response {
  const found = find(fake, team, params.id);
  if (!params.checkId || !UUID.test(params.checkId)) badRequest(["checkId"], "Invalid UUID", "invalid_format");
  const c = found.checks.find((x) => x.check.id === params.checkId);
  if (!c) throw notFound("Check");
  const { limit, from, status } = paging(url, "skip");
  const all = c.pages.filter((p) => !status || p.status === status);
  const pages = all.slice(from, from + limit).map((p) => ({
    id: p.id, targetId: p.targetId, url: p.url, status: p.status, previousScrapeId: p.previous, currentScrapeId: p.scrapeId, statusCode: p.statusCode,
    error: p.status === "error" ? "Page not found" : null, metadata: { sourceURL: p.url }, judgment: null, createdAt: p.createdAt, diff: p.diff,
  }));
  const query = new URLSearchParams({ skip: String(from + pages.length), limit: String(limit), ...(status ? { status } : {}) });
  const next = all.length > from + pages.length ? `${new URL(`/v2/monitor/${params.id}/checks/${params.checkId}`, origin)}?${query}` : undefined;
  return json(200, { success: true, next, data: { ...c.check, pages, next } });
}
