/**
 * Client construction: options vs environment, URL normalisation, the key
 * rule for the public deployment, runtimes without `process`, retry numbers,
 * and key redaction everywhere.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { APIError, ValidationError, WebData, WebDataError, type Logger } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { normalizeApiUrl } from "../src/core/config.js";
import { parseRetryAfter } from "../src/core/retry.js";
import { createFakeService } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

afterEach(() => vi.unstubAllEnvs());

function clean(): void {
  // Unset (an empty WEBDATA_API_KEY is keyless on purpose).
  for (const k of ["WEBDATA_API_KEY", "FIRECRAWL_API_KEY", "WEBDATA_API_URL", "FIRECRAWL_API_URL", "WEBDATA_LOG"]) vi.stubEnv(k, undefined);
}

describe("configuration", () => {
  it("requires a key for the public deployment, naming both ways to supply it", () => {
    clean();
    expect(() => new WebData()).toThrow(WebDataError);
    expect(() => new WebData()).toThrow(/apiKey.*WEBDATA_API_KEY/s);
  });

  it("needs no key for a self-hosted URL and then sends no Authorization", async () => {
    clean();
    const fake = createFakeService({ authDisabled: true });
    const client = new WebData({ apiUrl: "http://localhost:3002", fetch: fake.fetch });
    await client.getCreditUsage();
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("reads WEBDATA_API_KEY, then FIRECRAWL_API_KEY, and the URL variables", async () => {
    clean();
    vi.stubEnv("FIRECRAWL_API_KEY", "fc-from-firecrawl");
    vi.stubEnv("FIRECRAWL_API_URL", "https://self.example/v1/");
    const fake = createFakeService({ apiKeys: ["fc-from-firecrawl", "fc-from-webdata"] });
    const a = new WebData({ fetch: fake.fetch });
    expect(a.apiUrl).toBe("https://self.example");
    await a.getCreditUsage();
    expect(fake.keyOf(fake.requests[0]!)).toBe("fc-from-firecrawl");
    vi.stubEnv("WEBDATA_API_KEY", "fc-from-webdata");
    vi.stubEnv("WEBDATA_API_URL", "https://other.example/v2");
    const b = new WebData({ fetch: fake.fetch });
    expect(b.apiUrl).toBe("https://other.example");
    await b.getCreditUsage();
    expect(fake.keyOf(fake.requests[1]!)).toBe("fc-from-webdata");
  });

  it("prefers options over the environment", () => {
    vi.stubEnv("WEBDATA_API_URL", "https://env.example");
    expect(new WebData({ apiKey: "k", apiUrl: "https://opt.example/" }).apiUrl).toBe("https://opt.example");
  });

  it("tolerates trailing slashes and /v1 or /v2 and rejects nonsense", () => {
    expect(normalizeApiUrl("https://api.example.com//")).toBe("https://api.example.com");
    expect(normalizeApiUrl("https://api.example.com/v2/")).toBe("https://api.example.com");
    expect(normalizeApiUrl("https://api.example.com/base/v1")).toBe("https://api.example.com/base");
    expect(() => normalizeApiUrl("not a url")).toThrow(WebDataError);
    expect(() => normalizeApiUrl("ftp://x.example")).toThrow(/http or https/);
  });

  it("an apiUrl fault is one class whichever check meets it: ValidationError of the client options at apiUrl (it was a WebDataError, a ValidationError or a raw TypeError)", () => {
    clean();
    const faults: [unknown, RegExp][] = [
      ["not a url", /apiUrl: is not a valid absolute URL: "not a url"/],
      ["", /apiUrl: is not a valid absolute URL/],
      ["http://", /apiUrl: is not a valid absolute URL/],
      ["ftp://x.example", /apiUrl: must use http or https, got ftp:/],
      ["http://user:secret@x.example", /apiUrl: must not hold a password/],
      [42, /apiUrl: must be a string URL such as https:\/\/api.firecrawl.dev, got a number/],
      [{}, /apiUrl: must be a string URL .*, got an object/],
    ];
    for (const [apiUrl, message] of faults) {
      for (const Client of [WebData, NodeWebData]) {
        let err: unknown;
        try {
          new Client({ apiKey: "k", apiUrl: apiUrl as string });
        } catch (e) {
          err = e;
        }
        expect(err, String(apiUrl)).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).issues.map((i) => i.path)).toEqual(["apiUrl"]);
        expect((err as Error).message).toMatch(/^Invalid client options: /);
        expect((err as Error).message).toMatch(message);
        expect((err as Error).message).not.toContain("secret");
      }
    }
    // From the environment too.
    vi.stubEnv("WEBDATA_API_URL", "ftp://env.example");
    expect(() => new WebData({ apiKey: "k" })).toThrow(ValidationError);
  });

  it("reads the log level from WEBDATA_LOG", async () => {
    clean();
    vi.stubEnv("WEBDATA_LOG", "debug");
    const fake = createFakeService();
    const lines: string[] = [];
    const logger = { debug: (m: string) => lines.push(m), info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    await new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger }).getCreditUsage();
    expect(lines).toEqual(["-> GET /v2/team/credit-usage", "<- GET /v2/team/credit-usage 200"]);
    lines.length = 0;
    vi.stubEnv("WEBDATA_LOG", "off");
    await new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger }).getCreditUsage();
    expect(lines).toEqual([]);
  });

  it("rejects bad numeric options", () => {
    expect(() => new WebData({ apiKey: "k", maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new WebData({ apiKey: "k", timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it("constructs and works where there is no `process` (browsers, Workers)", async () => {
    const fake = createFakeService();
    const saved = globalThis.process;
    let client: WebData;
    Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
    try {
      expect(typeof (globalThis as { process?: unknown }).process).toBe("undefined");
      client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch });
      expect(() => new WebData()).toThrow(/WEBDATA_API_KEY/);
    } finally {
      Object.defineProperty(globalThis, "process", { value: saved, configurable: true, writable: true });
    }
    expect((await client.getCreditUsage()).planCredits).toBe(100_000);
  });

  it("uses the Node transport by default on the Node entry and fetch when one is injected", async () => {
    const fake = createFakeService();
    const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch });
    await client.getCreditUsage();
    expect(fake.requests).toHaveLength(1);
  });
});

describe("retry numbers", () => {
  it("parses retry-after-ms, Retry-After seconds, HTTP dates and the body text", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), undefined, now)).toBe(5000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2025 00:00:05 GMT" }), undefined, now)).toBe(0);
    expect(parseRetryAfter(new Headers(), "Rate limit exceeded ... or please retry after 12s, resets at x")).toBe(12_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "garbage" }), "no hint here")).toBeUndefined();
  });
});

describe.each(TRANSPORTS)("key redaction over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("keeps the key out of messages, JSON, inspect output and logs", async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
      info: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
      warn: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
      error: (m, d) => lines.push(m + JSON.stringify(d ?? {})),
    };
    s = await setup(kind, {}, { logger, logLevel: "debug" });
    const key = s.fake.apiKey;
    s.fake.inject({ match: "/v2/team", status: 500, headers: { "retry-after": "0" }, body: { success: false, error: `Unauthorized: Invalid token ${key}` } });
    s.fake.inject({ match: "/v2/team", status: 401, body: { success: false, error: `Unauthorized: Invalid token ${key}`, details: { key } } });
    const err = (await s.client.getCreditUsage().catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(APIError);
    const surfaces = [err.message, err.serverMessage, JSON.stringify(err), inspect(err, { depth: 5 }), String(err.stack), inspect(s.client, { depth: 5 }), JSON.stringify(s.client), lines.join("\n")];
    for (const text of surfaces) expect(text).not.toContain(key);
    expect(err.message).toContain("[redacted]");
    expect(lines.some((l) => l.includes("Retrying"))).toBe(true);
  });
});
