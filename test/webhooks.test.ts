import { createHmac } from "node:crypto";
import { describe, expect, expectTypeOf, it } from "vitest";
import { webhookSchema } from "../src/api/webhooks.js";
// The public entry exports the helpers and types.
import { parseWebhook, verifyWebhookSignature, WebhookVerificationError, WEBHOOK_EVENT_TYPES, type ParsedWebhook, type UnknownWebhook, type WebhookPayload } from "../src/webhooks.js";
import { check } from "../src/core/validate.js";
import { ValidationError } from "../src/core/errors.js";

const SECRET = "whsec-test-secret";
const sign = (body: string | Buffer, secret = SECRET) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

const pageBody = JSON.stringify({
  success: true,
  type: "crawl.page",
  id: "01a200e1-26bb-752e-ac9d-fd9d8cf7ffe1",
  webhookId: "a1b2c3d4-0002-0000-0000-000000000000",
  data: [{ markdown: "# Hi ünïcödé", metadata: { sourceURL: "https://example.com/", statusCode: 200 } }],
  metadata: { run: "42" },
});

describe("verifyWebhookSignature", () => {
  it("accepts the HMAC-SHA256 of the exact raw body (string, bytes, ArrayBuffer)", async () => {
    const header = sign(pageBody);
    expect(await verifyWebhookSignature(pageBody, header, SECRET)).toBe(true);
    const bytes = new TextEncoder().encode(pageBody);
    expect(await verifyWebhookSignature(bytes, header, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(bytes.buffer.slice(0), header, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(pageBody, header.toUpperCase().replace("SHA256=", "sha256="), SECRET)).toBe(true);
  });

  it("matches a fixed vector computed with node:crypto", async () => {
    // HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog") (RFC 4231 style well-known vector)
    const hex = "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8";
    expect(createHmac("sha256", "key").update("The quick brown fox jumps over the lazy dog").digest("hex")).toBe(hex);
    expect(await verifyWebhookSignature("The quick brown fox jumps over the lazy dog", `sha256=${hex}`, "key")).toBe(true);
  });

  it("rejects a changed body, a re-serialized body, a wrong secret and a wrong digest", async () => {
    const header = sign(pageBody);
    expect(await verifyWebhookSignature(pageBody + " ", header, SECRET)).toBe(false);
    expect(await verifyWebhookSignature(JSON.stringify(JSON.parse(pageBody), null, 2), header, SECRET)).toBe(false);
    expect(await verifyWebhookSignature(pageBody, header, "other-secret")).toBe(false);
    const flipped = header.slice(0, -1) + (header.endsWith("0") ? "1" : "0");
    expect(await verifyWebhookSignature(pageBody, flipped, SECRET)).toBe(false);
  });

  it("returns false (never throws) for malformed headers", async () => {
    const hex = sign(pageBody).slice("sha256=".length);
    for (const bad of [undefined, null, "", hex, `sha1=${hex}`, "sha256=", "sha256=zz", `sha256=${hex.slice(2)}`, `sha256=${hex}00`, `sha256=${hex.slice(1)}`, "sha256=not hex at all"]) {
      await expect(verifyWebhookSignature(pageBody, bad, SECRET)).resolves.toBe(false);
    }
    await expect(verifyWebhookSignature(pageBody, sign(pageBody), "")).resolves.toBe(false);
  });
});

describe("parseWebhook", () => {
  it("verifies and parses into the discriminated union", async () => {
    const event = await parseWebhook(pageBody, { secret: SECRET, signature: sign(pageBody) });
    expect(event.type).toBe("crawl.page");
    if (event.known && event.type === "crawl.page" && event.success) {
      expectTypeOf(event.data[0].metadata.statusCode).toEqualTypeOf<number>();
      expect(event.data[0].markdown).toBe("# Hi ünïcödé");
    } else throw new Error("wrong branch");
    expect(event.metadata).toEqual({ run: "42" });
  });

  it("throws WebhookVerificationError on a bad signature, bad JSON, a body that is not a delivery, or a known event without its id", async () => {
    await expect(parseWebhook(pageBody, { secret: SECRET, signature: "sha256=00" })).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(parseWebhook(pageBody, { secret: SECRET })).rejects.toThrow(/signature/);
    await expect(parseWebhook("{nope")).rejects.toThrow(/JSON/);
    await expect(parseWebhook(JSON.stringify({ type: "crawl.started", data: [] }))).rejects.toThrow(/job id/);
    for (const [body, what] of [["[]", "an array"], ["null", "null"], ["42", "a number"], ['"crawl.page"', "a string"], ["{}", "an object without a string `type`"], ['{"type":7,"id":"x"}', "an object without a string `type`"], ['{"type":"","id":"x"}', "an object without a string `type`"]]) {
      const err = await parseWebhook(body as string).then(() => undefined, (e: unknown) => e);
      expect(err, body).toBeInstanceOf(WebhookVerificationError);
      expect((err as Error).message).toBe(`Webhook body is not a webhook delivery: ${what}`);
    }
  });

  it("an event type it does not know, signed correctly, is an UnknownWebhook (type, data, the common fields), never a verification failure", async () => {
    // `crawl.failed` is not sent by any service version yet: a receiver must accept it the day it is.
    const later = JSON.stringify({ success: false, type: "crawl.failed", id: "j9", webhookId: "w9", data: [{ reason: "robots" }], error: "blocked", metadata: { run: "42" }, attempt: 2 });
    const event = await parseWebhook(later, { secret: SECRET, signature: sign(later) });
    expect(event).toEqual({ success: false, type: "crawl.failed", known: false, id: "j9", webhookId: "w9", data: [{ reason: "robots" }], error: "blocked", metadata: { run: "42" }, attempt: 2 });
    if (event.known) throw new Error("known");
    expectTypeOf(event).toEqualTypeOf<UnknownWebhook>();
    expectTypeOf(event.type).toEqualTypeOf<string>();
    expectTypeOf(event.data).toEqualTypeOf<unknown[]>();
    // Still verified: the same body with a wrong signature fails.
    await expect(parseWebhook(later, { secret: SECRET, signature: sign(later, "other") })).rejects.toThrow(WebhookVerificationError);
    // Fields of the usual names with other types are left out of the typed ones; v0's jobId is the id; data as a list.
    expect(await parseWebhook(JSON.stringify({ type: "team.updated", jobId: "j0", success: "yes", webhookId: 5, error: {}, metadata: { n: 1 }, data: { a: 1 } }))).toEqual({ type: "team.updated", known: false, id: "j0", jobId: "j0", data: [{ a: 1 }] });
    expect(await parseWebhook(JSON.stringify({ type: "x.y", id: 3 }))).toEqual({ type: "x.y", known: false, data: [] });
    expect(await parseWebhook(JSON.stringify({ type: "x.y", data: "text" }))).toEqual({ type: "x.y", known: false, data: ["text"] });
  });

  it("known events carry known: true, and a switch narrows once `known` is checked", async () => {
    const event: ParsedWebhook = await parseWebhook(pageBody);
    expect(event.known).toBe(true);
    const seen = (e: ParsedWebhook): string => {
      if (!e.known) return `unknown ${e.type} (${e.data.length})`;
      switch (e.type) {
        case "crawl.page":
          return e.success ? e.data[0].markdown ?? "" : e.error;
        case "crawl.completed":
          expectTypeOf(e.data).toEqualTypeOf<[]>();
          return "done";
        default:
          return e.type;
      }
    };
    expect(seen(event)).toBe("# Hi ünïcödé");
    expect(seen(await parseWebhook(JSON.stringify({ type: "crawl.paused", id: "j", data: [] })))).toBe("unknown crawl.paused (0)");
  });

  it("accepts v0's jobId as id and every documented event type", async () => {
    const v0 = await parseWebhook(JSON.stringify({ success: true, type: "crawl.started", jobId: "j1", webhookId: "w", data: [] }));
    expect(v0.id).toBe("j1");
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(17);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const e = await parseWebhook(JSON.stringify({ success: true, type, id: "j", webhookId: "w", data: [] }));
      expect(e.type).toBe(type);
      expect(e.known).toBe(true);
    }
  });

  it("narrows each event's data by type", () => {
    const handle = (e: WebhookPayload): string => {
      switch (e.type) {
        case "crawl.page":
        case "batch_scrape.page":
          return e.success ? String(e.data[0].metadata.sourceURL) : `${e.error} ${e.data[0].metadata.sourceURL}`;
        case "extract.completed":
          return e.data[0].extractId;
        case "extract.failed":
        case "agent.failed":
          return e.error;
        case "agent.action":
          return e.data[0].action;
        case "agent.completed":
          return String(e.data[0].creditsUsed);
        default:
          return e.type;
      }
    };
    expect(handle({ success: false, type: "crawl.page", known: true, id: "j", webhookId: "w", error: "boom", data: [{ metadata: { sourceURL: "u" } }] })).toBe("boom u");
    expect(handle({ success: true, type: "agent.action", known: true, id: "j", webhookId: "w", data: [{ creditsUsed: 1, action: "scrape", input: {} }] })).toBe("scrape");
  });
});

describe("page monitors' deliveries and crawl.cancelled (the server's WebhookEvent list, services/webhook/types.ts)", () => {
  const CHECK = "019a0b1c-2d3e-7f40-8a51-6b7c8d9e0f12";
  const MONITOR = "019a0b1c-0000-7f40-8a51-6b7c8d9e0f12";
  const checkBody = JSON.stringify({
    success: true,
    type: "monitor.check.completed",
    id: CHECK,
    webhookId: "a1b2c3d4-0009-0000-0000-000000000000",
    data: [{ monitorId: MONITOR, checkId: CHECK, status: "completed", summary: { totalPages: 3, same: 1, changed: 1, new: 1, removed: 0, error: 0 } }],
    metadata: { team: "docs" },
  });

  it("monitor.check.completed: signed and parsed, the check's summary typed", async () => {
    const e = await parseWebhook(checkBody, { secret: SECRET, signature: sign(checkBody) });
    if (!e.known || e.type !== "monitor.check.completed") throw new Error(`wrong type ${e.type}`);
    expectTypeOf(e.data[0].summary.changed).toEqualTypeOf<number>();
    expect(e.id).toBe(CHECK);
    expect(e.data[0]).toEqual({ monitorId: MONITOR, checkId: CHECK, status: "completed", summary: { totalPages: 3, same: 1, changed: 1, new: 1, removed: 0, error: 0 } });
    expect(e.metadata).toEqual({ team: "docs" });
  });

  it("monitor.page: a changed page with its diff and judgment; a failed page with its error", async () => {
    const page = { monitorId: MONITOR, checkId: CHECK, url: "https://acme.test/pricing", status: "changed", previousScrapeId: "s1", currentScrapeId: "s2", error: null, isMeaningful: true, judgment: { meaningful: true, confidence: "high", reason: "price", meaningfulChanges: [{ type: "changed", before: "$10", after: "$12", reason: "price" }] }, diff: { text: "-$10\n+$12" } };
    const changed = await parseWebhook(JSON.stringify({ success: true, type: "monitor.page", id: CHECK, webhookId: "w1", data: [page] }));
    if (!changed.known || changed.type !== "monitor.page") throw new Error("wrong type");
    expectTypeOf(changed.data[0].status).toEqualTypeOf<"same" | "new" | "changed" | "removed" | "error">();
    expect(changed.data[0]).toEqual(page);
    const failed = await parseWebhook(JSON.stringify({ success: false, type: "monitor.page", id: CHECK, webhookId: "w2", error: "timeout", data: [{ ...page, status: "error", error: "timeout", currentScrapeId: null }] }));
    expect(failed).toMatchObject({ success: false, error: "timeout", data: [{ status: "error", error: "timeout" }] });
  });

  it("a data object (the first monitor deliveries sent one) is kept as a list of one, not dropped", async () => {
    const one = { monitorId: MONITOR, checkId: CHECK, url: "https://acme.test/", status: "new", previousScrapeId: null, currentScrapeId: "s3", error: null };
    const e = await parseWebhook(JSON.stringify({ success: true, type: "monitor.page", id: CHECK, webhookId: "w3", data: one }));
    expect(e.data).toEqual([one]);
  });

  it("crawl.cancelled: success false with the server's text", async () => {
    const e = await parseWebhook(JSON.stringify({ success: false, type: "crawl.cancelled", id: "c1", webhookId: "w4", error: "Crawl cancelled by user", data: [] }));
    if (!e.known || e.type !== "crawl.cancelled") throw new Error("wrong type");
    expectTypeOf(e.error).toEqualTypeOf<string>();
    expect(e).toMatchObject({ success: false, error: "Crawl cancelled by user", data: [] });
  });
});

describe("webhookSchema", () => {
  const schema = webhookSchema();
  it("accepts a URL string or the object form", () => {
    expect(check(schema, "https://hooks.example.com/x", "webhook")).toBe("https://hooks.example.com/x");
    const obj = { url: "https://hooks.example.com/x", headers: { a: "b" }, metadata: { k: "v" }, events: ["page" as const] };
    expect(check(schema, obj, "webhook")).toBe(obj);
  });
  it("rejects the signature header, unknown events and non-URLs", () => {
    expect(() => check(schema, { url: "https://h.example.com", headers: { "X-Firecrawl-Signature": "x" } }, "webhook")).toThrow(ValidationError);
    expect(() => check(schema, { url: "https://h.example.com", events: ["action"] }, "webhook")).toThrow(ValidationError);
    expect(() => check(schema, "not a url", "webhook")).toThrow(ValidationError);
    expect(() => check(webhookSchema(["started", "action", "completed", "failed", "cancelled"]), { url: "https://h.example.com", events: ["action"] }, "webhook")).not.toThrow();
  });
});
