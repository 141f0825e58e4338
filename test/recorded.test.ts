/**
 * Contract test: every recorded HTTP exchange of the real server
 * (test/fixtures/recorded/, the WebSocket transcripts aside) is replayed through
 * the client's method for its route (test/support/recorded-calls.ts) over both
 * transports, and ends in the right result or the right typed error. The
 * foundation's methods also turn their recordings into the documented results.
 */
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  SignupError,
  ValidationError,
  WebData,
} from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { recorded } from "./helpers.js";
import { recordedCall } from "./support/recorded-calls.js";
import { v1 as v1Face } from "../src/v1/index.js";

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
  return { client: new WebData({ plugins: [v1Face], apiKey: "fc-selfhost-test", apiUrl: "http://127.0.0.1:3002", fetch, maxRetries: 0, logLevel: "off" }), sent };
}

/** The Node client over real HTTP to a loopback server that answers every request with the current recording. */
async function replayServer(): Promise<{ use(ex: Exchange): { client: WebData; sent: { method: string; path: string }[] }; close(): Promise<void> }> {
  let current: Exchange | undefined;
  let sent: { method: string; path: string }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      sent.push({ method: req.method ?? "", path: req.url ?? "" });
      const body = current?.response.body;
      res.writeHead(current?.response.status ?? 500, current?.response.headers ?? {});
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const client = new NodeWebData({ plugins: [v1Face], apiKey: "fc-selfhost-test", apiUrl: `http://127.0.0.1:${port}`, maxRetries: 0, logLevel: "off" });
  return {
    use(ex) {
      current = ex;
      sent = [];
      return { client, sent };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The class of a recorded failure: the status family's, but an agent signup's refusal (400, 403, 409) is a `SignupError`. */
const EXPECTED_ERROR = (status: number, file: string) =>
  file.startsWith("agent-signup-") && [400, 403, 409].includes(status) ? SignupError
  : status === 400 ? BadRequestError
  : status === 401 ? AuthenticationError
  : status === 404 ? NotFoundError
  : status === 409 ? ConflictError
  : status === 429 ? RateLimitError
  : status >= 500 ? InternalServerError
  : APIError;

describe("every recorded HTTP exchange, through the client's method for it, ends in its result or its typed error", () => {
  it("finds the recordings", () => {
    expect(HTTP_FILES.length).toBeGreaterThan(90);
  });

  for (const kind of ["fetch", "undici"] as const) {
    describe(`over ${kind}`, () => {
      let served: Awaited<ReturnType<typeof replayServer>> | undefined;
      beforeAll(async () => {
        if (kind === "undici") served = await replayServer();
      });
      afterAll(() => served?.close());

      for (const file of HTTP_FILES) {
        it(file, async () => {
          const ex = await recorded(file);
          const how = recordedCall(ex);
          const { client, sent } = served ? served.use(ex) : replay(ex);
          const attempt = (standIn: boolean) =>
            how.call(client, standIn).then(
              (value) => ({ ok: true as const, value }),
              (error: unknown) => ({ ok: false as const, error }),
            );
          let outcome = await attempt(false);
          // The SDK refused the recorded arguments before sending: call again with valid ones, so the answer is still parsed.
          if (!outcome.ok && outcome.error instanceof ValidationError && sent.length === 0) outcome = await attempt(true);
          expect(sent.length, `${how.name} sent a request`).toBeGreaterThan(0);
          const body = ex.response.body as Record<string, unknown> | string;
          const record = typeof body === "object" && body !== null ? body : {};
          const failed = ex.response.status >= 400 || (record.success === false && !how.unsuccessfulIsResult);
          if (!failed) {
            if (!outcome.ok) throw outcome.error;
            expect(outcome.value).toBeDefined();
            how.check?.(outcome.value, record);
            return;
          }
          expect(outcome.ok, `${how.name} should have failed`).toBe(false);
          if (outcome.ok) return;
          const err = outcome.error as APIError;
          expect(err).toBeInstanceOf(EXPECTED_ERROR(ex.response.status, file));
          expect(err.status).toBe(ex.response.status);
          if (typeof record.error === "string") expect(err.serverMessage).toContain(record.error);
          if (typeof record.code === "string") expect(err.code).toBe(record.code);
        });
      }
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
    it(`${name}: SignupError (reason invalid) with the server's text`, async () => {
      const ex = await recorded(name);
      const { client } = replay(ex);
      // Send a body our own checks accept, so the server's answer is what is parsed.
      const err = (await client.agentSignup({ email: "dev@example.com", agent_name: "fixture-recorder", accept_terms: true }).catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(SignupError);
      expect((err as SignupError).reason).toBe("invalid");
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
