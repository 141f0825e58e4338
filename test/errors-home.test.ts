/**
 * One home for the error classes: every error class the package exports
 * (portable, Node, v1 and testing entries) is defined in `src/core/errors.ts`,
 * so `core/errors.ts` reaches every public error and `instanceof` works
 * whichever module a program imported it from.
 */
import { describe, expect, it } from "vitest";
import * as errors from "../src/core/errors.js";
import { APIError, RateLimitError, RedirectError } from "../src/core/errors.js";
import * as portable from "../src/index.js";
import * as node from "../src/node.js";
import * as team from "../src/team.js";
import * as v1 from "../src/v1/index.js";
import * as webhooks from "../src/webhooks.js";
import * as redis from "../src/redis.js";

const homed = new Set<unknown>(Object.values(errors));

function errorClasses(mod: Record<string, unknown>): [string, unknown][] {
  return Object.entries(mod).filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof Error);
}

describe("error classes", () => {
  it.each([
    ["webdata", portable],
    ["webdata (node)", node],
    ["webdata/v1", v1],
    ["webdata/webhooks", webhooks],
    ["webdata/team", team],
    ["webdata/redis", redis],
  ] as const)("every error class exported by %s is defined in core/errors.ts", (_name, mod) => {
    const strays = errorClasses(mod as Record<string, unknown>).filter(([, v]) => !homed.has(v)).map(([k]) => k);
    expect(strays).toEqual([]);
  });

  it("the entry exports every error class of core/errors.ts (the webhook receiver's from webdata/webhooks, the team plugin's from webdata/team, Redis's from webdata/redis)", () => {
    const exported = new Set(errorClasses(portable as Record<string, unknown>).map(([k]) => k));
    const elsewhere = { WebhookVerificationError: webhooks, BudgetExceededError: team, JobStalledError: team, RedisUnavailableError: redis };
    for (const [name, entry] of Object.entries(elsewhere)) {
      expect(exported.has(name), name).toBe(false);
      expect(errorClasses(entry as Record<string, unknown>).map(([k]) => k), name).toContain(name);
    }
    for (const name of Object.keys(elsewhere)) exported.add(name);
    const missing = errorClasses(errors as Record<string, unknown>).map(([k]) => k).filter((k) => !exported.has(k));
    expect(missing).toEqual([]);
  });

  it("no module under src/ defines an error class outside core/errors.ts (testing/ excepted: the fake's own)", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const { fileURLToPath } = await import("node:url");
    const root = fileURLToPath(new URL("../src/", import.meta.url));
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".ts") && !f.startsWith("testing") && f !== "core/errors.ts");
    const names = new Set(errorClasses(errors as Record<string, unknown>).map(([k]) => k));
    const offenders: string[] = [];
    for (const f of files) {
      const text = await readFile(`${root}${f}`, "utf8");
      for (const m of text.matchAll(/class\s+(\w+)\s+extends\s+(\w+)/g)) {
        if (m[2] === "Error" || names.has(m[2] as string)) offenders.push(`${f}: ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("status to class: APIError.from is the one place (3xx and 429 included, not picked by the request path)", () => {
  const base = { message: "server text", endpoint: "GET /v2/team/credit-usage", apiUrl: "http://api.test/base" };

  it.each([
    [400, "BadRequestError"],
    [401, "AuthenticationError"],
    [402, "PaymentRequiredError"],
    [403, "PermissionDeniedError"],
    [404, "NotFoundError"],
    [408, "RequestTimeoutError"],
    [409, "ConflictError"],
    [410, "GoneError"],
    [429, "RateLimitError"],
    [301, "RedirectError"],
    [308, "RedirectError"],
    [0, "RedirectError"],
    [500, "InternalServerError"],
    [503, "InternalServerError"],
    [418, "APIError"],
    [200, "APIError"],
  ] as const)("%s -> %s", (status, name) => {
    const err = APIError.from({ ...base, status });
    expect(err.constructor.name).toBe(name);
    expect(err.name).toBe(name);
  });

  it("a 429 carries the wait it was given (retryAfterMs)", () => {
    const err = APIError.from({ ...base, status: 429, retryAfterMs: 3_000 });
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(3_000);
  });

  it("a redirect says where it pointed and the fix; a hidden one (status 0, a browser's opaque redirect) is a 302 to (hidden)", () => {
    const scheme = APIError.from({ ...base, status: 301, location: "https://api.test/base/v2/team/credit-usage" }) as RedirectError;
    expect(scheme).toBeInstanceOf(RedirectError);
    expect(scheme).toMatchObject({ status: 301, location: "https://api.test/base/v2/team/credit-usage" });
    expect(scheme.message).toBe("Redirected to https://api.test, not followed (the API never redirects): set apiUrl to https://api.test/base (HTTP 301, GET /v2/team/credit-usage)");
    const elsewhere = APIError.from({ ...base, status: 307, location: "https://login.example/" });
    expect(elsewhere.message).toMatch(/^Redirected to https:\/\/login\.example, not followed \(the API never redirects\): check apiUrl \(HTTP 307/);
    expect(APIError.from({ ...base, status: 302, location: "not a URL", apiUrl: "also not" }).message).toMatch(/^Redirected to \(hidden\), not followed \(the API never redirects\): check apiUrl/);
    const hidden = APIError.from({ ...base, status: 0 }) as RedirectError;
    expect(hidden).toBeInstanceOf(RedirectError);
    expect(hidden).toMatchObject({ status: 302, location: undefined });
    expect(hidden.message).toMatch(/^Redirected to \(hidden\), not followed \(the API never redirects\): check apiUrl \(HTTP 302/);
  });
});
