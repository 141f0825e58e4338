/**
 * The main flows in a few seconds: usage, a scrape, a map, a crawl with a
 * progress line and the live watcher, an agent signup and a first scrape with
 * the new key, a 429 retried, typed errors, and usage again. Against the
 * built-in fake service on loopback (no key, no network); with
 * WEBDATA_API_KEY set it talks to the real service instead (and skips the
 * signup and the injected 429).
 *
 *   npm run demo
 */
import { JobFailedError, NotFoundError, ValidationError, WebData, type Logger } from "webdata";
import type { WebSocketConstructor } from "webdata/types";
import { createFakeService, fakeJobs, serveFake } from "webdata/testing";

const real = Boolean(process.env.WEBDATA_API_KEY);
const out = (label: string, text: string) => console.log(`${label.padEnd(8)} ${text}`);
const short = (text: string, max = 96) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// Retries are logged at `info`: show them as one short line each.
const logger: Logger = {
  debug: () => undefined,
  info: (message) => out("retry", short(message)),
  warn: (message) => out("warning", short(message)),
  error: (message) => out("error", short(message)),
};

// The fake streams crawl progress on a readable clock: one page every 100 ms.
const fake = createFakeService({ sse: true, streamIntervalMs: 100 });
fakeJobs(fake).configure({ pagesPerPoll: 1 });
const served = real ? undefined : await serveFake(fake);
const client = real ? new WebData({ logger, logLevel: "info" }) : new WebData({ apiKey: fake.apiKey, apiUrl: served?.url, logger, logLevel: "info" });
const site = real ? "https://example.com" : "https://acme.test";
// Node 20 has no global WebSocket: use the `ws` package's when it is installed (the fake serves the crawl WebSocket with it).
const webSocket = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? (await import("ws").then((m) => m.WebSocket as unknown as WebSocketConstructor, () => undefined));

try {
  console.log(`webdata demo against ${real ? client.apiUrl : `the built-in fake service at ${client.apiUrl} (no key, no network)`}\n`);

  const before = await client.getCreditUsage();
  out("usage", `${before.remainingCredits} of ${before.planCredits} credits left`);

  const doc = await client.scrape(site, { formats: ["markdown", "links"] });
  out("scrape", `${doc.metadata.sourceURL}: "${String(doc.metadata.title)}", ${doc.markdown?.length ?? 0} chars of markdown, ${doc.links?.length ?? 0} links`);

  const { links } = await client.map(site, { limit: 10 });
  out("map", `${links.length} links: ${links.slice(0, 3).map((l) => l.url).join(", ")}, ...`);

  // A crawl, watched live: documents and counters as they arrive, `done` once the service confirms the end.
  const job = await client.startCrawl(site, { limit: 8, scrapeOptions: { formats: ["markdown"] } });
  const tty = Boolean(process.stdout.isTTY);
  const bar = (done: number, total: number) => `[${"#".repeat(done).padEnd(Math.max(total, done), ".")}] ${done}/${total} pages`;
  let documents = 0;
  let total = 0;
  for await (const event of client.watcher(job.id, { webSocket, pollIntervalMs: real ? undefined : 100 })) {
    if (event.type === "document") documents += 1;
    if (event.type === "status") total = event.total;
    if (event.type === "error") out("watch", `(recovered) ${short(event.error.message)}`);
    if (event.type === "done") {
      const line = `crawl    ${bar(documents, Math.max(total, event.total, documents))}, done: ${event.status}`;
      process.stdout.write(tty ? `\r${line}\n` : `${line}\n`);
    } else if (tty) {
      process.stdout.write(`\rcrawl    ${bar(documents, Math.max(total, documents))}`);
    }
  }
  out("watch", `${documents} documents delivered live, each once (crawl ${job.id})`);

  if (!real) {
    // Agent signup: a sandboxed key, usable at once, limited until a person confirms it.
    const signup = await client.agentSignup({ email: "owner@example.com", agent_name: "demo-agent", accept_terms: true });
    const agent = signup.createClient();
    const first = await agent.scrape(`${site}/about`, { formats: ["markdown"] });
    out("signup", `new key (${signup.sponsor_status}, ${signup.credit_limit} credits until confirmed); its first scrape: "${String(first.metadata.title)}"`);

    // A 429 as the service sends it ("... retry after 1s"): the client waits as asked and retries.
    fake.rateLimit({ retryAfterSeconds: 1, match: "/v2/scrape" });
    const t0 = Date.now();
    const retried = await client.scrape(`${site}/contact`).withResponse();
    out("429", `answered ${retried.response.status} after one rate-limited attempt and a ${Math.round((Date.now() - t0) / 100) / 10} s wait`);

    // A crawl that fails on the server is a typed error, never a half-done result.
    fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed: the start URL could not be scraped." });
    await client.crawl(site, { pollIntervalMs: 500 }).catch((err: unknown) => {
      if (err instanceof JobFailedError) out("error", `${err.name}: ${err.message}`);
      else throw err;
    });
  }

  try {
    await client.scrape("ftp://not-http", { waitFor: 120_000 });
  } catch (err) {
    if (err instanceof ValidationError) out("error", `${err.name}, ${err.issues.length} problems caught before sending: ${short(err.issues[0]?.message ?? "")}`);
  }

  try {
    await client.getCrawlStatus("00000000-0000-4000-8000-000000000000");
  } catch (err) {
    if (err instanceof NotFoundError) out("error", `${err.name} ${err.status}: ${err.serverMessage ?? err.message}`);
  }

  const after = await client.getCreditUsage();
  out("usage", `${after.remainingCredits} of ${after.planCredits} credits left (${before.remainingCredits - after.remainingCredits} spent by this demo)`);
  console.log("\ndone");
} finally {
  await served?.close();
}
