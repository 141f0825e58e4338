/**
 * `webdata doctor`, run as a separate process: against the fake service
 * (healthy, and with faults), against a self-hosted server replayed from its
 * recordings on loopback, against a refused port and a TLS server whose
 * certificate is not trusted. Default runs start no job and spend no credit;
 * `--deep` does, says so first, and reports a `json` format answered without `json`.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DoctorReport } from "../src/cli/doctor.js";
import { EXIT } from "../src/cli/exit.js";
import { createFakeService, fakeJobs, serveFake, type FakeService, type ServedFake } from "../src/testing/node.js";
import { runBin, type BinRun } from "./support/cli-run.js";
import { serveSelfHosted } from "./support/cli-selfhosted.js";
import { json, serve } from "./support/loopback.js";

let fake: FakeService;
let served: ServedFake;

afterEach(async () => {
  await served?.close();
});

async function start(options: Parameters<typeof createFakeService>[0] = {}): Promise<void> {
  fake = createFakeService(options);
  served = await serveFake(fake);
}

const doctor = (args: string[] = [], env: Record<string, string> = {}): Promise<BinRun> =>
  runBin(["doctor", ...args], { env: { WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url, ...env } });

const reportOf = (r: BinRun) => JSON.parse(r.stdout) as DoctorReport;
const statusOf = (rep: DoctorReport) => Object.fromEntries(rep.checks.map((c) => [c.id, c.status]));
const check = (rep: DoctorReport, id: string) => rep.checks.find((c) => c.id === id)!;

/** Requests that start a job or spend credits. */
const PAID = /^POST \/v2\/(scrape|search|extract|agent|batch\/scrape|map)$/;

describe("webdata doctor against the fake service", () => {
  beforeEach(() => start());

  it("a healthy deployment: a table of what works, exit 0, no job started and no credit spent", async () => {
    const r = await doctor();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^webdata doctor: http:\/\/127\.0\.0\.1:\d+\n\n/);
    for (const row of [/✓ Reachable +answered in \d+ ms, plain HTTP \(no TLS\)/, /✓ API key +accepted/, /✓ API version +v2/, /✓ Credits +100000 of 100000 remaining/, /✓ Queue +0 jobs in the queue/, /✓ Concurrency +0 running, limit \d+/, /✓ Idempotent crawl starts +x-idempotency-key accepted/, /✓ Crawl WebSocket +answers \(an unknown job was closed with 1008 "Job not found"\)/, /i Crawl SSE +not known/, /- AI \(JSON format, extract, agent\) +not checked: they cost credits; --deep tries them/, /- Search +not checked/]) {
      expect(r.stdout).toMatch(row);
    }
    expect(r.stdout).toMatch(/\nUsable\.\n$/);
    expect(r.stdout).not.toContain("\x1b"); // not a terminal: no colour
    expect(fake.requests.map((q) => `${q.method} ${q.pathname}`).filter((q) => PAID.test(q))).toEqual([]);
    const active = (await (await fetch(`${served.url}/v2/crawl/active`, { headers: { authorization: `Bearer ${fake.apiKey}` } })).json()) as { crawls: unknown[] };
    expect(active.crawls).toEqual([]);
    expect(fake.team.creditsUsed).toBe(0);
    // The one crawl start it sends carries a fresh idempotency key and an invalid URL.
    const starts = fake.requests.filter((q) => q.method === "POST" && q.pathname === "/v2/crawl");
    expect(starts).toHaveLength(1);
    expect(starts[0]!.headers["x-idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(starts[0]!.body).toEqual({ url: "not a url" });
  });

  it("--json: the same findings as one JSON object", async () => {
    const r = await doctor(["--json"]);
    expect(r.code).toBe(0);
    const rep = reportOf(r);
    expect(rep).toMatchObject({ apiUrl: served.url, deep: false, usable: true, exitCode: 0 });
    expect(statusOf(rep)).toEqual({ reach: "ok", auth: "ok", version: "ok", credits: "ok", queue: "ok", concurrency: "ok", idempotency: "ok", websocket: "ok", sse: "info", ai: "skip", search: "skip" });
  });

  it("a refused key: exit 3, the rest skipped, the key never printed", async () => {
    const key = "fc-0123456789abcdef0123456789abcdef";
    const r = await doctor(["--json"], { WEBDATA_API_KEY: key });
    expect(r.code).toBe(EXIT.auth);
    const rep = reportOf(r);
    expect(rep.usable).toBe(false);
    expect(check(rep, "auth")).toMatchObject({ status: "fail", fix: expect.stringContaining("--api-key") });
    expect(statusOf(rep).credits).toBe("skip");
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it("no key, and the server wants one: exit 3 and how to pass one", async () => {
    const r = await doctor(["--json"], { WEBDATA_API_KEY: "" });
    expect(r.code).toBe(EXIT.auth);
    expect(check(reportOf(r), "auth")).toMatchObject({ status: "fail", detail: "none given, and the server wants one", fix: expect.stringContaining("WEBDATA_API_KEY") });
  });

  it("no credits left: exit 4", async () => {
    await served.close();
    await start({ planCredits: 0 });
    const r = await doctor(["--json"]);
    expect(r.code).toBe(EXIT.credits);
    expect(check(reportOf(r), "credits")).toMatchObject({ status: "fail", detail: expect.stringMatching(/^0 of 0 remaining/) });
  });

  it("a crawl start with x-idempotency-key answered 500 (as a self-hosted server without its database): a warning, still usable", async () => {
    const body = JSON.parse(await readFile(fileURLToPath(new URL("./fixtures/recorded/crawl-v2-500-idempotency-key-self-hosted.json", import.meta.url)), "utf8")) as { response: { body: unknown } };
    fake.failNext(500, { match: /^POST \/v2\/crawl$/, body: body.response.body });
    const r = await doctor();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/! Idempotent crawl starts +a crawl start carrying x-idempotency-key fails with HTTP 500 here\n +-> .*keep the client's idempotencyKeys option off/);
    expect(r.stdout).toMatch(/Usable, with 1 warning\.\n$/);
  });

  it("an HTML page where the API should be (a proxy, a captive portal): exit 1 and what to check", async () => {
    fake.corruptBody({ match: "/v2/team/credit-usage", body: "<html><body>Please log in to the Wi-Fi</body></html>" });
    const r = await doctor(["--json"]);
    expect(r.code).toBe(EXIT.failure);
    expect(check(reportOf(r), "reach")).toMatchObject({ status: "fail", detail: expect.stringContaining("text/html"), fix: expect.stringContaining("--api-url") });
  });

  it("a server that does not answer in time: exit 8", async () => {
    fake.delay(5_000, { match: "/v2/team/credit-usage" });
    const r = await doctor(["--json", "--timeout-ms", "100"]);
    expect(r.code).toBe(EXIT.connection);
    expect(check(reportOf(r), "reach")).toMatchObject({ status: "fail", fix: expect.stringContaining("no answer in time") });
  });

  it("the account endpoints failing (500) is a warning per row, not a failure", async () => {
    fake.failNext(500, { match: "/v2/team/queue-status" });
    fake.failNext(503, { match: "/v2/concurrency-check" });
    const r = await doctor(["--json"]);
    expect(r.code).toBe(0);
    expect(statusOf(reportOf(r))).toMatchObject({ queue: "warn", concurrency: "warn", credits: "ok" });
  });

  it("server-sent events, asked about a running crawl, when the deployment has them", async () => {
    await served.close();
    await start({ sse: true });
    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    const res = await fetch(`${served.url}/v2/crawl`, { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test" }) });
    expect(res.status).toBe(200);
    const r = await doctor(["--json"]);
    expect(check(reportOf(r), "sse")).toMatchObject({ status: "ok", detail: "answers (text/event-stream)" });
  });

  it("with a proxy variable set, the WebSocket row says it was probed directly", async () => {
    const r = await doctor(["--json"], { HTTP_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1" });
    expect(r.code, r.stdout).toBe(0);
    expect(check(reportOf(r), "websocket").detail).toContain("probed directly, not through HTTP_PROXY");
  });

  it("--deep says first that it spends credits, then runs a crawl, a JSON-format scrape, a search, an extract and an agent run", async () => {
    const r = await doctor(["--deep", "--url", "https://acme.test", "--json"]);
    expect(r.stderr).toMatch(/^--deep starts jobs and spends credits/);
    const rep = reportOf(r);
    expect(rep.deep).toBe(true);
    expect(statusOf(rep)).toMatchObject({ crawl: "ok", scrape: "ok", "ai-json": "ok", "ai-extract": "ok", "ai-agent": "ok" });
    expect(fake.team.creditsUsed).toBeGreaterThan(0);
    const paths = fake.requests.map((q) => `${q.method} ${q.pathname}`);
    expect(paths.some((p) => /^DELETE \/v2\/crawl\/[0-9a-f-]{36}$/.test(p))).toBe(true); // the crawl is cancelled
    expect(paths.some((p) => /^DELETE \/v2\/agent\/[0-9a-f-]{36}$/.test(p))).toBe(true); // so is the agent run
  });

  it("--deep: a json format scrape answered 200 without a json field (no AI key on the server) is reported", async () => {
    const rec = JSON.parse(await readFile(fileURLToPath(new URL("./fixtures/recorded/scrape-v2-json-format-no-ai-key.json", import.meta.url)), "utf8")) as { response: { body: unknown } };
    fake.inject({ match: "/v2/scrape", status: 200, body: rec.response.body });
    const r = await doctor(["--deep", "--url", "https://acme.test"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/! JSON format \(AI\) +a json format scrape was answered 200 without a json field\n +-> the server has no AI provider configured/);
  });
});

describe("webdata doctor: servers without the v2 API", () => {
  beforeEach(() => start());

  it("a server that speaks v1 only: exit 1, and what to do", async () => {
    const v1 = await serve((req, res) => {
      if (req.url === "/v1/team/credit-usage") return json(res, 200, { success: true, data: { remaining_credits: 5, plan_credits: 5 } });
      res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end(`<pre>Cannot GET ${req.url}</pre>`);
    });
    try {
      const r = await doctor(["--json"], { WEBDATA_API_URL: v1.url });
      expect(r.code).toBe(EXIT.failure);
      expect(check(reportOf(r), "version")).toMatchObject({ status: "fail", detail: "v1 only: /v2 routes answer 404", fix: expect.stringContaining("upgrade the server") });
      const wrong = await doctor(["--json"], { WEBDATA_API_URL: `${v1.url}/api` }); // nothing at all under this path
      expect(check(reportOf(wrong), "version")).toMatchObject({ status: "fail", fix: expect.stringContaining("without /v2") });
    } finally {
      await v1.close();
    }
  });
});

describe("webdata doctor: unreachable servers", () => {
  beforeEach(() => start());

  it("nothing listening: exit 8, ECONNREFUSED and what to check", async () => {
    const r = await doctor(["--json"], { WEBDATA_API_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(EXIT.connection);
    const rep = reportOf(r);
    expect(check(rep, "reach")).toMatchObject({ status: "fail", detail: expect.stringContaining("ECONNREFUSED"), fix: expect.stringContaining("nothing listens at 127.0.0.1:9") });
    expect(rep.checks.filter((c) => c.id !== "reach").every((c) => c.status === "skip")).toBe(true);
  });

  it("a TLS certificate the client does not trust: exit 8, the TLS error and NODE_EXTRA_CA_CERTS", async () => {
    let openssl = true;
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
    } catch {
      openssl = false;
    }
    if (!openssl) return; // the machine cannot make a certificate; the other rows still run
    const dir = await mkdtemp(join(tmpdir(), "webdata-doctor-tls-"));
    let server: Server | undefined;
    try {
      execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "ignore" });
      const tls = createServer({ key: await readFile(join(dir, "key.pem")), cert: await readFile(join(dir, "cert.pem")) }, (_req, res) => res.end("{}"));
      server = tls;
      await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
      const r = await doctor(["--json"], { WEBDATA_API_URL: `https://127.0.0.1:${(tls.address() as AddressInfo).port}` });
      expect(r.code).toBe(EXIT.connection);
      expect(check(reportOf(r), "reach")).toMatchObject({ name: "Reachable (TLS)", status: "fail", detail: expect.stringMatching(/^TLS failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/), fix: expect.stringContaining("NODE_EXTRA_CA_CERTS") });
    } finally {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("webdata doctor against a recorded self-hosted server (authentication off, no database, no AI key)", () => {
  it("usable: no key needed, credits not metered, the 401 concurrency check and the 500 idempotent crawl start as warnings", async () => {
    const self = await serveSelfHosted();
    try {
      const r = await runBin(["doctor"], { env: { WEBDATA_API_URL: self.url } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/✓ API key +not needed: the server does not check keys \(self-hosted, authentication off\)/);
      expect(r.stdout).toMatch(/✓ Credits +not metered \(self-hosted\)/);
      expect(r.stdout).toMatch(/✓ Queue +0 jobs in the queue \(0 active, 0 waiting\), no limit/);
      expect(r.stdout).toMatch(/! Concurrency +GET \/v2\/concurrency-check answers 401 although the server checks no keys/);
      expect(r.stdout).toMatch(/! Idempotent crawl starts +a crawl start carrying x-idempotency-key fails with HTTP 500 here/);
      expect(r.stdout).toMatch(/✓ Crawl WebSocket +answers \(an unknown job was closed with 1008 "Job not found"\)/);
      expect(r.stdout).toMatch(/i Crawl SSE +not known: no crawl is running, and an unknown job's status answers application\/json \(HTTP 404\)/);
      expect(r.stdout).toMatch(/Usable, with 2 warnings\.\n$/);
      expect(self.requests.filter((q) => PAID.test(`${q.method} ${q.url.split("?")[0]}`))).toEqual([]);
    } finally {
      await self.close();
    }
  });

  it("the README's doctor transcript is the real output against this server (its URL and the milliseconds aside)", async () => {
    const readme = await readFile(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const from = readme.indexOf("```text\nwebdata doctor: ");
    expect(from).toBeGreaterThan(0);
    const shown = readme.slice(from + "```text\n".length, readme.indexOf("```", from + 3));
    const self = await serveSelfHosted();
    try {
      const r = await runBin(["doctor"], { env: { WEBDATA_API_URL: self.url } });
      const norm = (t: string) => t.replace(/answered in \d+ ms/, "answered in N ms");
      expect(norm(shown)).toBe(norm(r.stdout.replaceAll(self.url, "http://localhost:3002")));
    } finally {
      await self.close();
    }
  });

  it("--deep: the JSON format without json, no search provider, extract failing for the OpenAI key, the agent not enabled, no SSE on a real crawl", async () => {
    const self = await serveSelfHosted();
    try {
      const r = await runBin(["doctor", "--deep", "--json", "--url", "http://127.0.0.1:8080/"], { env: { WEBDATA_API_URL: self.url } });
      expect(r.code, r.stderr).toBe(0);
      const rep = reportOf(r);
      expect(statusOf(rep)).toMatchObject({ crawl: "ok", scrape: "ok", "ai-json": "warn", search: "warn", "ai-extract": "warn", "ai-agent": "warn", sse: "info" });
      expect(check(rep, "sse").detail).toMatch(/^none: a crawl's status asked for text\/event-stream answers application\/json/);
      expect(check(rep, "ai-extract").detail).toContain("OpenAI API key is missing");
      // A self-hosted server gets no idempotency key on the real crawl start (the client's default there).
      const starts = self.requests.filter((q) => q.method === "POST" && q.url === "/v2/crawl");
      expect(starts.map((q) => q.headers["x-idempotency-key"] !== undefined)).toEqual([true, false]);
    } finally {
      await self.close();
    }
  });

  it("no WebSocket (a proxy that drops upgrades): a warning that progress falls back to polling", async () => {
    const self = await serveSelfHosted({ webSocket: false });
    try {
      const r = await runBin(["doctor", "--json"], { env: { WEBDATA_API_URL: self.url } });
      expect(r.code).toBe(0);
      expect(check(reportOf(r), "websocket")).toMatchObject({ status: "warn", detail: "no WebSocket at /v2/crawl/<id> (HTTP 404)", fix: expect.stringContaining("polling") });
    } finally {
      await self.close();
    }
  });
});
