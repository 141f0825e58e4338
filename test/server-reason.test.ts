/**
 * The server's reason in the message (its `error` and `details`): a 4xx's
 * message carries the fields and what is wrong with each, as the server's
 * `error` and `details` say, not only the status line; bounded as an error
 * prints (`PRINTED`), and never the key. The recorded 400 bodies of the
 * service's own server (test/fixtures/recorded/, copied from the service spec:
 * see its README) are answered by the fake, over both transports.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { APIError, BadRequestError } from "../src/index.js";
import { PRINTED } from "../src/core/errors.js";
import { recorded, setup, TRANSPORTS, type Setup } from "./helpers.js";

const DIR = fileURLToPath(new URL("./fixtures/recorded/", import.meta.url));
/** Recorded 4xx answers whose body has `details` (zod issues). */
const WITH_DETAILS = readdirSync(DIR).filter((f) => /-4\d\d-/.test(f) && f.endsWith(".json"));

type Issue = { path: (string | number)[]; message: string; code: string };

describe.each(TRANSPORTS)("a 4xx message carries the server's reason, over %s", (kind) => {
  let s: Setup;
  afterEach(() => s?.close());

  it('scrape(url, { formats: ["bogus"] }): the field and the formats it takes, not only "Bad Request"', async () => {
    s = await setup(kind);
    const ex = await recorded("scrape-v2-400-unknown-format.json");
    s.fake.failNext(400, { match: "/v2/scrape", body: ex.response.body });
    const err = (await s.client.scrape("https://acme.test/", { formats: ["bogus" as "markdown"] }).catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(s.fake.requests[0]!.body).toMatchObject({ formats: ["bogus"] });
    expect(err.message).toBe(
      'Bad Request: formats.0.type: Invalid option: expected one of "markdown"|"html"|"rawHtml"|"links"|"images"|"summary"|"json"|"changeTracking"|"screenshot"|"attributes"|"branding"|"query" (HTTP 400, POST /v2/scrape)',
    );
    expect(err.serverMessage).toBe("Bad Request");
    expect(err.details).toEqual((ex.response.body as { details: unknown }).details);
  });

  it("a format name the SDK does not know at all is sent; a 400 that names no valid format gets the names the SDK knows", async () => {
    s = await setup(kind);
    const err = (await s.client.scrape("https://acme.test/", { formats: ["bogus" as "markdown"] }).catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(s.fake.requests[0]!.body).toMatchObject({ formats: ["bogus"] });
    expect(err.message).toMatch(/formats\.0: Invalid input \(not a format this server takes; the formats this SDK knows: markdown, html, rawHtml, links, .*video; as objects only: attributes, query, question, highlights\)/);
    s.fake.failNext(400, { match: "/v2/crawl", body: { success: false, code: "BAD_REQUEST", error: "Bad Request", details: [{ code: "invalid_union", path: ["scrapeOptions", "formats", 0], message: "Invalid input" }] } });
    const nested = (await s.client.startCrawl("https://acme.test/", { scrapeOptions: { formats: ["bogus" as "markdown"] } }).catch((e: unknown) => e)) as APIError;
    expect(nested.message).toMatch(/scrapeOptions\.formats\.0: Invalid input \(not a format this server takes; the formats this SDK knows: markdown/);
  });

  it("every recorded 4xx with details: the server's words and each issue's field and text are in the message, each once", async () => {
    s = await setup(kind);
    const checked: string[] = [];
    for (const file of WITH_DETAILS) {
      const ex = await recorded(file);
      const body = ex.response.body as { error?: string; details?: Issue[] };
      if (!Array.isArray(body.details)) continue;
      s.fake.failNext(ex.response.status, { match: "/v2/team", body });
      const err = (await s.client.getCreditUsage({ maxRetries: 0 }).catch((e: unknown) => e)) as APIError;
      expect(err.status, file).toBe(ex.response.status);
      expect(err.message, file).toContain(body.error);
      for (const issue of body.details.filter((i) => i.code !== "invalid_union")) {
        const line = issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
        expect(err.message, file).toContain(line);
        expect(err.message.split(line).length - 1, `${file}: "${line}" once`).toBe(1);
      }
      checked.push(file);
    }
    expect(checked.length).toBeGreaterThanOrEqual(15);
  });

  it("a refine's text, when the server's error is that text, is said once, with its field (scrape-v2-400-missing-url)", async () => {
    s = await setup(kind);
    s.fake.failNext(400, { match: "/v2/scrape", body: (await recorded("scrape-v2-400-missing-url.json")).response.body });
    const err = (await s.client.scrape("https://acme.test/").catch((e: unknown) => e)) as APIError;
    expect(err.message).toBe("url: URL must have a valid top-level domain or be a valid path (HTTP 400, POST /v2/scrape)");
  });

  it("details as text, or a record of texts, are the reason; no details leaves the server's text as it is", async () => {
    s = await setup(kind);
    s.fake.failNext(422, { match: "/v2/team", body: { success: false, error: "Unprocessable", details: "limit must be at most 100" } });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err.message).toBe("Unprocessable: limit must be at most 100 (HTTP 422, GET /v2/team/credit-usage)");
    s.fake.failNext(400, { match: "/v2/team", body: { success: false, error: "Bad Request", details: { limit: "must be at most 100", nested: { not: "text" } } } });
    expect(((await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError).message).toBe("Bad Request: limit: must be at most 100 (HTTP 400, GET /v2/team/credit-usage)");
    const plain = await recorded("crawl-v2-status-400-non-uuid.json");
    s.fake.failNext(400, { match: "/v2/team", body: plain.response.body });
    const err2 = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err2.message).toBe("Invalid job ID format. Job ID must be a valid UUID. (HTTP 400, GET /v2/team/credit-usage)");
  });

  it("the reason is bounded as an error prints: at most PRINTED.maxItems issues and PRINTED.maxString characters", async () => {
    s = await setup(kind);
    const details = Array.from({ length: 5_000 }, (_, n) => ({ code: "custom", path: ["urls", n], message: `bad URL number ${n}` }));
    s.fake.failNext(400, { match: "/v2/team", body: { success: false, code: "BAD_REQUEST", error: "Bad Request", details } });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err.message).toMatch(/^Bad Request: urls\.0: bad URL number 0; urls\.1: bad URL number 1; /);
    expect(err.message).toContain(`urls.${PRINTED.maxItems! - 1}: bad URL number ${PRINTED.maxItems! - 1}`);
    expect(err.message).not.toContain(`urls.${PRINTED.maxItems!}:`);
    const long = "x".repeat(100_000);
    s.fake.failNext(400, { match: "/v2/team", body: { success: false, error: "Bad Request", details: [{ code: "custom", path: ["a"], message: long }] } });
    const err2 = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err2.message.length).toBeLessThan(PRINTED.maxString! + 100);
    expect(err2.message).toMatch(/^Bad Request: a: x+\.\.\. \(HTTP 400, GET \/v2\/team\/credit-usage\)$/);
    expect((err2.details as Issue[])[0]!.message).toBe(long); // what the error carries is not cut
  });

  it("the key the server echoes in details (plain or \\u-escaped) is redacted from the message", async () => {
    s = await setup(kind);
    const key = s.fake.apiKey;
    const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    s.fake.failNext(400, { match: "/v2/team", body: `{"success":false,"error":"Bad Request","details":[{"code":"custom","path":["auth"],"message":"token ${key} and ${escaped} rejected"}]}` });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err.message).toBe("Bad Request: auth: token [redacted] and [redacted] rejected (HTTP 400, GET /v2/team/credit-usage)");
  });
});
