/**
 * The scrape rules that tie fields together, which the server enforces with a
 * 400 (reference §3.2-§3.4 for v2, §15.2 for v1): written once for both API
 * versions. Each version reads its own wire shape into a {@link ScrapeRuleView}
 * (v2 `formats` entries are names or `{ type }` objects; v1 entries are names,
 * `screenshot@fullPage` being a screenshot); the checks and their messages are
 * the same. Rules only one version has (v1's `extract` / `jsonOptions`
 * pairing) stay with that version.
 */

/** Most browser actions in one request. */
export const MAX_ACTIONS = 50;

/** Most total wait of one request (`waitFor` plus every `wait` action), ms. */
export const MAX_TOTAL_WAIT_MS = 60_000;

/** Wait of a `wait` action that names a selector instead of `milliseconds` (as the server counts it), ms. */
const SELECTOR_WAIT_MS = 1000;

/** What the rules read of a scrape request, whatever its API version. Values are as given (the rules guard against malformed input). */
export interface ScrapeRuleView {
  /** One format name per requested format, in the version's own reading. */
  names: unknown[];
  /** `formats` as given (reported as the input of a format issue). */
  formats: unknown;
  waitFor: unknown;
  timeout: unknown;
  actions: unknown;
}

/** Where the rules put their issues: a zod `superRefine` context. */
export interface RuleIssues {
  /** The issues of the value being checked. */
  issues: { path: PropertyKey[]; message: string; code: "custom"; input: unknown }[];
}

/**
 * The cross-field scrape rules: `changeTracking` needs `markdown`; at most one
 * screenshot format; `waitFor` at most half of `timeout`; at most
 * {@link MAX_ACTIONS} actions; `waitFor` plus the wait actions at most
 * {@link MAX_TOTAL_WAIT_MS}. Runs even when other checks failed, so every
 * problem is listed.
 */
export function scrapeRules(view: ScrapeRuleView, ctx: RuleIssues): void {
  const push = (path: string, message: string, input: unknown): void => void ctx.issues.push({ code: "custom", path: [path], message, input });
  const { names, waitFor, timeout } = view;
  if (names.includes("changeTracking") && !names.includes("markdown")) push("formats", "the changeTracking format requires the markdown format as well", view.formats);
  if (names.filter((n) => n === "screenshot").length > 1) push("formats", "at most one screenshot format is allowed", view.formats);
  if (typeof waitFor === "number" && typeof timeout === "number" && waitFor > timeout / 2) push("waitFor", "waitFor must not exceed half of timeout", waitFor);
  const actions: { type?: unknown; milliseconds?: unknown }[] = Array.isArray(view.actions) ? view.actions.filter((a) => a && typeof a === "object") : [];
  if (actions.length > MAX_ACTIONS) push("actions", `at most ${MAX_ACTIONS} actions are allowed`, view.actions);
  const waits = actions.reduce((sum, a) => sum + (a.type === "wait" ? (typeof a.milliseconds === "number" ? a.milliseconds : SELECTOR_WAIT_MS) : 0), 0);
  // Only with wait actions: `waitFor` alone over 60 s is its own field's issue (its schema's bound), said once.
  if (waits > 0 && (typeof waitFor === "number" ? waitFor : 0) + waits > MAX_TOTAL_WAIT_MS) push("actions", "total wait time (waitFor + wait actions) cannot exceed 60 seconds", view.actions);
}
