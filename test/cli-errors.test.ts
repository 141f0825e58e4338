/**
 * The `webdata` bin's errors, run as a separate process against the fake
 * service with faults: every documented exit code holds; text mode shows the
 * server's `code` and `details` and a failed crawl's reason; `--json` reports
 * errors and the interrupt as one JSON object a line on stdout (the message on
 * stderr too, as `gh api` does).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../src/cli/exit.js";
import { WebData } from "../src/node.js";
import { createFakeService, fakeJobs, fakeTasks, serveFake, type FakeService, type ServedFake } from "../src/testing/node.js";
import { runBin, type BinRun } from "./support/cli-run.js";

let fake: FakeService;
let served: ServedFake;

beforeEach(async () => {
  fake = createFakeService();
  served = await serveFake(fake);
});
afterEach(async () => {
  await served.close();
});

const run = (args: string[], env: Record<string, string> = {}, onStderr?: (text: string, kill: (sig: NodeJS.Signals) => void) => void): Promise<BinRun> =>
  runBin(args, { env: { WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url, ...env }, ...(onStderr ? { onStderr } : {}) });

async function recordedBody(name: string): Promise<unknown> {
  const text = await readFile(fileURLToPath(new URL(`./fixtures/recorded/${name}.json`, import.meta.url)), "utf8");
  return (JSON.parse(text) as { response: { body: unknown } }).response.body;
}

/** The lines of stdout as JSON records. */
const records = (stdout: string) => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown> & { error?: Record<string, unknown> });

describe("webdata errors in text mode", () => {
  it("a 400 shows the server's details field by field and its code (recorded: scrape with an invalid URL)", async () => {
    fake.failNext(400, { match: "/v2/scrape", body: await recordedBody("scrape-v2-400-invalid-url") });
    const r = await run(["scrape", "https://acme.test"]);
    expect(r.code).toBe(EXIT.usage); // the server's 400 on the CLI's own arguments is a usage error, not EXIT.server
    expect(r.stdout).toBe("");
    // The message carries the server's reason: the fields and what is wrong, each once.
    expect(r.stderr).toContain("webdata scrape: BadRequestError: Bad Request: url: Invalid URL; url: URL must have a valid top-level domain or be a valid path (HTTP 400, POST /v2/scrape)\n");
    expect(r.stderr).toContain("\n  code: BAD_REQUEST\n");
    // Each reason is said once (the recording repeats "Invalid URL"): the message holds both, so no detail line repeats them.
    expect(r.stderr.match(/url: Invalid URL/g)).toHaveLength(1);
    expect(r.stderr.match(/url: URL must have a valid top-level domain or be a valid path/g)).toHaveLength(1);
  });

  it("a 500 shows the server's code (recorded: SCRAPE_ALL_ENGINES_FAILED)", async () => {
    fake.failNext(500, { match: "/v2/scrape", body: await recordedBody("scrape-v2-connection-refused") });
    const r = await run(["scrape", "https://acme.test", "--max-retries", "0"]);
    expect(r.code).toBe(EXIT.server);
    expect(r.stderr).toMatch(/InternalServerError: All scraping engines failed/);
    expect(r.stderr).toContain("\n  code: SCRAPE_ALL_ENGINES_FAILED\n");
  });

  it("a failed crawl prints its reason in text mode and exits 9", async () => {
    fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed: the start URL could not be scraped (DNS)." });
    const r = await run(["crawl", "https://acme.test", "--poll-interval-ms", "60"]);
    expect(r.code).toBe(EXIT.jobFailed);
    expect(r.stderr).toMatch(/crawl [0-9a-f-]{36} failed: Crawl failed: the start URL could not be scraped \(DNS\)\. \(0 pages received\)/);
  });

  it("a crawl the server reports completed without a page (its start page failed) prints why, from its errors, and exits 9", async () => {
    const r = await run(["crawl", "https://nowhere.test", "--poll-interval-ms", "60"]);
    expect(r.code).toBe(EXIT.jobFailed);
    expect(r.stderr).toMatch(/crawl [0-9a-f-]{36} completed without a page: https:\/\/nowhere\.test\/: All scraping engines failed!.* \[SCRAPE_ALL_ENGINES_FAILED\]/);
    const j = await run(["crawl", "https://nowhere.test", "--poll-interval-ms", "60", "--json"]);
    expect(j.code).toBe(EXIT.jobFailed);
    expect(records(j.stdout).at(-1)).toMatchObject({ type: "done", status: "completed", completed: 0, error: expect.stringContaining("SCRAPE_ALL_ENGINES_FAILED") });
  });

  it("a refused key names the flag and variable to check; the key never shows", async () => {
    const key = "fc-0123456789abcdef0123456789abcdef";
    const r = await run(["usage"], { WEBDATA_API_KEY: key });
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(/AuthenticationError/);
    expect(r.stderr).toContain("hint: check the key: --api-key <key> or WEBDATA_API_KEY");
    expect(r.stderr + r.stdout).not.toContain(key);
  });
});

describe("webdata exit codes, as --help and the README list them", () => {
  it("--help and the README's CLI section list every exit code", async () => {
    const help = (await run(["--help"])).stdout;
    const readme = await readFile(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const section = readme.slice(readme.indexOf("### The `webdata` command"), readme.indexOf("### Tools for LLM agents"));
    for (const code of Object.values(EXIT)) {
      expect(help, `--help lists ${code}`).toMatch(new RegExp(`(^|\\s)${code} [a-z(]`, "m"));
      expect(section, `README's table lists ${code}`).toMatch(new RegExp(`\\n\\| ${code} \\| \\S`));
    }
  });

  it("--help states the client's own defaults of --timeout-ms and --max-retries", async () => {
    const help = (await run(["--help"])).stdout;
    const config = new WebData({ apiKey: fake.apiKey, apiUrl: served.url }).http.config;
    expect(help).toMatch(new RegExp(`--timeout-ms <ms> +limit of one HTTP attempt \\(default ${config.timeoutMs}\\)`));
    expect(help).toMatch(new RegExp(`--max-retries <n> +retries of a failed request \\(default ${config.maxRetries}\\)`));
  });

  const cases: [string, number, () => void, string[]][] = [
    ["an answer that is not JSON (InvalidResponseError)", EXIT.failure, () => fake.corruptBody({ match: "/v2/scrape", body: "<html>proxy error</html>" }), []],
    ["403", EXIT.auth, () => fake.failNext(403, { match: "/v2/scrape" }), []],
    ["402", EXIT.credits, () => fake.failNext(402, { match: "/v2/scrape" }), []],
    ["429, retries spent", EXIT.rateLimited, () => fake.rateLimit({ match: "/v2/scrape", times: 5 }), ["--max-retries", "0"]],
    ["404", EXIT.notFound, () => fake.failNext(404, { match: "/v2/scrape" }), []],
    ["a request past --timeout-ms", EXIT.timeout, () => fake.delay(5_000, { match: "/v2/scrape" }), ["--timeout-ms", "100", "--max-retries", "0"]],
    ["a dropped connection", EXIT.connection, () => fake.dropConnection({ match: "/v2/scrape", times: 5 }), ["--max-retries", "0"]],
    ["501", EXIT.server, () => fake.failNext(501, { match: "/v2/scrape" }), []],
  ];
  for (const [what, code, inject, flags] of cases) {
    it(`${what}: exit ${code}, and with --json one error line on stdout with that exit code`, async () => {
      inject();
      const text = await run(["scrape", "https://acme.test", ...flags]);
      expect(text.code, text.stderr).toBe(code);
      expect(text.stdout).toBe("");
      inject();
      const json = await run(["scrape", "https://acme.test", "--json", ...flags]);
      expect(json.code, json.stderr).toBe(code);
      const [rec, ...more] = records(json.stdout);
      expect(more).toEqual([]);
      expect(rec).toMatchObject({ type: "error", exitCode: code, error: { name: expect.any(String), message: expect.any(String) } });
      expect(json.stderr).toContain(String(rec!.error!.name)); // the message on stderr too
    });
  }

  it("--json: a server error carries status, code and details; usage errors and a missing key are JSON lines too", async () => {
    fake.failNext(400, { match: "/v2/scrape", body: await recordedBody("scrape-v2-400-invalid-url") });
    const bad = await run(["scrape", "https://acme.test", "--json"]);
    expect(records(bad.stdout)).toEqual([
      {
        type: "error",
        exitCode: EXIT.usage,
        error: expect.objectContaining({ name: "BadRequestError", status: 400, code: "BAD_REQUEST", endpoint: "POST /v2/scrape", details: expect.arrayContaining([expect.objectContaining({ message: "Invalid URL", path: ["url"] })]) }),
      },
    ]);

    const flag = await run(["scrape", "https://acme.test", "--json", "--nope"]);
    expect(flag.code).toBe(EXIT.usage);
    expect(records(flag.stdout)).toEqual([{ type: "error", exitCode: 2, error: expect.objectContaining({ name: "UsageError", code: "BAD_ARGUMENTS", message: expect.stringContaining("--nope") }) }]);

    const arg = await run(["map", "https://acme.test", "--limit", "0", "--json"]);
    expect(arg.code).toBe(EXIT.usage);
    expect(records(arg.stdout)).toEqual([{ type: "error", exitCode: 2, error: expect.objectContaining({ name: "ValidationError", message: expect.stringContaining("--limit must be a whole number >= 1") }) }]);

    const nokey = await run(["usage", "--json"], { WEBDATA_API_KEY: "", WEBDATA_API_URL: "" });
    expect(nokey.code).toBe(EXIT.auth);
    expect(records(nokey.stdout)).toEqual([{ type: "error", exitCode: 3, error: expect.objectContaining({ code: "NO_API_KEY", message: expect.stringContaining("--api-key") }) }]);
    expect(fake.requests.filter((q) => q.pathname !== "/v2/scrape")).toHaveLength(0);
  });

  it("--json: a failed crawl ends with a done line carrying the reason", async () => {
    fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed: boom" });
    const r = await run(["crawl", "https://acme.test", "--json", "--poll-interval-ms", "60"]);
    expect(r.code).toBe(EXIT.jobFailed);
    expect(records(r.stdout).at(-1)).toMatchObject({ type: "done", status: "failed", error: "Crawl failed: boom" });
  });

  it("--json: Ctrl-C cancels the crawl on the server and prints a last JSON line before exiting 130", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 0 }); // never progresses by itself
    let sent = false;
    const r = await run(["crawl", "https://acme.test", "--json", "--poll-interval-ms", "60"], {}, (text, kill) => {
      if (!sent && /Started crawl/.test(text)) {
        sent = true;
        setTimeout(() => kill("SIGINT"), 100);
      }
    });
    expect(r.code).toBe(EXIT.interrupted);
    const id = /Started crawl ([0-9a-f-]{36})/.exec(r.stderr)![1];
    expect(records(r.stdout).at(-1)).toEqual({ type: "interrupted", exitCode: 130, kind: "crawl", id, cancelled: true, pages: 0 });
    expect(fake.requests.some((q) => q.method === "DELETE" && q.pathname === `/v2/crawl/${id}`)).toBe(true);
  });

  it("--json: Ctrl-C while the agent waiter waits cancels the run on the server (DELETE /v2/agent/<id>), exit 130", async () => {
    fakeTasks(fake).configure({ pollsToFinish: 1_000 }); // runs until cancelled
    let sent = false;
    const r = await run(["agent", "find it", "--json", "--poll-interval-ms", "60"], {}, (text, kill) => {
      if (!sent && /Started agent/.test(text)) {
        sent = true;
        setTimeout(() => kill("SIGINT"), 100);
      }
    });
    expect(r.code).toBe(EXIT.interrupted);
    const id = /Started agent ([0-9a-f-]{36})/.exec(r.stderr)![1];
    expect(records(r.stdout).at(-1)).toEqual({ type: "interrupted", exitCode: 130, kind: "agent", id, cancelled: true });
    expect(fake.requests.some((q) => q.method === "DELETE" && q.pathname === `/v2/agent/${id}`)).toBe(true);
    expect(fake.requests.filter((q) => q.method === "GET" && q.pathname === `/v2/agent/${id}`).length).toBeGreaterThan(0);
  });

  it("--json: Ctrl-C during a single call prints the interrupted line too", async () => {
    fake.delay(5_000, { match: "/v2/scrape" });
    const r = await runBin(["scrape", "https://acme.test", "--json"], {
      env: { WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url },
      onStart: (kill) => {
        // Once the request has reached the fake (it is held there), interrupt.
        const timer = setInterval(() => {
          if (fake.requests.length === 0) return;
          clearInterval(timer);
          kill("SIGINT");
        }, 10);
      },
    });
    expect(r.code).toBe(EXIT.interrupted);
    expect(records(r.stdout)).toEqual([{ type: "interrupted", exitCode: 130 }]);
  });
});
