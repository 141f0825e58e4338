/**
 * The `webdata` bin prints what was asked, run as a separate process
 * against the fake service on loopback:
 * every format asked for, `--json` one object a line for every command, the
 * server's 400 on the CLI's own arguments exiting 2, `--verbose` lines with
 * durations, `--wait-for` / `--schema` / `--prompt`, the `extract`, `agent`,
 * `status`, `cancel` and `fake` commands. Needs `npm run build` first.
 */
import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Document } from "../src/api/document.js";
import { EXIT } from "../src/cli/exit.js";
import { documentBody, missingFormats } from "../src/cli/formats.js";
import { Progress } from "../src/cli/progress.js";
import { Screen } from "../src/cli/terminal.js";
import { createFakeService, fakeJobs, fakeTasks, serveFake, type FakeService, type ServedFake } from "../src/testing/node.js";
import { BIN, type BinRun, hasScript, runBin, runPty, servedFakeEach } from "./support/cli-run.js";
import { json, serve } from "./support/loopback.js";

let fake: FakeService;
let served: ServedFake;
let dir: string;

servedFakeEach("webdata-cli-cmd-", (c) => ({ fake, served, dir } = c));

const run = (args: string[], env: Record<string, string> = {}): Promise<BinRun> => runBin(args, { env: { WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url, ...env } });

/** stdout as JSON records, one a line (a line that is not a whole JSON object fails). */
const records = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

/** A JSON Schema file for `--schema`. */
async function schemaFile(): Promise<string> {
  const file = join(dir, "schema.json");
  await writeFile(file, JSON.stringify({ type: "object", properties: { title: { type: "string" } }, required: ["title"] }));
  return file;
}

describe("webdata scrape prints every format asked for", () => {
  it("--format links,summary prints both, each under its heading, in the order asked (it printed only the summary)", async () => {
    const r = await run(["scrape", "https://acme.test/about", "--format", "links,summary"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("==> links <==\nhttps://acme.test/\nhttps://acme.test/contact\nhttps://acme.test/private/internal\n\n==> summary <==\nAbout Acme: About the Acme company.\n");
    expect(r.stderr).toBe("");
  });

  it("--format markdown,links,summary prints the three (it printed only the markdown); one format prints as it is, without a heading", async () => {
    const r = await run(["scrape", "https://acme.test/about", "-f", "markdown,links", "-f", "summary"]);
    expect(r.code, r.stderr).toBe(0);
    const headings = [...r.stdout.matchAll(/^==> (\w+) <==$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["markdown", "links", "summary"]);
    expect(r.stdout).toContain("# About Acme");
    expect(r.stdout).toContain("https://acme.test/contact");
    expect(r.stdout).toContain("About Acme: About the Acme company.");

    const one = await run(["scrape", "https://acme.test/about", "-f", "links"]);
    expect(one.stdout).toBe("https://acme.test/\nhttps://acme.test/contact\nhttps://acme.test/private/internal\n");
  });

  it("a crawl prints every format of each page too; --out with more than markdown writes .json files holding every format", async () => {
    const r = await run(["crawl", "https://acme.test", "--limit", "2", "-f", "markdown,links", "--poll-interval-ms", "60"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/^==> markdown <==$/gm)).toHaveLength(2);
    expect(r.stdout.match(/^==> links <==$/gm)).toHaveLength(2);

    const o = await run(["scrape", "https://acme.test/about", "-f", "markdown,links", "--out", dir]);
    expect(o.code, o.stderr).toBe(0);
    expect(await readdir(dir)).toEqual(["acme.test_about.json"]);
    const doc = JSON.parse(await readFile(join(dir, "acme.test_about.json"), "utf8")) as Document;
    expect(doc.markdown).toContain("# About Acme");
    expect(doc.links).toContain("https://acme.test/contact");
  });

  it("a format the server did not return is named (the text helpers)", () => {
    const screen = new Screen({ out: () => undefined, err: () => undefined, outIsTTY: false, errIsTTY: false, sameTerminal: false, env: {} });
    const doc = { markdown: "# Hi\n", json: { a: 1 }, metadata: { statusCode: 200 } } as Document;
    expect(missingFormats(doc, ["markdown", "screenshot", "json"])).toEqual(["screenshot"]);
    expect(documentBody(doc, ["markdown", "screenshot", "json"], screen)).toBe('==> markdown <==\n# Hi\n\n==> json <==\n{\n  "a": 1\n}\n');
    expect(documentBody(doc, ["screenshot"], screen)).toBe("");
  });

  it("--wait-for, --prompt and --schema are sent; --schema alone prints the extracted JSON", async () => {
    const file = await schemaFile();
    const r = await run(["scrape", "https://acme.test/about", "--schema", file, "--wait-for", "500"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ title: "About Acme" });
    expect(fake.requests[0]!.body).toMatchObject({ url: "https://acme.test/about", waitFor: 500, formats: [{ type: "json", schema: { type: "object", properties: { title: { type: "string" } } } }] });

    const p = await run(["scrape", "https://acme.test/about", "-f", "markdown,json", "--prompt", "the page's title"]);
    expect(p.code, p.stderr).toBe(0);
    expect(fake.requests[1]!.body).toMatchObject({ formats: ["markdown", { type: "json", prompt: "the page's title" }] });
    expect([...p.stdout.matchAll(/^==> (\w+) <==$/gm)].map((m) => m[1])).toEqual(["markdown", "json"]);
  });

  it("a bad --schema file, --wait-for or a format named twice is refused before anything is sent (exit 2)", async () => {
    const notJson = join(dir, "bad.json");
    await writeFile(notJson, "{ nope");
    for (const args of [["--schema", notJson], ["--schema", join(dir, "missing.json")], ["--wait-for", "-5"], ["-f", "markdown,markdown"]]) {
      const r = await run(["scrape", "https://acme.test/about", ...args]);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(EXIT.usage);
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe("webdata --json: one JSON object a line, for every command", () => {
  it("scrape, map, search, usage and doctor print one line each, with its type (they printed indented JSON over many lines)", async () => {
    const expected: [string[], string][] = [
      [["scrape", "https://acme.test/about", "-f", "markdown,links"], "document"],
      [["map", "https://acme.test", "--limit", "3"], "map"],
      [["search", "widgets", "--limit", "2"], "search"],
      [["usage"], "usage"],
      [["doctor"], "doctor"],
    ];
    for (const [args, type] of expected) {
      const r = await run([...args, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.endsWith("\n")).toBe(true);
      expect(r.stdout.trim().split("\n"), args[0]).toHaveLength(1);
      expect(records(r.stdout)[0]!.type).toBe(type);
    }
  });

  it("--help says so", async () => {
    const help = (await run(["--help"])).stdout;
    expect(help).toMatch(/--json +machine output on stdout, the same for every command: one JSON object a line/);
  });
});

describe("webdata exit 2 for arguments the server refuses (it exited 10)", () => {
  it("scrape not-a-url and --format bogus: the server's 400 exits 2, with its reason and the formats known; --json says exitCode 2", async () => {
    const url = await run(["scrape", "not-a-url"]);
    expect(url.code, url.stderr).toBe(EXIT.usage);
    expect(url.stderr).toContain("url: URL must have a valid top-level domain or be a valid path");
    const format = await run(["scrape", "https://acme.test/about", "--format", "bogus"]);
    expect(format.code, format.stderr).toBe(EXIT.usage);
    expect(format.stderr).toContain("BadRequestError");
    expect(format.stderr).toMatch(/the formats this SDK knows: markdown, html/);
    const json = await run(["scrape", "https://acme.test/about", "--format", "bogus", "--json"]);
    expect(records(json.stdout)).toEqual([{ type: "error", exitCode: EXIT.usage, error: expect.objectContaining({ name: "BadRequestError", status: 400 }) }]);
  });

  it("--format markdwn (a misspelling) is refused before anything is sent, with a did-you-mean and the valid names (exit 2), for scrape, crawl and batch", async () => {
    for (const args of [["scrape", "https://acme.test/about"], ["crawl", "https://acme.test/"], ["batch", "https://acme.test/about"]]) {
      const r = await run([...args, "--format", "markdown,markdwn"]);
      expect(r.code, r.stderr).toBe(EXIT.usage);
      expect(r.stderr).toContain('unknown format "markdwn": did you mean "markdown"?');
      expect(r.stderr).toMatch(/The formats: markdown, html, rawHtml, links/);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("a real server error keeps 10", async () => {
    fake.failNext(500, { match: "/v2/scrape", times: 3 });
    const r = await run(["scrape", "https://acme.test/about", "--max-retries", "0"]);
    expect(r.code).toBe(EXIT.server);
  });
});

describe("webdata --verbose", () => {
  it("each request and its answer on stderr, the answer with its duration; no line ends in a space", async () => {
    const r = await run(["scrape", "https://acme.test/about", "--verbose"]);
    expect(r.code, r.stderr).toBe(0);
    const id = fake.requests[0]!.headers["x-request-id"]!;
    expect(r.stderr).toContain(`webdata debug: -> POST /v2/scrape (request id ${id})\n`); // the id to quote to support
    expect(r.stderr).toMatch(new RegExp(`^webdata debug: <- POST /v2/scrape 200 in \\d+ ms \\(request id ${id}\\)$`, "m"));
    for (const l of r.stderr.split("\n")) expect(l, JSON.stringify(l)).not.toMatch(/\s$/);
    expect(r.stdout).toContain("# About Acme"); // stdout keeps only the result
    expect(r.stderr).not.toContain(fake.apiKey);
  });

  it("a retried request says how long the failed attempt ran", async () => {
    fake.failNext(503, { match: "/v2/scrape" });
    const r = await run(["scrape", "https://acme.test/about", "--verbose"], { WEBDATA_LOG: "" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^webdata info: Retrying POST \/v2\/scrape .*\(the failed attempt ran in \d+ ms, request id [0-9a-f-]{36}\) \{"attempt":1\}$/m);
    expect(r.stderr).toMatch(/^webdata debug: -> POST \/v2\/scrape \(attempt 2\) \(request id [0-9a-f-]{36}\)$/m);
  });
});

describe("webdata progress", () => {
  it("never counts past its total: pages received beyond the server's total raise it (it showed 30/29 pages (100%))", () => {
    const log: string[] = [];
    const screen = new Screen({ out: () => undefined, err: (s) => log.push(s), outIsTTY: false, errIsTTY: false, sameTerminal: false, env: {} });
    const p = new Progress(screen, "crawl x", () => 0);
    p.update(30, 29);
    expect(log).toEqual(["crawl x: 30/30 pages (99%), 0s\n"]); // running: its total may still grow
    const tty: string[] = [];
    const live = new Progress(new Screen({ out: () => undefined, err: (s) => tty.push(s), outIsTTY: true, errIsTTY: true, sameTerminal: true, columns: 100, env: {} }), "crawl y", () => 0);
    live.update(7, 5, true); // ended: 100%, the bar full
    expect(tty.at(-1)).toBe("\r\x1b[2Kcrawl y [████████████████████] 7/7 pages (100%), 0s");
  });
});

describe("webdata extract and agent", () => {
  it("extract waits for the job and prints the data; --json one extract line; the request carries the URLs, prompt and schema", async () => {
    const file = await schemaFile();
    const r = await run(["extract", "https://acme.test/about", "--schema", file, "--prompt", "the title", "--poll-interval-ms", "60"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ title: "About Acme" });
    expect(r.stderr).toMatch(/^Started extract [0-9a-f-]{36}\n/);
    expect(r.stderr).toMatch(/extract [0-9a-f-]{36} completed, 20 credits used/);
    expect(fake.requests[0]).toMatchObject({ method: "POST", pathname: "/v2/extract", body: { urls: ["https://acme.test/about"], prompt: "the title", schema: { type: "object" } } });

    const j = await run(["extract", "https://acme.test/about", "--prompt", "the title", "--json", "--poll-interval-ms", "60"]);
    expect(j.code, j.stderr).toBe(0);
    expect(records(j.stdout)).toEqual([expect.objectContaining({ type: "extract", status: "completed", id: expect.any(String), data: expect.anything() })]);
  });

  it("extract without --prompt or --schema is refused before anything is sent", async () => {
    const r = await run(["extract", "https://acme.test/about"]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/extract needs --prompt <text> or --schema <file>/);
    expect(fake.requests).toHaveLength(0);
  });

  it("agent runs the prompt and prints its result; a failed run exits 9 with its reason", async () => {
    const r = await run(["agent", "find", "the", "widget", "price", "--url", "https://acme.test/products", "--max-credits", "50", "--poll-interval-ms", "60"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expect.anything());
    expect(fake.requests[0]).toMatchObject({ method: "POST", pathname: "/v2/agent", body: { prompt: "find the widget price", urls: ["https://acme.test/products"], maxCredits: 50 } });

    fakeTasks(fake).configure({ outcome: "failed", error: "Agent failed: no answer found" });
    const f = await run(["agent", "find it", "--poll-interval-ms", "60"]);
    expect(f.code).toBe(EXIT.jobFailed);
    expect(f.stderr).toMatch(/agent [0-9a-f-]{36} failed: Agent failed: no answer found/);
    expect(f.stdout).toBe("");
  });
});

describe("webdata status and cancel", () => {
  async function startCrawl(): Promise<string> {
    const res = await fetch(`${served.url}/v2/crawl`, { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test", limit: 3 }) });
    return ((await res.json()) as { id: string }).id;
  }

  it("status <id> reads a crawl by default; --json one status line without the documents", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const id = await startCrawl();
    const r = await run(["status", id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^crawl ${id}: scraping, 1/3 pages`));
    const j = await run(["status", id, "--json"]);
    const [rec, ...more] = records(j.stdout);
    expect(more).toEqual([]);
    expect(rec).toMatchObject({ type: "status", kind: "crawl", id, status: "scraping", total: 3 });
    expect(rec).not.toHaveProperty("data");
  });

  it("status --kind extract prints an extract's state and result; an unknown id exits 6 and names --kind", async () => {
    const started = await fetch(`${served.url}/v2/extract`, { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ urls: ["https://acme.test/about"], prompt: "title" }) });
    const { id } = (await started.json()) as { id: string };
    await fetch(`${served.url}/v2/extract/${id}`, { headers: { authorization: `Bearer ${fake.apiKey}` } }); // one read: done after it
    const r = await run(["status", id, "--kind", "extract"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^extract ${id}: completed`));
    expect(r.stdout).toContain('"answer"');

    const missing = await run(["status", "01a213b2-9562-7000-8000-000000000001"]);
    expect(missing.code).toBe(EXIT.notFound);
    expect(missing.stderr).toContain("hint: no crawl has this id; for another kind of job pass --kind batch, extract or agent");

    const badKind = await run(["status", id, "--kind", "search"]);
    expect(badKind.code).toBe(EXIT.usage);
    expect(badKind.stderr).toMatch(/--kind must be one of crawl, batch, extract, agent/);
  });

  it("cancel <id> cancels a crawl on the server; --kind extract is refused before sending", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    const id = await startCrawl();
    const r = await run(["cancel", id, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout)).toEqual([{ type: "cancelled", kind: "crawl", id }]);
    expect(fake.requests.some((q) => q.method === "DELETE" && q.pathname === `/v2/crawl/${id}`)).toBe(true);

    const before = fake.requests.length;
    const ex = await run(["cancel", id, "--kind", "extract"]);
    expect(ex.code).toBe(EXIT.usage);
    expect(ex.stderr).toMatch(/an extract job cannot be cancelled/);
    expect(fake.requests).toHaveLength(before);
  });
});

describe("webdata cancel of a job that already ended", () => {
  it("a finished crawl: says it had already finished, exits 0, no raw 409; --json says alreadyEnded", async () => {
    const res = await fetch(`${served.url}/v2/crawl`, { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test", limit: 1 }) });
    const { id } = (await res.json()) as { id: string };
    fakeJobs(fake).finish(id);
    const r = await run(["cancel", id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`crawl ${id} had already ended (the server: Crawl is already completed): nothing to cancel\n`);
    expect(r.stderr).not.toMatch(/409|ConflictError/);
    const json = await run(["cancel", id, "--json"]);
    expect(json.code).toBe(0);
    expect(records(json.stdout)).toEqual([{ type: "cancelled", kind: "crawl", id, alreadyEnded: true, serverMessage: "Crawl is already completed" }]);
  });
});

describe("webdata fake", () => {
  /** Starts `webdata fake` with no key and no URL in its environment; resolves with the first stdout line and a way to stop it. */
  function startFake(args: string[], nodeArgs: string[] = []): Promise<{ first: string; stop: (sig: NodeJS.Signals) => Promise<BinRun> }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...nodeArgs, BIN, "fake", ...args], { env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      const closed = new Promise<BinRun>((done) => child.on("close", (code) => done({ code, stdout, stderr })));
      child.on("error", reject);
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
        const nl = stdout.indexOf("\n");
        if (nl >= 0) resolve({ first: stdout.slice(0, nl), stop: (sig) => (child.kill(sig), closed) });
      });
      void closed.then((r) => reject(new Error(`webdata fake ended early (${r.code}): ${r.stderr}`)));
    });
  }

  it("serves the fake with no key, prints the URL and key to use; the CLI works against it; SIGTERM ends it with 0", async () => {
    const { first, stop } = await startFake([]);
    const m = /^export WEBDATA_API_URL=(http:\/\/127\.0\.0\.1:\d+) WEBDATA_API_KEY=(\S+)$/.exec(first);
    expect(m, first).not.toBeNull();
    const r = await runBin(["scrape", "https://acme.test/about", "-f", "summary"], { env: { WEBDATA_API_URL: m![1]!, WEBDATA_API_KEY: m![2]! } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("About Acme: About the Acme company.\n");
    const end = await stop("SIGTERM");
    expect(end.code).toBe(0);
    expect(end.stderr).toMatch(/webdata fake service stopped \(1 request served\)/);
  });

  it("without the optional ws package it says it serves no crawl WebSocket (and why, and the fix); with it, nothing of the kind", async () => {
    const noWs = fileURLToPath(new URL("./support/no-ws.mjs", import.meta.url));
    const { first, stop } = await startFake(["--json"], ["--import", noWs]);
    expect(JSON.parse(first)).toMatchObject({ type: "fake", webSocket: false });
    const end = await stop("SIGTERM");
    expect(end.stderr).toContain("No crawl WebSocket: the optional ws package is not installed");
    expect(end.stderr).toContain("npm install ws");
    const withWs = await startFake([]);
    const plain = await withWs.stop("SIGTERM");
    expect(plain.stderr).not.toContain("No crawl WebSocket");
  });

  it("--any-url answers any URL with a generated page: scrape and crawl of a site off the fixture web work", async () => {
    const { first, stop } = await startFake(["--any-url"]);
    const m = /^export WEBDATA_API_URL=(\S+) WEBDATA_API_KEY=(\S+)$/.exec(first)!;
    const env = { env: { WEBDATA_API_URL: m[1]!, WEBDATA_API_KEY: m[2]! } };
    const page = await runBin(["scrape", "https://firecrawl.dev"], env);
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/^# firecrawl\.dev\n/);
    const crawl = await runBin(["crawl", "https://firecrawl.dev", "--limit", "10", "--json", "--poll-interval-ms", "500"], env);
    expect(crawl.code, crawl.stderr).toBe(0);
    expect(crawl.stdout).toContain('"type":"done"');
    expect(crawl.stdout.split("\n").filter((l) => l.includes('"type":"document"'))).toHaveLength(4);
    const end = await stop("SIGTERM");
    expect(end.stderr).toContain("(any URL answers with a generated page: --any-url)");
  });

  it("--port and --json: one fake line with the URL on that port; SIGINT ends it with 0", async () => {
    const probe = await serveFake(createFakeService()); // a port that was free a moment ago
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const { first, stop } = await startFake(["--port", String(port), "--json"]);
    expect(JSON.parse(first)).toEqual({ type: "fake", url: `http://127.0.0.1:${port}`, apiKey: "fc-test-key", webSocket: true });
    const usage = await fetch(`http://127.0.0.1:${port}/v2/team/credit-usage`, { headers: { authorization: "Bearer fc-test-key" } });
    expect(usage.status).toBe(200);
    const end = await stop("SIGINT");
    expect(end.code).toBe(0);
  });
});

describe.skipIf(!hasScript())("webdata progress, run as a process on a terminal", () => {
  it("a server whose total lags behind the pages it sent (live: 30/29 pages) never shows more done than the total", async () => {
    const id = "01a213b2-9562-7000-8000-0000000000aa";
    const doc = (n: number) => ({ markdown: `# Page ${n}`, metadata: { sourceURL: `https://acme.test/${n}`, url: `https://acme.test/${n}`, statusCode: 200 } });
    const server = await serve((req, res) => {
      if (req.method === "POST") return json(res, 200, { success: true, id, url: `http://x/v2/crawl/${id}` });
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname.endsWith("/errors")) return json(res, 200, { errors: [], robotsBlocked: [] });
      const first = Number(url.searchParams.get("skip") ?? 0) === 0;
      json(res, 200, { success: true, status: "completed", completed: 3, total: 2, creditsUsed: 3, expiresAt: "2030-01-01T00:00:00.000Z", data: first ? [doc(1), doc(2), doc(3)] : [] });
    });
    try {
      // On a terminal every change is drawn (off one, at most a line a second).
      const r = await runPty(["crawl", "https://acme.test", "--poll-interval-ms", "60", "--out", dir], { env: { WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: server.url } });
      expect(r.code, r.output).toBe(0);
      const counts = [...r.output.matchAll(/(\d+)\/(\d+) pages? \((\d+)%\)/g)];
      expect(counts.length, r.output).toBeGreaterThan(0);
      for (const [text, done, total] of counts) expect(Number(done), text).toBeLessThanOrEqual(Number(total));
      expect(r.output).toMatch(/3\/3 pages \(100%\)/);
      expect(r.output).toMatch(/completed: 3 pages written to /);
    } finally {
      await server.close();
    }
  });
});
