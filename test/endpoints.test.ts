/**
 * The fully specified endpoints of the foundation: scrape, map, v1 mapUrl,
 * token and credit usage (v2 camelCase, v1 snake_case), agent signup and
 * crawl params preview, against the fake service over both transports.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  SignupError,
  ValidationError,
  WebData,
} from "../src/index.js";
import type { V1MapResponse } from "../src/v1/index.js";
import { blockSignupEmail, signupState } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const DAY = 86_400_000;

describe.each(TRANSPORTS)("endpoints over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  describe("scrape", () => {
    it("returns the typed document for every string format", async () => {
      s = await setup(kind);
      const doc = await s.client.scrape("https://acme.test/products", { formats: ["markdown", "html", "rawHtml", "links", "images", "summary"], onlyMainContent: false });
      expect(doc.markdown).toContain("Widget");
      expect(doc.html).toContain("<main>");
      expect(doc.rawHtml).toContain("<!DOCTYPE html>");
      expect(doc.links).toContain("https://acme.test/");
      expect(doc.images).toHaveLength(2);
      expect(doc.summary).toContain("Acme Products");
      expect(doc.metadata.statusCode).toBe(200);
      expect(doc.metadata.sourceURL).toBe("https://acme.test/products");
      expect(s.fake.requests[0]!.body).toMatchObject({ onlyMainContent: false });
    });

    it("formats that are not an array are a ValidationError, not a TypeError", async () => {
      s = await setup(kind);
      const err = await s.client.scrape("https://acme.test/", { formats: "markdown" as never }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).issues).toEqual([{ path: "formats", message: 'expected array, got a string' }]);
      await expect(s.client.crawl("https://acme.test/", { scrapeOptions: { formats: "markdown" as never } })).rejects.toBeInstanceOf(ValidationError);
      expect(s.fake.requests).toHaveLength(0);
    });

    it("sends object formats, parsers, actions, location and maxAge as given", async () => {
      s = await setup(kind);
      const options = {
        formats: [
          "markdown" as const,
          { type: "json" as const, prompt: "title", schema: { type: "object", properties: { title: { type: "string" } } } },
          { type: "screenshot" as const, fullPage: true, quality: 80, viewport: { width: 1280, height: 800 } },
          { type: "changeTracking" as const, modes: ["git-diff" as const], tag: null },
          { type: "attributes" as const, selectors: [{ selector: "a", attribute: "href" }] },
        ],
        parsers: ["pdf" as const, { type: "pdf" as const, maxPages: 3 }],
        actions: [{ type: "wait" as const, milliseconds: 500 }, { type: "click" as const, selector: "#go" }],
        location: { country: "de", languages: ["de-DE"] },
        maxAge: 0,
        headers: { cookie: "a=b" },
      };
      const doc = await s.client.scrape("https://acme.test/", options);
      expect(s.fake.requests[0]!.body).toEqual({ url: "https://acme.test/", ...options });
      expect(doc.json).toEqual({ title: "Acme Test Site" });
      expect(doc.screenshot).toMatch(/^data:image\/png/);
      expect(doc.changeTracking?.changeStatus).toBe("new");
      expect(doc.attributes?.[0]?.selector).toBe("a");
    });

    it("passes unknown options through for the server to judge", async () => {
      s = await setup(kind);
      const err = await s.client.scrape("https://acme.test/", { formats: ["markdown"], notAKey: true } as never).catch((e: unknown) => e);
      expect(s.fake.requests[0]!.body).toMatchObject({ notAKey: true });
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as APIError).serverMessage).toMatch(/Unrecognized key in body/);
      expect((err as APIError).code).toBe("BAD_REQUEST");
    });

    it("throws for a 200 with success:false instead of returning an empty document", async () => {
      s = await setup(kind);
      const err = (await s.client.scrape("http://nonexistent-host.invalid/report.pdf").catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(APIError);
      expect(err.status).toBe(200);
      expect(err.code).toBe("SCRAPE_DNS_RESOLUTION_ERROR");
      expect(err.serverMessage).toMatch(/DNS resolution failed/);
    });

    it("returns a target's 404 page as a document with statusCode 404", async () => {
      s = await setup(kind);
      const doc = await s.client.scrape("https://acme.test/missing");
      expect(doc.metadata.statusCode).toBe(404);
    });

    it("maps an engine failure to InternalServerError with the code, after retrying", async () => {
      s = await setup(kind, {}, { maxRetries: 0 });
      const err = (await s.client.scrape("https://unknown-host.example/").catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(InternalServerError);
      expect(err.code).toBe("SCRAPE_ALL_ENGINES_FAILED");
    });

    it("rejects bad input listing every problem, and sends nothing", async () => {
      s = await setup(kind);
      const err = (await s.client
        .scrape("mailto:x", {
          formats: ["markdown", "screenshot@fullPage" as never, { type: "screenshot", quality: 500 }],
          waitFor: 40_000,
          timeout: 10_000,
          proxy: "fast" as never,
          actions: Array.from({ length: 51 }, () => ({ type: "scrape" as const })),
        })
        .catch((e: unknown) => e)) as ValidationError;
      expect(err).toBeInstanceOf(ValidationError);
      const paths = err.issues.map((i) => i.path);
      expect(paths).toEqual(expect.arrayContaining(["url", "formats.1", "formats.2.quality", "proxy", "actions", "waitFor"]));
      expect(err.message).toMatch(/waitFor must not exceed half of timeout/);
      expect(s.fake.requests).toHaveLength(0);
    });

    it("requires markdown with changeTracking and allows one screenshot", async () => {
      s = await setup(kind);
      const e1 = (await s.client.scrape("https://acme.test/", { formats: [{ type: "changeTracking" }] }).catch((e: unknown) => e)) as ValidationError;
      expect(e1.message).toMatch(/changeTracking format requires the markdown format/);
      const e2 = (await s.client.scrape("https://acme.test/", { formats: ["markdown", { type: "screenshot" }, { type: "screenshot", fullPage: true }] }).catch((e: unknown) => e)) as ValidationError;
      expect(e2.message).toMatch(/at most one screenshot/);
      expect(s.fake.requests).toHaveLength(0);
    });

    it("charges credits that usage then reports (1 credit = 15 tokens)", async () => {
      s = await setup(kind, { planCredits: 1000 });
      await s.client.scrape("https://acme.test/");
      await s.client.scrape("https://acme.test/", { formats: [{ type: "json", prompt: "x" }] });
      await s.client.map("https://acme.test/");
      const credits = await s.client.getCreditUsage();
      const tokens = await s.client.getTokenUsage();
      expect(credits.remainingCredits).toBe(1000 - 1 - 5 - 1);
      expect(tokens.remainingTokens).toBe(credits.remainingCredits * 15);
      expect(tokens.planTokens).toBe(15_000);
    });

    it("rejects a missing or unknown key with 401", async () => {
      s = await setup(kind, {}, { apiKey: "fc-wrong" });
      const err = (await s.client.scrape("https://acme.test/").catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err.serverMessage).toBe("Unauthorized: Invalid token");
    });
  });

  describe("map", () => {
    it("returns typed links and passes options", async () => {
      s = await setup(kind);
      const res = await s.client.map("https://acme.test", { search: "blog", sitemap: "include", limit: 10 });
      expect(res.links.map((l) => l.url)).toEqual(["https://acme.test/blog/first-post", "https://acme.test/blog/second-post"]);
      expect(res.links[0]).toMatchObject({ title: "First post", description: expect.any(String) });
      expect(s.fake.requests[0]!.body).toEqual({ url: "https://acme.test", search: "blog", sitemap: "include", limit: 10 });
    });

    it("validates limit 1..100000 and sitemap before sending", async () => {
      s = await setup(kind);
      const err = (await s.client.map("https://acme.test", { limit: 0, sitemap: "never" as never }).catch((e: unknown) => e)) as ValidationError;
      expect(err.issues.map((i) => i.path).sort()).toEqual(["limit", "sitemap"]);
      expect(s.fake.requests).toHaveLength(0);
    });

    it("checks location as a plain object, with the object's own issues, before sending (v2 and v1)", async () => {
      s = await setup(kind);
      const cases: [unknown, string[]][] = [
        [new String("us"), ["location: must be a plain object"]],
        [new Map([["country", "US"]]), ["location: must be a plain object"]],
        [["US"], ["location: must be a plain object"]],
        ["US", ["location: expected object, got a string"]],
        [{ country: 5, languages: "en" }, ["location.country: expected string, got number 5", "location.languages: expected array, got a string"]],
      ];
      for (const [location, messages] of cases) {
        const err = (await s.client.map("https://acme.test", { location } as never).catch((e: unknown) => e)) as ValidationError;
        expect(err, String(location)).toBeInstanceOf(ValidationError);
        expect(err.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(messages);
        const v1 = (await s.client.v1.mapUrl("https://acme.test", { location } as never).catch((e: unknown) => e)) as ValidationError;
        expect(v1.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(messages);
      }
      const v1Country = (await s.client.v1.mapUrl("https://acme.test", { location: { country: "us" } }).catch((e: unknown) => e)) as ValidationError;
      expect(v1Country.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(["location.country: must be a two-letter ISO 3166-1 country code in capitals, such as US"]);
      const nullProto = Object.assign(Object.create(null) as object, { country: "de" });
      await s.client.map("https://acme.test", { location: nullProto } as never);
      expect(s.fake.requests).toHaveLength(1);
      expect(s.fake.requests[0]!.body).toMatchObject({ location: { country: "de" } });
    });

    it("exposes the server warning", async () => {
      s = await setup(kind);
      const res = await s.client.map("https://acme.test", { search: "contact" });
      expect(res.links).toHaveLength(1);
      expect(res.warning).toMatch(/Only 1 result/);
    });
  });

  describe("v1 mapUrl (spec 4.1)", () => {
    it("sends only the fields the caller set and returns links as strings", async () => {
      s = await setup(kind);
      const res = (await s.client.v1.mapUrl("https://acme.test")) as V1MapResponse;
      expect(s.fake.requests[0]!.path).toBe("/v1/map");
      expect(s.fake.requests[0]!.body).toEqual({ url: "https://acme.test" });
      expect(res.success).toBe(true);
      expect(res.links.every((l) => typeof l === "string")).toBe(true);
      expect(res.links).toContain("https://acme.test/about");
    });

    it("sends every field of the spec when set", async () => {
      s = await setup(kind);
      const params = { search: "blog", ignoreSitemap: false, sitemapOnly: false, includeSubdomains: false, limit: 30000, timeout: 5000, location: { country: "US", languages: ["en-US"] } };
      await s.client.v1.mapUrl("https://acme.test", params);
      expect(s.fake.requests[0]!.body).toEqual({ url: "https://acme.test", ...params });
    });

    it("applies sitemapOnly and ignoreSitemap", async () => {
      s = await setup(kind);
      const only = (await s.client.v1.mapUrl("https://acme.test", { sitemapOnly: true })) as V1MapResponse;
      expect(only.links).not.toContain("https://acme.test/blog/second-post");
      const limited = (await s.client.v1.mapUrl("https://acme.test", { limit: 2 })) as V1MapResponse;
      expect(limited.links).toHaveLength(2);
    });

    it("checks limit 1..30000, the country pattern and the URL before sending", async () => {
      s = await setup(kind);
      for (const bad of [{ limit: 30001 }, { limit: 0 }, { limit: 1.5 }, { location: { country: "us" } }, { location: { country: "USA" } }, { timeout: -5 }]) {
        const err = await s.client.v1.mapUrl("https://acme.test", bad).catch((e: unknown) => e);
        expect(err, JSON.stringify(bad)).toBeInstanceOf(ValidationError);
      }
      await expect(s.client.v1.mapUrl("not a url")).rejects.toBeInstanceOf(ValidationError);
      expect(s.fake.requests).toHaveLength(0);
    });

    for (const [status, Cls, text] of [
      [402, PaymentRequiredError, "Payment required to access this resource."],
      [429, RateLimitError, "Rate limit exceeded. Please try again later."],
      [500, InternalServerError, "An unexpected error occurred on the server."],
    ] as const) {
      it(`maps ${status} {error} to ${Cls.name} with the server's text`, async () => {
        s = await setup(kind, {}, { maxRetries: 0 });
        s.fake.inject({ match: "/v1/map", status, body: { error: text } });
        const err = (await s.client.v1.mapUrl("https://acme.test").catch((e: unknown) => e)) as APIError;
        expect(err).toBeInstanceOf(Cls);
        expect(err.serverMessage).toBe(text);
        expect(err.message).toContain(text);
      });
    }
  });

  describe("usage", () => {
    it("v2 is camelCase and v1 is snake_case, with the same figures", async () => {
      s = await setup(kind);
      const v2 = await s.client.getTokenUsage();
      const v1 = await s.client.v1.getTokenUsage();
      expect(Object.keys(v2).sort()).toEqual(["billingPeriodEnd", "billingPeriodStart", "planTokens", "remainingTokens"]);
      expect(Object.keys(v1).sort()).toEqual(["billing_period_end", "billing_period_start", "plan_tokens", "remaining_tokens"]);
      expect(v1.remaining_tokens).toBe(v2.remainingTokens);
      expect(new Date(v2.billingPeriodStart!).toISOString()).toBe(v2.billingPeriodStart);
      const c1 = await s.client.v1.getCreditUsage();
      expect(c1.plan_credits).toBe(100_000);
    });

    it("normalises a snake_case answer on the v2 surface", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team/token-usage", status: 200, body: { success: true, data: { remaining_tokens: 5, plan_tokens: 10, billing_period_start: null, billing_period_end: null } } });
      expect(await s.client.getTokenUsage()).toEqual({ remainingTokens: 5, planTokens: 10, billingPeriodStart: null, billingPeriodEnd: null });
    });

    for (const [status, text] of [
      [404, "Could not find token usage information"],
      [500, "Internal server error while fetching token usage"],
    ] as const) {
      for (const version of ["v1", "v2"] as const) {
        it(`surfaces "${text}" (${status}) on ${version}`, async () => {
          s = await setup(kind, {}, { maxRetries: 0 });
          s.fake.inject({ match: `/${version}/team/token-usage`, status, body: { success: false, error: text } });
          const call = version === "v1" ? s.client.v1.getTokenUsage() : s.client.getTokenUsage();
          const err = (await call.catch((e: unknown) => e)) as APIError;
          expect(err).toBeInstanceOf(APIError);
          expect(err.status).toBe(status);
          expect(err.serverMessage).toBe(text);
        });
      }
    }

    it("surfaces the credit-usage 404 text on v1 and v2", async () => {
      s = await setup(kind, {}, { maxRetries: 0 });
      const text = "Could not find credit usage information";
      s.fake.inject({ match: "/v2/team/credit-usage", status: 404, body: { success: false, error: text } });
      s.fake.inject({ match: "/v1/team/credit-usage", status: 404, body: { success: false, error: text } });
      for (const call of [s.client.getCreditUsage(), s.client.v1.getCreditUsage()]) {
        const err = (await call.catch((e: unknown) => e)) as APIError;
        expect(err).toBeInstanceOf(NotFoundError);
        expect(err.serverMessage).toBe(text);
      }
    });

    it("normalises snake_case answers of credit usage, queue status and historical usage on the v2 surface", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team/credit-usage", status: 200, body: { success: true, data: { remaining_credits: 3, plan_credits: 9, billing_period_start: null, billing_period_end: null } } });
      expect(await s.client.getCreditUsage()).toEqual({ remainingCredits: 3, planCredits: 9, billingPeriodStart: null, billingPeriodEnd: null });
      s.fake.inject({
        match: "/v2/team/queue-status",
        status: 200,
        body: { success: true, jobs_in_queue: 4, active_jobs_in_queue: 1, waiting_jobs_in_queue: 3, max_concurrency: 2, most_recent_success: null },
      });
      expect(await s.client.getQueueStatus()).toMatchObject({ jobsInQueue: 4, activeJobsInQueue: 1, waitingJobsInQueue: 3, maxConcurrency: 2, mostRecentSuccess: null });
      s.fake.inject({
        match: "/v2/team/token-usage/historical",
        status: 200,
        body: { success: true, periods: [{ start_date: "2026-01-01T00:00:00Z", end_date: "2026-02-01T00:00:00Z", tokens_used: 150 }] },
      });
      expect(await s.client.getTokenUsageHistorical()).toEqual([{ startDate: "2026-01-01T00:00:00Z", endDate: "2026-02-01T00:00:00Z", tokensUsed: 150 }]);
    });

    it("surfaces the failure text even on a 200 with success:false", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team/token-usage", status: 200, body: { success: false, error: "Could not find token usage information" } });
      const err = (await s.client.getTokenUsage().catch((e: unknown) => e)) as APIError;
      expect(err.serverMessage).toBe("Could not find token usage information");
    });
  });

  describe("agent signup", () => {
    const body = { email: "Owner@Example.com", agent_name: "my-agent", accept_terms: true as const };

    it("provisions a pending key with 50 credits and a 5-day deadline, without Authorization", async () => {
      s = await setup(kind);
      const res = await s.client.agentSignup(body);
      const req = s.fake.requests[0]!;
      expect(req.headers.authorization).toBeUndefined();
      expect(req.body).toEqual(body);
      expect(res).toMatchObject({ success: true, sponsor_status: "pending", credit_limit: 50, credits_remaining: 50, tos_url: expect.stringMatching(/^https:/) });
      expect(res.api_key).toMatch(/^fc-[0-9a-f]{32}$/);
      const deadline = Date.parse(res.verification_deadline_at);
      expect(Math.round((deadline - Date.now()) / DAY)).toBe(5);
      expect(JSON.parse(JSON.stringify(res))).not.toHaveProperty("createClient");
      expect(signupState(s.fake).emails).toEqual([{ to: "owner@example.com", agentName: "my-agent" }]);
    });

    it("gives a key that works at once and gets 402 once its 50 credits are spent", async () => {
      s = await setup(kind);
      const res = await s.client.agentSignup(body);
      const agent = res.createClient();
      expect(agent).toBeInstanceOf(WebData);
      for (let i = 0; i < 10; i++) await agent.scrape("https://acme.test/", { formats: [{ type: "json", prompt: "p" }] });
      expect((await agent.getCreditUsage()).remainingCredits).toBe(0);
      const err = (await agent.scrape("https://acme.test/").catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(PaymentRequiredError);
      expect(err.serverMessage).toMatch(/unverified_credit_limit_reached/);
      expect(err.sponsorStatus).toBe("pending");
      expect(err.loginUrl).toBe("https://firecrawl.dev/signin");
    });

    it("answers a second pending signup with SignupError reason pending (409) and login_url", async () => {
      s = await setup(kind);
      await s.client.agentSignup(body);
      const err = (await s.client.agentSignup(body).catch((e: unknown) => e)) as SignupError;
      expect(err).toBeInstanceOf(SignupError);
      expect(err.reason).toBe("pending");
      expect(err.status).toBe(409);
      expect(err.serverMessage).toMatch(/^A pending agent signup confirmation has already been sent/);
      expect(err.loginUrl).toBe("https://firecrawl.dev/signin");
      expect(s.fake.requests).toHaveLength(2);
    });

    it("answers a blocked e-mail with SignupError reason blocked (403)", async () => {
      s = await setup(kind);
      blockSignupEmail(s.fake, "owner@example.com");
      const err = (await s.client.agentSignup(body).catch((e: unknown) => e)) as SignupError;
      expect(err).toBeInstanceOf(SignupError);
      expect(err.reason).toBe("blocked");
      expect(err.status).toBe(403);
      expect(err.serverMessage).toMatch(/^This email has blocked agent signups/);
    });

    it("answers an expired earlier signup with SignupError reason expired (403) and login_url", async () => {
      s = await setup(kind);
      await s.client.agentSignup(body);
      s.fake.advanceClock(5 * DAY + 1000);
      const err = (await s.client.agentSignup(body).catch((e: unknown) => e)) as SignupError;
      expect(err).toBeInstanceOf(SignupError);
      expect(err.reason).toBe("expired");
      expect(err.status).toBe(403);
      expect(err.serverMessage).toMatch(/^Previous agent signup verification has expired/);
      expect(err.loginUrl).toBe("https://firecrawl.dev/signin");
    });

    it("answers an invalid body with SignupError reason invalid (400) carrying the server's text", async () => {
      s = await setup(kind);
      const err = (await s.client.agentSignup({ email: "a+b@example.com", agent_name: "x", accept_terms: true }).catch((e: unknown) => e)) as SignupError;
      expect(err).toBeInstanceOf(SignupError);
      expect(err.reason).toBe("invalid");
      expect(err.status).toBe(400);
      expect(err.serverMessage).toMatch(/^Invalid request body: Email addresses with '\+' are not allowed/);
    });

    it("does not retry the daily 429", async () => {
      s = await setup(kind, { signupDailyLimit: 1 });
      await s.client.agentSignup(body);
      const err = (await s.client.agentSignup({ ...body, email: "other@example.com" }).catch((e: unknown) => e)) as RateLimitError;
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.serverMessage).toMatch(/Maximum 3 agent signup requests per day per IP/);
      expect(s.fake.requests).toHaveLength(2);
    });

    it("checks e-mail, name length and accept_terms before sending", async () => {
      s = await setup(kind);
      const err = (await s.client.agentSignup({ email: "nope", agent_name: "x".repeat(101), accept_terms: false as never }).catch((e: unknown) => e)) as ValidationError;
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.issues.map((i) => i.path).sort()).toEqual(["accept_terms", "agent_name", "email"]);
      const empty = (await s.client.agentSignup({ email: "a@b.co", agent_name: "", accept_terms: true }).catch((e: unknown) => e)) as ValidationError;
      expect(empty.issues[0]!.path).toBe("agent_name");
      // Any value but true, or none, gets the one message that says why.
      for (const accept of [false, "yes", 1, undefined]) {
        const refused = (await s.client.agentSignup({ email: "a@b.co", agent_name: "x", accept_terms: accept as never }).catch((e: unknown) => e)) as ValidationError;
        expect(refused.issues, String(accept)).toEqual([{ path: "accept_terms", message: "must be true: the sponsor has to accept the Terms of Service" }]);
      }
      expect(s.fake.requests).toHaveLength(0);
    });
  });

  describe("crawl params preview", () => {
    it("returns the derived options", async () => {
      s = await setup(kind);
      const res = await s.client.crawlParamsPreview("https://acme.test/", "only the blog, 20 pages");
      expect(res).toEqual({ url: "https://acme.test/", includePaths: ["/blog/.*"], limit: 20 });
      expect(s.fake.requests[0]!.body).toEqual({ url: "https://acme.test/", prompt: "only the blog, 20 pages" });
    });

    it("needs a full URL and a prompt of at most 10000 characters", async () => {
      s = await setup(kind);
      for (const url of ["acme.test", "ftp://acme.test/", "mailto:a@acme.test", "https://", "not a url"]) {
        await expect(s.client.crawlParamsPreview(url, "x")).rejects.toThrow(/url: must be a full http\(s\) URL/);
      }
      await expect(s.client.crawlParamsPreview("https://acme.test", "x".repeat(10001))).rejects.toBeInstanceOf(ValidationError);
      expect(s.fake.requests).toHaveLength(0);
    });

    it("surfaces the generation failure as BadRequestError", async () => {
      s = await setup(kind);
      s.fake.state.set("aiDisabled", true);
      const err = (await s.client.crawlParamsPreview("https://acme.test/", "blog").catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(BadRequestError);
      expect(err.serverMessage).toBe("Failed to process natural language prompt. Please try rephrasing.");
    });
  });
});
