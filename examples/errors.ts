/**
 * Rate limits, retries and every error class: what each failure throws
 * (`ValidationError`, `BadRequestError`, `AuthenticationError`,
 * `PaymentRequiredError`, `NotFoundError`, `ConflictError`, `RateLimitError`,
 * `InternalServerError`, `ConnectionError`, `TimeoutError`, `AbortError`,
 * `JobFailedError`, `InvalidResponseError`, all `WebDataError`s), and what it carries. Against the fake, each failure is injected; against the
 * service, only those your input causes are shown.
 *
 *   npm run build && npx tsx examples/errors.ts
 */
import { APIError, InvalidResponseError, JobFailedError, RateLimitError, ValidationError, WebData, WebDataError } from "webdata";
import { fakeJobs } from "webdata/testing";
import { runIfMain, type Connection } from "./connect.js";

/** Runs `call` and prints the class and details of what it throws; returns the class name. */
async function show(what: string, call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    console.log(`${what.padEnd(34)} ok`);
    return "ok";
  } catch (err) {
    if (!(err instanceof WebDataError)) throw err;
    let detail = err.message;
    if (err instanceof ValidationError) detail = `${err.issues.length} issue(s), nothing sent`;
    else if (err instanceof RateLimitError) detail = `status ${err.status}, retryAfterMs ${err.retryAfterMs}`;
    else if (err instanceof APIError) detail = `status ${err.status}, code ${err.code ?? "-"}: ${err.serverMessage ?? err.message}`;
    else if (err instanceof InvalidResponseError) detail = `status ${err.status}, ${err.code}: ${err.bodyExcerpt.slice(0, 40)}`;
    else if (err instanceof JobFailedError) detail = `job ${err.jobId} ${err.status}: ${err.serverError}`;
    console.log(`${what.padEnd(34)} ${err.name}: ${detail.slice(0, 90)}`);
    return err.name;
  }
}

/** Provokes each failure and returns the error class each one threw. */
export async function main({ client, site, fake, pollIntervalMs }: Connection): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  // Caught before sending: bad input never reaches the network.
  seen.validation = await show("bad input", () => client.scrape("not a url", { waitFor: -1 }));
  // The server's own 4xx answers.
  seen.badRequest = await show("an option the server rejects", () => client.scrape(site, { notAnOption: true } as never));
  seen.notFound = await show("unknown job", () => client.getCrawlStatus("00000000-0000-4000-8000-000000000000"));
  seen.auth = await show("wrong key", () => new WebData({ apiKey: "fc-wrong-key", apiUrl: client.apiUrl }).getCreditUsage());
  if (!fake) return seen;

  // Retried by default (2 retries): a 429 that says "retry after 0s", a 503, a dropped connection.
  fake.rateLimit({ retryAfterSeconds: 0 });
  fake.failNext(503, { headers: { "retry-after": "0" } });
  seen.retried = await show("429 then 503, retried", () => client.getCreditUsage());
  // Out of retries: the last failure is thrown.
  fake.rateLimit({ retryAfterSeconds: 0, times: 3 });
  seen.rateLimit = await show("429 three times", () => client.getCreditUsage());
  fake.failNext(500, { times: 3, headers: { "retry-after": "0" } });
  seen.server = await show("500 three times", () => client.getCreditUsage());
  fake.refuseConnection();
  seen.connection = await show("connection refused", () => client.getCreditUsage({ maxRetries: 0 }));
  fake.delay(1_000);
  seen.timeout = await show("slower than timeoutMs", () => client.getCreditUsage({ timeoutMs: 50, maxRetries: 0 }));
  seen.abort = await show("aborted by the caller", () => client.getCreditUsage({ signal: AbortSignal.abort() }));
  fake.corruptBody();
  seen.corrupt = await show("a body that is not JSON", () => client.getCreditUsage({ maxRetries: 0 }));
  fake.failNext(402, { body: { success: false, error: "Insufficient credits to perform this request." } });
  seen.payment = await show("out of credits", () => client.scrape(site));
  const job = await client.startCrawl(site, { limit: 1 });
  fakeJobs(fake).finish(job.id);
  seen.conflict = await show("cancel a finished crawl", () => client.cancelCrawl(job.id));
  fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed: robots.txt blocked" });
  seen.jobFailed = await show("a crawl that fails", () => client.crawl(site, { pollIntervalMs }));
  return seen;
}

runIfMain(import.meta.url, main);
