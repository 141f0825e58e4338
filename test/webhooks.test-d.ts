/**
 * Type tests of a webhook receiver under strict TypeScript: what `parseWebhook`
 * resolves includes the unknown event (`known: false`), and once `known` is
 * checked a switch over the `type` literals narrows every known event as before.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { Document } from "../src/index.js";
import { parseWebhook, WebhookVerificationError, type ParsedWebhook, type UnknownWebhook, type WebhookPayload } from "../src/webhooks.js";

describe("parseWebhook's result", () => {
  test("is the known union or the unknown event", () => {
    expectTypeOf(parseWebhook).returns.resolves.toEqualTypeOf<ParsedWebhook>();
    expectTypeOf<ParsedWebhook>().toEqualTypeOf<WebhookPayload | UnknownWebhook>();
    expectTypeOf<Extract<ParsedWebhook, { known: false }>>().toEqualTypeOf<UnknownWebhook>();
  });

  test("narrows on known, then on the type literals", (e: ParsedWebhook) => {
    if (!e.known) {
      expectTypeOf(e).toEqualTypeOf<UnknownWebhook>();
      expectTypeOf(e.type).toEqualTypeOf<string>();
      expectTypeOf(e.data).toEqualTypeOf<unknown[]>();
      return;
    }
    switch (e.type) {
      case "crawl.page":
        if (e.success) expectTypeOf(e.data[0]).toEqualTypeOf<Document>();
        else expectTypeOf(e.data[0].metadata.sourceURL).toEqualTypeOf<string>();
        break;
      case "agent.action":
        expectTypeOf(e.data[0].action).toEqualTypeOf<string>();
        break;
      case "monitor.check.completed":
        expectTypeOf(e.data[0].summary.changed).toEqualTypeOf<number>();
        break;
      default:
        expectTypeOf(e.known).toEqualTypeOf<true>();
    }
  });

  test("without the known check, a type literal does not narrow away a newer event", (e: ParsedWebhook) => {
    if (e.type === "crawl.page") {
      expectTypeOf(e).toExtend<UnknownWebhook | WebhookPayload>();
      // @ts-expect-error: the event may be an UnknownWebhook, whose data is unknown[]
      void e.data[0].metadata;
    }
  });
});

describe("README: Webhooks", () => {
  test("the receiver of the README compiles as written", () => {
    // The README's handler, line for line (SECRET and save are the reader's).
    const SECRET = "whsec";
    const save = (doc: Document | undefined): void => void doc;
    async function handler(req: Request): Promise<Response> {
      const raw = await req.text(); // the exact body: verified before it is parsed
      const event = await parseWebhook(raw, { secret: SECRET, signature: req.headers.get("x-firecrawl-signature") }).catch((err: unknown) => {
        if (err instanceof WebhookVerificationError) return undefined; // a bad signature, or not a delivery
        throw err;
      });
      if (!event) return new Response("bad delivery", { status: 401 });
      if (!event.known) return new Response("ok"); // an event type newer than this SDK: acknowledge it (event.type, event.data)
      if (event.type === "crawl.page" && event.success) save(event.data[0]);
      return new Response("ok");
    }
    expectTypeOf(handler).returns.resolves.toEqualTypeOf<Response>();
  });
});
