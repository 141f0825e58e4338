/**
 * Fake team endpoints: token and credit usage, v2 camelCase and v1 snake_case.
 */
import { json, TOKENS_PER_CREDIT, type FakeService, type FakeTeam } from "../service.js";
import { stateOf } from "./scrape.js";

/** The current billing period of the fake: the 30 days from the team's first request. */
export function billingPeriod(fake: FakeService): { start: string; end: string } {
  const start = stateOf(fake, "billingStart", () => fake.now());
  return { start: new Date(start).toISOString(), end: new Date(start + 30 * 86_400_000).toISOString() };
}

function usage(fake: FakeService, team: FakeTeam) {
  const { start, end } = billingPeriod(fake);
  const limit = team.sponsor?.status === "pending" ? team.sponsor.creditLimit : team.planCredits;
  const remainingCredits = Math.max(0, limit - team.creditsUsed);
  return { remainingCredits, planCredits: limit, remainingTokens: remainingCredits * TOKENS_PER_CREDIT, planTokens: limit * TOKENS_PER_CREDIT, start, end };
}

/** Registers `/team/token-usage` and `/team/credit-usage` for v1 and v2 (v2 camelCase, v1 snake_case). */
export function registerTeam(fake: FakeService): void {
  for (const [kind, v2, v1] of [["token", "Tokens", "tokens"], ["credit", "Credits", "credits"]] as const) {
    fake.route("GET", `/v2/team/${kind}-usage`, ({ team }) => {
      const u = usage(fake, team ?? fake.team);
      return json(200, { success: true, data: { [`remaining${v2}`]: u[`remaining${v2}`], [`plan${v2}`]: u[`plan${v2}`], billingPeriodStart: u.start, billingPeriodEnd: u.end } });
    });
    fake.route("GET", `/v1/team/${kind}-usage`, ({ team }) => {
      const u = usage(fake, team ?? fake.team);
      return json(200, { success: true, data: { [`remaining_${v1}`]: u[`remaining${v2}`], [`plan_${v1}`]: u[`plan${v2}`], billing_period_start: u.start, billing_period_end: u.end } });
    });
  }
}
