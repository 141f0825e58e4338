/**
 * Fake v2 account figures beyond current usage: historical credit and token
 * usage from the team ledger (what the fake has really charged), queue status
 * and concurrency (active browser sessions count as running).
 */
import { json, type FakeService, type FakeTeam } from "../service.js";
import { expireBrowsers, browserSessions } from "./browser.js";
import { billingPeriod } from "./team.js";

/** The fake plan's concurrency limit (also reported by v1 queue status). */
export const FAKE_MAX_CONCURRENCY = 2;
const PERIOD_MS = 30 * 86_400_000;

/** The display name of a key (the real service reports key names, never keys). */
export function keyName(fake: FakeService, key: string): string {
  const i = fake.options.apiKeys.indexOf(key);
  return i <= 0 ? "Default" : `Key ${i + 1}`;
}

function periods(fake: FakeService, team: FakeTeam, byKey: boolean, field: "credits" | "tokens") {
  const first = team.ledger[0];
  if (!fake.state.has("billingStart") && first) fake.state.set("billingStart", first.at);
  const start = Date.parse(billingPeriod(fake).start);
  const groups = new Map<string, { startDate: string; endDate: string; apiKey?: string; used: number; order: number }>();
  for (const e of team.ledger) {
    const n = Math.floor((e.at - start) / PERIOD_MS);
    const s = start + n * PERIOD_MS;
    const name = byKey ? keyName(fake, e.key) : undefined;
    const id = `${n}|${name ?? ""}`;
    const g = groups.get(id) ?? { startDate: new Date(s).toISOString(), endDate: new Date(s + PERIOD_MS).toISOString(), ...(name ? { apiKey: name } : {}), used: 0, order: n };
    g.used += e[field];
    groups.set(id, g);
  }
  return [...groups.values()].sort((a, b) => a.order - b.order).map(({ used, order: _o, ...p }) => ({ ...p, [field === "credits" ? "creditsUsed" : "tokensUsed"]: used }));
}

/** Active jobs of a team: its active browser sessions. */
export function activeCount(fake: FakeService, team: FakeTeam): number {
  expireBrowsers(fake);
  return [...browserSessions(fake).values()].filter((s) => s.team === team && s.status === "active").length;
}

/** Registers the historical usage (v2 and v1: the same body), queue-status and concurrency-check routes. */
export function registerUsageHistory(fake: FakeService): void {
  for (const v of ["v2", "v1"]) {
    for (const [kind, field] of [["credit", "credits"], ["token", "tokens"]] as const) {
      fake.route("GET", `/${v}/team/${kind}-usage/historical`, ({ team, url }) =>
        json(200, { success: true, periods: periods(fake, team ?? fake.team, url.searchParams.get("byApiKey") === "true", field) }),
      );
    }
  }
  fake.route("GET", "/v2/team/queue-status", ({ team }) => {
    const t = team ?? fake.team;
    const last = t.ledger.at(-1);
    const active = activeCount(fake, t);
    return json(200, {
      success: true,
      jobsInQueue: active,
      activeJobsInQueue: active,
      waitingJobsInQueue: 0,
      maxConcurrency: fake.options.teamConcurrency ?? FAKE_MAX_CONCURRENCY,
      mostRecentSuccess: last ? new Date(last.at).toISOString() : null,
    });
  });
  fake.route("GET", "/v2/concurrency-check", ({ team }) =>
    json(200, { success: true, concurrency: activeCount(fake, team ?? fake.team), maxConcurrency: fake.options.teamConcurrency ?? FAKE_MAX_CONCURRENCY }),
  );
}
