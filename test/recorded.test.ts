/**
 * Every recorded exchange of the real server (test/fixtures/recorded/) goes
 * through the shared request layer into the right result or the right typed
 * error, and the foundation's methods turn their recordings into the
 * documented results.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  APIError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  SignupInvalidError,
  WebData,
} from "../src/index.js";
import { recorded } from "./helpers.js";

const DIR = fileURLToPath(new URL("./fixtures/recorded/", import.meta.url));
const HTTP_FILES = readdirSync(DIR).filter((f) => f.endsWith(".json") && !f.startsWith("crawl-websocket-"));

type Exchange = Awaited<ReturnType<typeof recorded>>;

/** A client whose `fetch` answers with the recorded response and remembers what was sent. */
function replay(ex: Exchange): { client: WebData; sent: { url: string; body: unknown; headers: Headers }[] } {
  const sent: { url: string; body: unknown; headers: Headers }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const text = await req.text();
    sent.push({ url: req.url, body: text ? JSON.parse(text) : undefined, headers: req.headers });
    const body = ex.response.body;
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status: ex.response.status, headers: ex.response.headers });
  };
  return { client: new WebData({ apiKey: "fc-selfhost-test", apiUrl: "http://127.0.0.1:3002", fetch, maxRetries: 0, logLevel: "off" }), sent };
}

describe("every recorded HTTP exchange parses into a result or a typed error", () => {
  it("finds the recordings", () => {
    expect(HTTP_FILES.length).toBeGreaterThan(90);
  });

  for (const file of HTTP_FILES) {
    it(file, async () => {
      const ex = await recorded(file);
      const { client } = replay(ex);
      const [pathname, query] = ex.request.path.split("?");
      const spec = {
        method: ex.request.method as "GET" | "POST" | "DELETE",
        path: pathname + (query ? `?${query}` : ""),
        body: typeof ex.request.body === "string" ? undefined : (ex.request.body ?? undefined),
      };
      const outcome = await client.http.request<unknown>(spec).then(
        (data) => ({ ok: true as const, data }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const body = ex.response.body as Record<string, unknown> | string;
      const failed = ex.response.status >= 400 || (typeof body === "object" && body !== null && body.success === false);
      // Job status reads of failed jobs are answered 200 success:false; the job methods read those with allowUnsuccessful.
      if (!failed) {
        expect(outcome.ok).toBe(true);
        if (outcome.ok) expect(outcome.data).toEqual(body);
        return;
      }
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      const err = outcome.error as APIError;
      expect(err).toBeInstanceOf(APIError);
      expect(err.status).toBe(ex.response.status);
      if (typeof body === "object" && typeof body.error === "string") {
        expect(err.serverMessage).toContain(body.error);
        if (typeof body.code === "string") expect(err.code).toBe(body.code);
      }
      const expected =
        ex.response.status === 400 ? BadRequestError
        : ex.response.status === 404 ? NotFoundError
        : ex.response.status === 429 ? RateLimitError
        : ex.response.status >= 500 ? InternalServerError
        : APIError;
      expect(err).toBeInstanceOf(expected);
    });
  }
});

describe("foundation methods on their recordings", () => {
  it("scrape-v2-markdown: the document with metadata, and the same body sent", async () => {
    const ex = await recorded("scrape-v2-markdown.json");
    const { client, sent } = replay(ex);
    const doc = await client.scrape("http://127.0.0.1:8080/", { formats: ["markdown"] });
    expect(sent[0]!.body).toEqual(ex.request.body);
    expect(sent[0]!.headers.get("authorization")).toBe("Bearer fc-selfhost-test");
    expect(doc.markdown).toMatch(/^Welcome to Acme/);
    expect(doc.metadata.statusCode).toBe(200);
    expect(doc.metadata["og:title"]).toBe("Acme Test Site");
  });

  it("scrape-v2-dns-failure-pdf: a 200 success:false is an error with the code", async () => {
    const ex = await recorded("scrape-v2-dns-failure-pdf.json");
    const err = (await replay(ex).client.scrape("http://nonexistent-host.invalid/report.pdf", { formats: ["markdown"] }).catch((e: unknown) => e)) as APIError;
    expect(err.status).toBe(200);
    expect(err.code).toBe("SCRAPE_DNS_RESOLUTION_ERROR");
  });

  it("scrape-v2-target-404: success with statusCode 404", async () => {
    const ex = await recorded("scrape-v2-target-404.json");
    const doc = await replay(ex).client.scrape((ex.request.body as { url: string }).url);
    expect(doc.metadata.statusCode).toBe(404);
  });

  for (const name of ["map-v2-default.json", "map-v2-limit.json", "map-v2-search.json", "map-v2-sitemap-only.json", "map-v2-sitemap-skip.json"]) {
    it(`${name}: typed links, same body sent`, async () => {
      const ex = await recorded(name);
      const { url, ...options } = ex.request.body as { url: string };
      const { client, sent } = replay(ex);
      const res = await client.map(url, options);
      expect(sent[0]!.body).toEqual(ex.request.body);
      const wire = ex.response.body as { links: { url: string }[]; warning?: string };
      expect(res.links).toEqual(wire.links);
      expect(res.warning).toBe(wire.warning);
    });
  }

  for (const name of ["map-v1-default.json", "map-v1-limit.json", "map-v1-search.json", "map-v1-sitemap-only.json", "map-v1-ignore-sitemap.json"]) {
    it(`${name}: links as strings, same body sent`, async () => {
      const ex = await recorded(name);
      const { url, ...params } = ex.request.body as { url: string };
      const { client, sent } = replay(ex);
      const res = await client.v1.mapUrl(url, params);
      expect(sent[0]!.body).toEqual(ex.request.body);
      expect(res).toEqual({ success: true, links: (ex.response.body as { links: string[] }).links });
    });
  }

  it("team usage: v2 camelCase and v1 snake_case records", async () => {
    const v2 = await replay(await recorded("team-v2-token-usage.json")).client.getTokenUsage();
    expect(v2.remainingTokens).toBe(99999999);
    expect(typeof v2.billingPeriodStart).toBe("string");
    const c2 = await replay(await recorded("team-v2-credit-usage.json")).client.getCreditUsage();
    expect(c2.planCredits).toBe(99999999);
    const v1 = await replay(await recorded("team-v1-token-usage.json")).client.v1.getTokenUsage();
    expect(Object.keys(v1).sort()).toEqual(["billing_period_end", "billing_period_start", "plan_tokens", "remaining_tokens"]);
    const c1 = await replay(await recorded("team-v1-credit-usage.json")).client.v1.getCreditUsage();
    expect(Object.keys(c1)).toContain("remaining_credits");
  });

  for (const name of ["agent-signup-v2-400-missing-fields.json", "agent-signup-v2-400-plus-email.json", "agent-signup-v2-400-terms-not-accepted.json"]) {
    it(`${name}: SignupInvalidError with the server's text`, async () => {
      const ex = await recorded(name);
      const { client } = replay(ex);
      // Send a body our own checks accept, so the server's answer is what is parsed.
      const err = (await client.agentSignup({ email: "dev@example.com", agent_name: "fixture-recorder", accept_terms: true }).catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(SignupInvalidError);
      expect(err.serverMessage).toBe((ex.response.body as { error: string }).error);
    });
  }

  it("agent-signup-v2-429-ip-limit and -valid-no-db: RateLimitError and InternalServerError, no Authorization sent", async () => {
    const limited = await recorded("agent-signup-v2-429-ip-limit.json");
    const r1 = replay(limited);
    await expect(r1.client.agentSignup(limited.request.body as never)).rejects.toBeInstanceOf(RateLimitError);
    expect(r1.sent).toHaveLength(1);
    expect(r1.sent[0]!.headers.get("authorization")).toBeNull();
    const noDb = await recorded("agent-signup-v2-valid-no-db.json");
    await expect(replay(noDb).client.agentSignup(noDb.request.body as never)).rejects.toBeInstanceOf(InternalServerError);
  });

  it("crawl-v2-params-preview-no-ai-key: BadRequestError with the server's text", async () => {
    const ex = await recorded("crawl-v2-params-preview-no-ai-key.json");
    const { url, prompt } = ex.request.body as { url: string; prompt: string };
    const err = (await replay(ex).client.crawlParamsPreview(url, prompt).catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.serverMessage).toBe("Failed to process natural language prompt. Please try rephrasing.");
  });
});
