/**
 * Fake `POST /v2/agent-signup`: the sponsor state machine of spec §3/§7 and
 * reference §11, plus helpers for tests to block or confirm a sponsor.
 */
import { fail, json, type FakeService, type FakeTeam } from "../service.js";
import { stateOf } from "./scrape.js";

const DAY = 86_400_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

interface SignupState {
  /** Pending or finished signups by e-mail. */
  byEmail: Map<string, { team: FakeTeam; key: string }>;
  /** E-mails whose owner blocked agent signups. */
  blocked: Set<string>;
  /** Times of accepted signups (daily limit). */
  times: number[];
  /** E-mails sent: `{ to, agentName }`. */
  emails: { to: string; agentName: string }[];
}

/** The signup state of a fake service. */
export function signupState(fake: FakeService): SignupState {
  return stateOf(fake, "signup", () => ({ byEmail: new Map(), blocked: new Set(), times: [], emails: [] }));
}

function hexKey(n: number): string {
  let h = "";
  for (let i = 0; i < 32; i++) h += ((n * 2654435761 + i * 40503) >>> (i % 24)).toString(16).slice(-1);
  return `fc-${h}`;
}

/** Registers the signup route. */
export function registerSignup(fake: FakeService): void {
  fake.route("POST", "/v2/agent-signup", ({ body }) => signup(fake, (body ?? {}) as Record<string, unknown>), { auth: false });
}

/** What is wrong with a signup's body, as the server words it (empty when nothing). */
function problemsOf(b: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof b.email !== "string") problems.push("Invalid input: expected string, received undefined");
  else if (!EMAIL.test(b.email)) problems.push("Invalid email address");
  else if (b.email.includes("+")) problems.push("Email addresses with '+' are not allowed for agent signup.");
  if (typeof b.agent_name !== "string") problems.push("Invalid input: expected string, received undefined");
  else if (b.agent_name.length < 1 || b.agent_name.length > 100) problems.push("agent_name must be 1 to 100 characters");
  if (b.accept_terms !== true) problems.push("You must accept the terms here. https://www.firecrawl.dev/terms-of-service");
  return problems;
}

/** `POST /v2/agent-signup`: a new team with a pending sponsor, and its key (within the daily limit, once per e-mail). */
function signup(fake: FakeService, b: Record<string, unknown>): Response {
  const problems = problemsOf(b);
  if (problems.length) return fail(400, `Invalid request body: ${problems.join(", ")}`);
  const s = signupState(fake);
  const email = String(b.email).toLowerCase();
  const now = fake.now();
  s.times = s.times.filter((t) => now - t < DAY);
  if (s.times.length >= fake.options.signupDailyLimit) return fail(429, "Rate limit exceeded. Maximum 3 agent signup requests per day per IP.");
  if (s.blocked.has(email)) return fail(403, "This email has blocked agent signups.");
  const prior = s.byEmail.get(email);
  if (prior?.team.sponsor?.status === "pending") {
    if (now > prior.team.sponsor.deadline) {
      return fail(403, "Previous agent signup verification has expired. Please log in to manage your account.", { login_url: "https://firecrawl.dev/signin" });
    }
    return fail(409, "A pending agent signup confirmation has already been sent to this email.", { login_url: "https://firecrawl.dev/signin" });
  }
  s.times.push(now);
  const key = hexKey(s.byEmail.size + s.times.length + 1);
  const deadline = now + 5 * DAY;
  const team: FakeTeam = { id: `team-agent-${s.byEmail.size + 1}`, planCredits: 50, creditsUsed: 0, ledger: [], sponsor: { email, status: "pending", deadline, creditLimit: 50 } };
  fake.teams.set(key, team);
  s.byEmail.set(email, { team, key });
  s.emails.push({ to: email, agentName: String(b.agent_name) });
  const verification_deadline_at = new Date(deadline).toISOString();
  return json(201, { success: true, api_key: key, sponsor_status: "pending", credit_limit: 50, credits_remaining: 50, verification_deadline_at, tos_url: "https://firecrawl.dev/terms-of-service" });
}
