/**
 * Type tests: the README's "Webhooks on several replicas" and "Reconcile" snippets compile as written
 * (strict, NodeNext); test/readme-snippets.test.ts checks that every line of them is in this file.
 */
import { describe, expectTypeOf, test } from "vitest";
import { Redis } from "ioredis";
import { WebData, type Document } from "webdata";
import { webhookReceiver } from "webdata/webhooks";
import type { Reconciliation } from "webdata/webhooks";
import { redisWebhookStore } from "webdata/redis"; // Node; npm install ioredis

declare function markCancelled(jobId: string, count: number): void;
declare function save(doc: Document): Promise<void>;
declare const client: WebData;
declare const jobId: string;

const receiver = webhookReceiver({ secret: process.env.WEBHOOK_SECRET, store: redisWebhookStore({ redis: new Redis(process.env.REDIS_URL!) }) });

export async function POST(req: Request): Promise<Response> {
  const got = await receiver.handle(req); // WebhookVerificationError for a bad signature: answer 401
  if (got.duplicate) return new Response("ok"); // handled already (got.reason: "repeat" or "cancellation")
  if (got.kind === "cancelled") markCancelled(got.jobId, got.count); // once per job, on one replica
  else if (got.event.known && got.event.type === "crawl.page" && got.event.success) await save(got.event.data[0]);
  return new Response("ok");
}

describe("README: webhook receivers on several replicas", () => {
  test("the receiver snippet compiles as written", () => {
    expectTypeOf(POST).returns.resolves.toEqualTypeOf<Response>();
  });

  test("the reconcile snippet compiles as written, with a WebData client", async () => {
    const missed = await receiver.reconcile(client, jobId); // { kind: "batch" } when no delivery of the job arrived
    for (const doc of missed.missedDocuments) await save(doc); // scraped pages no delivery reported
    const retry = missed.missedFailures.map((f) => f.url); // failed pages (`/errors`) no delivery reported
    console.log(missed.status, missed.missedEvents); // e.g. "completed", ["crawl.completed"]
    expectTypeOf(missed).toEqualTypeOf<Reconciliation>();
    expectTypeOf(retry).toEqualTypeOf<string[]>();
  });
});
