/**
 * Fake `POST /v2/crawl/params-preview`: derives crawl options from the
 * prompt's words, deterministically.
 */
import { fail, json, type FakeService } from "../service.js";

/** Registers the route. */
export function registerPreview(fake: FakeService): void {
  fake.route("POST", "/v2/crawl/params-preview", ({ body }) => {
    const b = (body ?? {}) as Record<string, unknown>;
    const problems: string[] = [];
    const url = typeof b.url === "string" && URL.canParse(b.url) ? new URL(b.url) : undefined;
    if (!url || !/^https?:$/.test(url.protocol)) problems.push("Invalid URL");
    if (typeof b.prompt !== "string" || b.prompt.length > 10000) problems.push("Invalid input: expected string");
    if (problems.length) return fail(400, `Invalid request parameters: ${problems.join(", ")}`, { code: "BAD_REQUEST" });
    const prompt = String(b.prompt).toLowerCase();
    if (fake.state.get("aiDisabled")) return fail(400, "Failed to process natural language prompt. Please try rephrasing.");
    const data: Record<string, unknown> = { url: b.url };
    const section = /\b(blog|products|many|about|contact)\b/.exec(prompt);
    if (section) data.includePaths = [`/${section[1]}/.*`];
    const limit = /(\d+)\s*pages?/.exec(prompt);
    if (limit) data.limit = Number(limit[1]);
    if (/whole|entire|all/.test(prompt)) data.crawlEntireDomain = true;
    if (/no sitemap|skip.*sitemap/.test(prompt)) data.sitemap = "skip";
    return json(200, { success: true, data });
  });
}
