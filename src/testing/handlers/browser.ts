/**
 * Fake browser sessions (`/v2/browser`, reference §10), with TTLs on the
 * fake's clock and scripted, deterministic `execute` results:
 * - `exit N` exits with code N (stderr `exit N`; `error` set when N != 0);
 * - `throw <text>` exits 1 with `Error: <text>` on stderr;
 * - `sleep N` runs N seconds: past the call's `timeout` it is killed (exit 137);
 * - `return <json>` sets `result`; `console.log(<text>)` / `print(<text>)` / `echo <text>` write stdout.
 * A session past its `ttl`, idle past its `activityTtl`, or deleted answers 410.
 * Credits: 120 per hour of session time, prorated, at least 1, billed on delete or expiry.
 */
import { fail, HttpFailure, json, type FakeService, type FakeTeam, type HandlerContext } from "../service.js";
import { badRequest, fakeId, stateOf } from "./scrape.js";

/** A fake browser session. */
export interface FakeBrowserSession {
  /** Session id. */
  id: string;
  /** Owner. */
  team: FakeTeam;
  /** Key that created it (billing). */
  key: string | undefined;
  /** `active` or `destroyed`. */
  status: "active" | "destroyed";
  /** Creation time (fake clock, ms). */
  createdAt: number;
  /** Last activity (fake clock, ms). */
  lastActivity: number;
  /** Lifetime, seconds. */
  ttl: number;
  /** Idle timeout, seconds. */
  activityTtl: number;
  /** Live view streamed. */
  streamWebView: boolean;
  /** Profile name and whether it writes. */
  profile: { name: string; saveChanges: boolean } | undefined;
  /** When it ended (fake clock, ms). */
  endedAt?: number;
}

/** Most active sessions per team (the real service's limit). */
export const MAX_BROWSER_SESSIONS = 20;
/** Credits per hour of browser time. */
export const BROWSER_CREDITS_PER_HOUR = 120;

/** The fake's browser sessions, by id. */
export function browserSessions(fake: FakeService): Map<string, FakeBrowserSession> {
  return stateOf(fake, "browserSessions", () => new Map());
}

function creditsFor(ms: number): number {
  return Math.max(1, Math.ceil((ms / 3_600_000) * BROWSER_CREDITS_PER_HOUR));
}

function end(fake: FakeService, s: FakeBrowserSession, at: number): void {
  if (s.status === "destroyed") return;
  s.status = "destroyed";
  s.endedAt = at;
  try {
    fake.charge(s.team, creditsFor(at - s.createdAt), s.key);
  } catch {
    // out of credits at the end of a session: the real service bills what it can
  }
}

/** Ends sessions whose TTL or idle timeout has passed. */
export function expireBrowsers(fake: FakeService): void {
  const now = fake.now();
  for (const s of browserSessions(fake).values()) {
    if (s.status !== "active") continue;
    const hardEnd = s.createdAt + s.ttl * 1000;
    const idleEnd = s.lastActivity + s.activityTtl * 1000;
    if (now >= Math.min(hardEnd, idleEnd)) end(fake, s, Math.min(hardEnd, idleEnd));
  }
}

function view(s: FakeBrowserSession, origin: string) {
  const host = new URL(origin).host;
  return {
    id: s.id,
    cdpUrl: `wss://${host}/browser/${s.id}/cdp`,
    liveViewUrl: `${origin}/browser/${s.id}/live`,
    interactiveLiveViewUrl: `${origin}/browser/${s.id}/live?interactive=true`,
  };
}

function intIn(v: unknown, min: number, max: number, field: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) badRequest([field], `Number must be between ${min} and ${max}`, "too_big");
  return v;
}

function lookup(fake: FakeService, id: string, team: FakeTeam | undefined): FakeBrowserSession {
  expireBrowsers(fake);
  const s = browserSessions(fake).get(id);
  if (!s) throw new HttpFailure(fail(404, "Browser session not found."));
  if (team && s.team !== team) throw new HttpFailure(fail(403, "Forbidden."));
  return s;
}

/** The scripted outcome of `code`, with an `error` when it failed (as an execute answer carries it). */
export function scriptAnswer(code: string, timeoutSeconds: number): Record<string, unknown> {
  const r = runScript(code, timeoutSeconds);
  return { ...r, ...(r.exitCode !== 0 || r.killed ? { error: r.stderr || "Execution failed" } : {}) };
}

/** The scripted outcome of `code`. */
function runScript(code: string, timeoutSeconds: number): { stdout: string; stderr: string; result: unknown; exitCode: number; killed: boolean } {
  const out = { stdout: "", stderr: "", result: null as unknown, exitCode: 0, killed: false };
  for (const line of code.split(/\n|;/).map((l) => l.trim()).filter(Boolean)) {
    let m: RegExpExecArray | null;
    if ((m = /^sleep\s+(\d+)/.exec(line)) && Number(m[1]) > timeoutSeconds) return { ...out, killed: true, exitCode: 137 };
    if ((m = /^exit\s+(\d+)/.exec(line))) return { ...out, exitCode: Number(m[1]), stderr: out.stderr + line };
    if ((m = /^throw\s+(.*)$/.exec(line))) return { ...out, exitCode: 1, stderr: `${out.stderr}Error: ${m[1]}` };
    if ((m = /^return\s+(.*)$/.exec(line))) {
      try {
        out.result = JSON.parse(m[1] as string);
      } catch {
        out.result = m[1];
      }
      continue;
    }
    if ((m = /^(?:console\.log|print)\((.*)\)$/.exec(line)) || (m = /^echo\s+(.*)$/.exec(line))) {
      out.stdout += `${(m[1] as string).replace(/^["'`]|["'`]$/g, "")}\n`;
    }
  }
  return out;
}

/** Registers the browser routes. */
export function registerBrowser(fake: FakeService): void {
  fake.route("POST", "/v2/browser", (c) => createSession(fake, c));
  fake.route("GET", "/v2/browser", (c) => listSessions(fake, c));
  fake.route("POST", "/v2/browser/:id/execute", (c) => execute(fake, c));
  fake.route("DELETE", "/v2/browser/:id", ({ params, team }) => {
    const s = lookup(fake, params.id as string, team);
    end(fake, s, fake.now());
    return json(200, { success: true });
  });
}

/** `POST /v2/browser`: a session, within the team's concurrent sessions, its profile's lock and its credits. */
function createSession(fake: FakeService, { body, team, key, origin }: HandlerContext): Response {
  const b = (body ?? {}) as Record<string, unknown>;
  const ttl = intIn(b.ttl, 30, 3600, "ttl") ?? 600;
  const activityTtl = intIn(b.activityTtl, 10, 3600, "activityTtl") ?? 300;
  const p = b.profile as { name?: unknown; saveChanges?: unknown } | undefined;
  if (p !== undefined && (typeof p?.name !== "string" || p.name.length < 1 || p.name.length > 128)) badRequest(["profile", "name"], "Profile name must be 1..128 characters");
  const t = team ?? fake.team;
  expireBrowsers(fake);
  const active = [...browserSessions(fake).values()].filter((s) => s.team === t && s.status === "active");
  if (active.length >= MAX_BROWSER_SESSIONS) {
    throw new HttpFailure(fail(429, `You have reached the maximum number of concurrent browser sessions (${MAX_BROWSER_SESSIONS}). Please destroy an existing session before creating a new one.`));
  }
  const profile = p ? { name: p.name as string, saveChanges: p.saveChanges !== false } : undefined;
  if (profile?.saveChanges && active.some((s) => s.profile?.name === profile.name && s.profile.saveChanges)) {
    throw new HttpFailure(fail(409, `Profile "${profile.name}" is locked by another session that saves changes.`));
  }
  const need = creditsFor(ttl * 1000);
  if (t.creditsUsed + need > t.planCredits) {
    throw new HttpFailure(fail(402, `Insufficient credits for a browser session of ${ttl}s (needs ${need} credits).`));
  }
  fake.requireCredits(team, 2);
  const now = fake.now();
  const s: FakeBrowserSession = { id: fakeId(fake), team: t, key, status: "active", createdAt: now, lastActivity: now, ttl, activityTtl, streamWebView: b.streamWebView !== false, profile };
  browserSessions(fake).set(s.id, s);
  return json(200, { success: true, ...view(s, origin), expiresAt: new Date(now + ttl * 1000).toISOString() });
}

/** `GET /v2/browser`: the team's sessions (active or destroyed). */
function listSessions(fake: FakeService, { url, team, origin }: HandlerContext): Response {
  const status = url.searchParams.get("status");
  if (status !== null && status !== "active" && status !== "destroyed") badRequest(["status"], 'Invalid option: expected one of "active"|"destroyed"', "invalid_value");
  expireBrowsers(fake);
  const t = team ?? fake.team;
  const sessions = [...browserSessions(fake).values()]
    .filter((s) => s.team === t && (status === null || s.status === status))
    .map((s) => ({ ...view(s, origin), status: s.status, streamWebView: s.streamWebView, createdAt: new Date(s.createdAt).toISOString(), lastActivity: new Date(s.lastActivity).toISOString() }));
  return json(200, { success: true, sessions });
}

/** `POST /v2/browser/:id/execute`: runs the code (scripted) in a live session. */
function execute(fake: FakeService, { params, body, team }: HandlerContext): Response {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.code !== "string" || b.code.length < 1 || b.code.length > 100000) badRequest(["code"], "code must be 1..100000 characters");
  if (b.language !== undefined && !["python", "node", "bash"].includes(String(b.language))) badRequest(["language"], 'Invalid option: expected one of "python"|"node"|"bash"', "invalid_value");
  const timeout = intIn(b.timeout, 1, 300, "timeout") ?? 30;
  const s = lookup(fake, params.id as string, team);
  if (s.status === "destroyed") throw new HttpFailure(fail(410, "Browser session has been destroyed."));
  s.lastActivity = fake.now();
  return json(200, { success: true, ...scriptAnswer(b.code, timeout) });
}
