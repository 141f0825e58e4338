/**
 * Fake routes the service added after the reference's baseline (§14), as the
 * official client 4.x uses them: scrape interaction (`POST`/`DELETE
 * /v2/scrape/:id/interact`) and search feedback (`POST /v2/search/:id/feedback`).
 * Their wire is read from that client, not from the reference: the fake checks
 * only what the client relies on.
 */
import { fail, HttpFailure, json, type FakeService } from "../service.js";
import { runScript } from "./browser.js";
import { badRequest, fakeId } from "./scrape.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function jobId(raw: string | undefined, what: string): string {
  if (!raw || !UUID.test(raw)) throw new HttpFailure(fail(404, `${what} not found`));
  return raw;
}

/** Registers the post-baseline routes. */
export function registerLater(fake: FakeService): void {
  const stopped = new Set<string>();
  const feedback = new Map<string, string>();

  fake.route("POST", "/v2/scrape/:id/interact", ({ params, body, origin }) => {
    const id = jobId(params.id, "Scrape job");
    const b = (body ?? {}) as Record<string, unknown>;
    const code = typeof b.code === "string" && b.code.trim() ? b.code : undefined;
    const prompt = typeof b.prompt === "string" && b.prompt.trim() ? b.prompt : undefined;
    if (!code && !prompt) badRequest(["code"], "Either 'code' or 'prompt' must be provided");
    if (b.language !== undefined && !["python", "node", "bash"].includes(String(b.language))) badRequest(["language"], 'Invalid option: expected one of "python"|"node"|"bash"', "invalid_value");
    stopped.delete(id);
    const live = { cdpUrl: `${origin.replace(/^http/, "ws")}/cdp/${id}`, liveViewUrl: `${origin}/live/${id}` };
    if (!code) return json(200, { success: true, output: `Done: ${prompt}`, ...live });
    const r = runScript(code, typeof b.timeout === "number" ? b.timeout : 30);
    return json(200, { success: true, ...live, ...r, ...(r.exitCode !== 0 || r.killed ? { error: r.stderr || "Execution failed" } : {}) });
  });

  fake.route("DELETE", "/v2/scrape/:id/interact", ({ params }) => {
    const id = jobId(params.id, "Scrape job");
    if (stopped.has(id)) throw new HttpFailure(fail(404, "Interactive browser session not found"));
    stopped.add(id);
    return json(200, { success: true, status: "destroyed" });
  });

  fake.route("POST", "/v2/search/:id/feedback", ({ params, body }) => {
    const id = jobId(params.id, "Search job");
    const b = (body ?? {}) as Record<string, unknown>;
    if (!["good", "partial", "bad"].includes(String(b.rating))) badRequest(["rating"], 'Invalid option: expected one of "good"|"partial"|"bad"', "invalid_value");
    const earlier = feedback.get(id);
    if (earlier) return json(200, { success: true, feedbackId: earlier, creditsRefunded: 0, alreadySubmitted: true });
    const feedbackId = fakeId(fake);
    feedback.set(id, feedbackId);
    return json(200, { success: true, feedbackId, creditsRefunded: 0 });
  });
}
