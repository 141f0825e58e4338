/**
 * The main job: scrape, map, usage, a rate-limited retry and a typed error,
 * against the built-in fake service on loopback (no key, no network).
 * With WEBDATA_API_KEY set it talks to the real service instead.
 *
 *   npm run demo
 */
import { NotFoundError, ValidationError, WebData } from "webdata";
import { createFakeService, serveFake } from "webdata/testing";

const real = Boolean(process.env.WEBDATA_API_KEY);
const fake = createFakeService();
const served = real ? undefined : await serveFake(fake);
const client = real ? new WebData() : new WebData({ apiKey: fake.apiKey, apiUrl: served?.url, logLevel: "info" });
const site = real ? "https://example.com" : "https://acme.test";

try {
  console.log(`webdata demo against ${real ? client.apiUrl : `the fake service at ${client.apiUrl}`}\n`);

  const doc = await client.scrape(site, { formats: ["markdown", "links"] });
  console.log(`scrape  ${doc.metadata.sourceURL}: "${String(doc.metadata.title)}", ${doc.markdown?.length ?? 0} chars of markdown, ${doc.links?.length ?? 0} links`);

  const { links } = await client.map(site, { limit: 10 });
  console.log(`map     ${links.length} links, first: ${links.slice(0, 3).map((l) => l.url).join(", ")}`);

  if (!real) fake.rateLimit({ retryAfterSeconds: 1 });
  const { data: usage, response } = await client.getCreditUsage().withResponse();
  console.log(`usage   ${usage.remainingCredits} of ${usage.planCredits} credits left (HTTP ${response.status}${real ? "" : ", after one 429 retried per the server's \"retry after 1s\""})`);

  try {
    await client.scrape("ftp://not-http", { waitFor: 120_000 });
  } catch (err) {
    if (err instanceof ValidationError) console.log(`invalid ${err.issues.length} problems caught before sending: ${err.message}`);
  }

  try {
    await client.v1.mapUrl(site, { location: { country: "us" } });
  } catch (err) {
    if (err instanceof ValidationError) console.log(`invalid ${err.message}`);
  }

  try {
    await client.http.request({ method: "GET", path: "/v2/does-not-exist" });
  } catch (err) {
    if (err instanceof NotFoundError) console.log(`error   ${err.name} ${err.status}: ${err.message}`);
  }
  console.log("\ndone");
} finally {
  await served?.close();
}
