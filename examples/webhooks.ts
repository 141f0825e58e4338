/**
 * Webhooks verified in a small HTTP handler: a crawl that reports to your
 * URL, and a `node:http` server that checks each delivery's signature
 * against the raw body before trusting it, and handles each delivery once
 * (`webhookReceiver`: a retried delivery is acknowledged, not handled again;
 * on several replicas, give it `redisWebhookStore` of `webdata/redis`). An
 * event type newer than this version of webdata is still a delivery: it is
 * acknowledged, not rejected.
 *
 *   npm run build && npx tsx examples/webhooks.ts   # WEBHOOK_SECRET: your team's secret
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { webhookReceiver, WebhookVerificationError, type ParsedWebhook } from "webdata/webhooks";
import { signWebhook } from "webdata/testing";
import { runIfMain, type Connection } from "./connect.js";

/** Your handler: 200 for a verified delivery (of a known event type or not; handled once), 401 for anything else. */
export function webhookHandler(secret: string, onEvent: (event: ParsedWebhook) => void) {
  const receiver = webhookReceiver({ secret }); // in memory: one process (replicas share redisWebhookStore)
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks); // the exact bytes: parse only after verifying
    try {
      const got = await receiver.receive(raw, req.headers["x-firecrawl-signature"] as string | undefined);
      if (got.duplicate) {
        console.log(`already handled: ${got.event.type}`);
      } else {
        // `event.known` is false for an event type added to the service after this version: acknowledge it all the same.
        const { event } = got;
        if (event.known && event.type === "crawl.page" && event.success) console.log(`page ${event.data[0].metadata.sourceURL}`);
        onEvent(event);
      }
      res.writeHead(200).end();
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      res.writeHead(401).end(err.message);
    }
  };
}

/** Serves the handler on loopback and delivers a signed and a forged event to it, as the service would. */
export async function main({ client, site }: Connection): Promise<{ accepted: string[]; acknowledged: number[]; rejected: number }> {
  const secret = process.env.WEBHOOK_SECRET ?? "whsec-example";
  const accepted: string[] = [];
  const handler = webhookHandler(secret, (e) => accepted.push(e.type));
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/crawl`;
  try {
    // The crawl names your URL (a public one in production: the service cannot reach 127.0.0.1).
    const job = await client.startCrawl(site, { limit: 1, webhook: { url, events: ["completed", "failed"] } });
    // A delivery signed as the service signs it (`signWebhook` of webdata/testing), and the same body forged.
    const signed = await signWebhook({ secret, event: { type: "crawl.completed", id: job.id, data: [], metadata: {} } });
    const good = await fetch(url, signed);
    const again = await fetch(url, signed); // the service's retry of the same delivery: acknowledged, not handled again
    const forged = await fetch(url, { ...signed, headers: { ...signed.headers, "x-firecrawl-signature": `sha256=${"0".repeat(64)}` } });
    console.log(`signed delivery: ${good.status}, again: ${again.status}, forged delivery: ${forged.status}; handled ${accepted.join(", ")}`);
    return { accepted, acknowledged: [good.status, again.status], rejected: forged.status === 401 ? 1 : 0 };
  } finally {
    server.close();
  }
}

runIfMain(import.meta.url, main);
