/**
 * The `webdata` CLI, run as users run it: the built bin (`dist/node/cli.js`) in
 * a child process against the fake service served on loopback. Key and URL come
 * from the environment; exit codes follow the error class; Ctrl-C cancels the
 * job on the server.
 */
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Progress } from "../src/cli/progress.js";
import { plural, Screen } from "../src/cli/terminal.js";
import { detailLines } from "../src/cli/report.js";
import { servedFakeEach } from "./support/cli-run.js";
import { readCloseFrame } from "../src/cli/probe.js";
import { fileNameFor } from "../src/cli/output.js";
import { fakeJobs, type FakeService, type ServedFake } from "../src/testing/node.js";

const BIN = fileURLToPath(new URL("../dist/node/cli.js", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let fake: FakeService;
let served: ServedFake;
let dir: string;

servedFakeEach("webdata-cli-", (c) => ({ fake, served, dir } = c));

/** Runs the bin; `onStderr` may act on the child while it runs (e.g. send SIGINT). */
function run(args: string[], env: Record<string, string> = {}, onStderr?: (text: string, kill: (sig: NodeJS.Signals) => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      onStderr?.(stderr, (sig) => child.kill(sig));
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("webdata CLI", () => {
  it("--help lists every command and the exit codes; each command has --help", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["scrape", "map", "crawl", "search", "batch", "extract", "agent", "status", "cancel", "usage", "doctor", "mcp", "fake"]) expect(r.stdout).toContain(`  ${c}`);
    expect(r.stdout).toContain("Exit codes:");
    const s = await run(["crawl", "--help"]);
    expect(s.code).toBe(0);
    expect(s.stdout).toContain("Usage: webdata crawl <url>");
    expect(s.stdout).toContain("--out <dir>");
    expect(fake.requests).toHaveLength(0);
  });

  it("scrape prints the markdown; --json the document; --out writes a file", async () => {
    const r = await run(["scrape", "https://acme.test/about"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Acme/);
    expect(fake.requests[0]).toMatchObject({ method: "POST", pathname: "/v2/scrape" });
    expect(fake.keyOf(fake.requests[0]!)).toBe(fake.apiKey);

    const j = await run(["scrape", "https://acme.test/about", "--json", "-f", "markdown,links"]);
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout) as { markdown: string; links: string[]; metadata: { sourceURL: string } };
    expect(doc.metadata.sourceURL).toBe("https://acme.test/about");
    expect(Array.isArray(doc.links)).toBe(true);
    expect(fake.requests[1]!.body).toMatchObject({ formats: ["markdown", "links"] });

    const o = await run(["scrape", "https://acme.test/about", "--out", dir]);
    expect(o.code).toBe(0);
    expect(await readdir(dir)).toEqual(["acme.test_about.md"]);
    expect(await readFile(join(dir, "acme.test_about.md"), "utf8")).toMatch(/Acme/);
  });

  it("map prints one URL a line; search prints titles and URLs; usage prints credits and tokens", async () => {
    const m = await run(["map", "https://acme.test", "--limit", "3"]);
    expect(m.code).toBe(0);
    const lines = m.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(3);
    for (const l of lines) expect(l).toMatch(/^https:\/\/acme\.test/);
    expect(fake.requests[0]!.body).toMatchObject({ url: "https://acme.test", limit: 3 });

    const s = await run(["search", "widgets", "--limit", "2"]);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/https:\/\//);
    expect(fake.requests[1]!.body).toMatchObject({ query: "widgets", limit: 2 });

    const u = await run(["usage"]);
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/^Credits: \d+ of \d+ remaining/m);
    expect(u.stdout).toMatch(/^Tokens: \d+ of \d+ remaining/m);
  });

  it("crawl follows the job to the end, writes one file per page, prints progress lines (not a TTY)", async () => {
    const r = await run(["crawl", "https://acme.test", "--limit", "4", "--out", dir, "--poll-interval-ms", "60"]);
    expect(r.code, r.stderr).toBe(0);
    const files = await readdir(dir);
    expect(files).toHaveLength(4);
    expect(files.every((f) => f.startsWith("acme.test") && f.endsWith(".md"))).toBe(true);
    expect(r.stderr).toMatch(/^Started crawl [0-9a-f-]{36}$/m);
    expect(r.stderr).toMatch(/crawl [0-9a-f-]{36}: \d+(?:\/\d+)? pages?.*, \d+s/);
    expect(r.stderr).not.toMatch(/\b1 pages\b/);
    expect(r.stderr).toMatch(/crawl [0-9a-f-]{36} completed: 4 pages written to /);
    expect(r.stderr).not.toContain("\r"); // plain lines when not a terminal
    expect(fake.requests.find((q) => q.method === "POST")!.body).toMatchObject({ url: "https://acme.test", limit: 4 });
  });

  it("crawl --json prints one JSON object a line, ending with done", async () => {
    const r = await run(["crawl", "https://acme.test", "--limit", "3", "--json", "--poll-interval-ms", "60"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; status?: string; metadata?: { sourceURL: string } });
    expect(lines.filter((l) => l.type === "document")).toHaveLength(3);
    expect(new Set(lines.filter((l) => l.type === "document").map((l) => l.metadata!.sourceURL)).size).toBe(3);
    expect(lines.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 3 });
  });

  it("batch scrapes the URLs given and follows the job", async () => {
    const r = await run(["batch", "https://acme.test/about", "https://acme.test/contact", "--json", "--poll-interval-ms", "60"]);
    expect(r.code, r.stderr).toBe(0);
    const docs = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; metadata?: { sourceURL: string } });
    expect(docs.filter((d) => d.type === "document").map((d) => d.metadata!.sourceURL).sort()).toEqual(["https://acme.test/about", "https://acme.test/contact"]);
    expect(fake.requests[0]).toMatchObject({ method: "POST", pathname: "/v2/batch/scrape" });
  });

  it("exit codes follow the error class; bad input sends nothing", async () => {
    const unknownFlag = await run(["scrape", "https://acme.test", "--nope"]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toMatch(/--nope/);

    const badUrl = await run(["scrape", "ftp://acme.test"]);
    expect(badUrl.code).toBe(2);
    const badLimit = await run(["map", "https://acme.test", "--limit", "0"]);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toMatch(/--limit must be a whole number >= 1/);
    const missing = await run(["scrape"]);
    expect(missing.code).toBe(2);
    expect(fake.requests).toHaveLength(0);

    const badKey = await run(["usage"], { WEBDATA_API_KEY: "fc-0123456789abcdef0123456789abcdef" });
    expect(badKey.code).toBe(3);
    expect(badKey.stderr).toMatch(/AuthenticationError/);
    expect(badKey.stderr).not.toContain("fc-0123456789abcdef0123456789abcdef");

    const unknownCommand = await run(["frobnicate"]);
    expect(unknownCommand.code).toBe(2);

    const refused = await run(["scrape", "https://acme.test"], { WEBDATA_API_URL: "http://127.0.0.1:9" });
    expect(refused.code).toBe(8);
  });

  it("Ctrl-C cancels the crawl on the server before exiting with 130", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 0 }); // the crawl never progresses by itself
    let sent = false;
    const r = await run(["crawl", "https://acme.test", "--poll-interval-ms", "60"], {}, (text, kill) => {
      if (!sent && /Started crawl/.test(text)) {
        sent = true;
        setTimeout(() => kill("SIGINT"), 150);
      }
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Cancelled crawl [0-9a-f-]{36}/);
    const id = /Started crawl ([0-9a-f-]{36})/.exec(r.stderr)![1];
    expect(fake.requests.some((q) => q.method === "DELETE" && q.pathname === `/v2/crawl/${id}`)).toBe(true);
  });
});

describe("webdata CLI in a pipeline and without a key", () => {
  it("a reader that closes stdout early (| head -1) ends a crawl quietly: exit 141, no stack, the crawl cancelled on the server", async () => {
    // The job moves only when the test says so (one page, then another after the reader has gone), so the
    // second write meets the closed pipe whatever the transport (polling, or the live socket) and the timing.
    const jobs = fakeJobs(fake);
    jobs.configure({ pagesPerPoll: 0 });
    const r = await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, "crawl", "https://acme.test", "--poll-interval-ms", "60"], {
        env: { PATH: process.env.PATH ?? "", WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let id: string | undefined;
      child.stdout.once("data", (c: Buffer) => {
        stdout += c.toString();
        child.stdout.destroy(); // as `head -1` does once it has its line
        jobs.advance(id!, 1);
      });
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString();
        const started = /Started crawl ([0-9a-f-]{36})/.exec(stderr);
        if (started && id === undefined) {
          id = started[1];
          jobs.advance(id!, 1);
        }
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(r.code).toBe(141);
    const id = /Started crawl ([0-9a-f-]{36})/.exec(r.stderr)![1];
    expect(fake.requests.some((q) => q.method === "DELETE" && q.pathname === `/v2/crawl/${id}`)).toBe(true);
  });

  it("no key for the public service: exit 3 and the flag and variable to set, nothing sent", async () => {
    const r = await run(["usage"], { WEBDATA_API_KEY: "", WEBDATA_API_URL: "" });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no API key: pass --api-key <key> or set WEBDATA_API_KEY/);
    expect(r.stderr).not.toMatch(/new WebData/);
    expect(fake.requests).toHaveLength(0);
  });

  it("help <command> prints that command's help", async () => {
    const r = await run(["help", "scrape"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: webdata scrape <url>");
  });
});

/** A screen writing stderr into `log` (stdout is dropped). */
function screenOf(log: string[], tty: boolean, columns?: number): Screen {
  return new Screen({ out: () => undefined, err: (s) => log.push(s), outIsTTY: tty, errIsTTY: tty, sameTerminal: tty, columns, env: {} });
}

describe("CLI helpers", () => {
  it("progress: a bar with counts, percent and ETA on a terminal; no rate before a second; one page, not one pages", () => {
    let t = 0;
    const tty: string[] = [];
    const p = new Progress(screenOf(tty, true, 100), "crawl x", () => t);
    t = 6;
    p.update(1, 6);
    expect(tty.at(-1)).toBe("\r\x1b[2Kcrawl x [███░░░░░░░░░░░░░░░░░] 1/6 pages (16%), 0s"); // no "166.7 pages/s" after 6 ms
    t = 2000;
    p.update(4, 10);
    expect(tty.at(-1)).toBe("\r\x1b[2Kcrawl x [████████░░░░░░░░░░░░] 4/10 pages (40%), 2.0 pages/s, 2s, ETA 3s");
    p.update(1, 0);
    expect(tty.at(-1)).toBe("\r\x1b[2Kcrawl x: 1 page, 0.5 pages/s, 2s"); // total unknown: no bar, no ETA
    p.update(1, 1);
    // Every page counted has arrived, but the job still runs and its total may grow: never 100% (nor a full bar) before the end.
    expect(tty.at(-1)).toBe("\r\x1b[2Kcrawl x [███████████████████░] 1/1 page (99%), 0.5 pages/s, 2s");
    p.update(5, 5);
    expect(tty.at(-1)).toContain("5/5 pages (99%)");
    p.update(5, 12); // the total grew
    expect(tty.at(-1)).toContain("5/12 pages (41%)");
    p.finish("done");
    expect(tty.at(-1)).toBe("done\n");
    expect(tty.at(-2)).toBe("\r\x1b[2K");

    const narrow: string[] = [];
    const n = new Progress(screenOf(narrow, true, 40), "crawl 01a213b2-9562-7000-8000-000000000001", () => t);
    n.update(3, 9);
    expect(narrow.at(-1)!.length).toBeLessThanOrEqual("\r\x1b[2K".length + 39); // fits the terminal: a wrapped line cannot be redrawn
    expect(narrow.at(-1)).not.toContain("█");
  });

  it("progress off a terminal: plain lines without escape codes, at most one a second, only when the counts change", () => {
    let t = 0;
    const plain: string[] = [];
    const q = new Progress(screenOf(plain, false), "crawl y", () => t);
    q.update(1, 5);
    q.update(2, 5); // within the same second: not printed
    t += 1000;
    q.update(2, 5);
    q.update(2, 5); // unchanged: not printed
    t += 61_000;
    q.update(3, 5);
    q.waiting(5);
    q.waiting(5); // said once
    expect(plain).toEqual([
      "crawl y: 1/5 pages (20%), 0s\n",
      "crawl y: 2/5 pages (40%), 2.0 pages/s, 1s, ETA 1s\n",
      "crawl y: 3/5 pages (60%), 0.0 pages/s, 1m02s, ETA 41s\n",
      "crawl y: 5 pages received; waiting for the server to finish the job...\n",
    ]);
    expect(plain.join("")).not.toMatch(/\x1b|\r/);
  });

  it("plural: 1 page, 0 pages, 2 pages", () => {
    expect([plural(1, "page"), plural(0, "page"), plural(2, "page")]).toEqual(["1 page", "0 pages", "2 pages"]);
  });

  it("the screen clears the progress line before stdout on a shared terminal, and draws it again after", () => {
    const log: string[] = [];
    const screen = new Screen({ out: (s) => log.push(`out:${s}`), err: (s) => log.push(`err:${s}`), outIsTTY: true, errIsTTY: true, sameTerminal: true, env: {} });
    screen.status("crawl x: 1 page");
    screen.out("page text\n");
    expect(log).toEqual(["err:\r\x1b[2Kcrawl x: 1 page", "err:\r\x1b[2K", "out:page text\n", "err:\r\x1b[2Kcrawl x: 1 page"]);

    const apart: string[] = []; // stdout to a file or pipe: the line stays where it is
    const s2 = new Screen({ out: (s) => apart.push(`out:${s}`), err: (s) => apart.push(`err:${s}`), outIsTTY: false, errIsTTY: true, sameTerminal: false, env: {} });
    s2.status("crawl x: 1 page");
    s2.out("page text\n");
    expect(apart).toEqual(["err:\r\x1b[2Kcrawl x: 1 page", "out:page text\n"]);

    const msgs: string[] = []; // a message goes above the status line, which is drawn again; a partial line is not
    const s3 = new Screen({ out: (s) => msgs.push(`out:${s}`), err: (s) => msgs.push(`err:${s}`), outIsTTY: true, errIsTTY: true, sameTerminal: true, env: {} });
    s3.status("crawl x: 2 pages");
    s3.message("warning: slow\n");
    s3.out("partial");
    s3.out(" line\n");
    expect(msgs).toEqual([
      "err:\r\x1b[2Kcrawl x: 2 pages",
      "err:\r\x1b[2K",
      "err:warning: slow\n",
      "err:\r\x1b[2Kcrawl x: 2 pages",
      "err:\r\x1b[2K",
      "out:partial",
      "out: line\n",
      "err:\r\x1b[2Kcrawl x: 2 pages",
    ]);
  });

  it("colour only on a terminal and never with NO_COLOR or TERM=dumb", () => {
    const mk = (errIsTTY: boolean, env: Record<string, string>) => new Screen({ out: () => undefined, err: () => undefined, outIsTTY: errIsTTY, errIsTTY, sameTerminal: errIsTTY, env });
    expect(mk(true, {}).paintErr("x", "red")).toBe("\x1b[31mx\x1b[0m");
    expect(mk(true, { NO_COLOR: "1" }).paintErr("x", "red")).toBe("x");
    expect(mk(true, { NO_COLOR: "" }).paintErr("x", "red")).toBe("\x1b[31mx\x1b[0m"); // an empty NO_COLOR is unset (no-color.org)
    expect(mk(true, { TERM: "dumb" }).paintOut("x", "red")).toBe("x");
    expect(mk(false, {}).paintErr("x", "red")).toBe("x");
  });

  it("TERM=dumb: a terminal that cannot redraw gets plain lines", () => {
    const log: string[] = [];
    const dumb = new Screen({ out: () => undefined, err: (x) => log.push(x), outIsTTY: true, errIsTTY: true, sameTerminal: true, env: { TERM: "dumb" } });
    expect(dumb.live).toBe(false);
    new Progress(dumb, "crawl z", () => 0).update(1, 2);
    expect(log).toEqual(["crawl z: 1/2 pages (50%), 0s\n"]);
  });

  it("the server's details as lines: path and message per issue, repeats dropped, anything else as compact JSON, cut when long", () => {
    expect(detailLines([{ path: ["url"], message: "Invalid URL" }, { path: ["url"], message: "Invalid URL" }, { message: "no path" }, "text"])).toEqual(["url: Invalid URL", "no path", "text"]);
    expect(detailLines({ field: "limit", max: 100 })).toEqual(['{"field":"limit","max":100}']);
    expect(detailLines("x".repeat(400))[0]).toHaveLength(303);
    expect(detailLines(Array.from({ length: 12 }, (_, i) => ({ path: [i], message: "bad" })))).toHaveLength(11);
    expect(detailLines(undefined)).toEqual([]);
  });

  it("a WebSocket close frame: its code and reason (a 16-bit length too); anything else is not one", () => {
    const frame = (payload: Buffer) => Buffer.concat([Buffer.from([0x88, payload.length]), payload]);
    const reason = '{"type":"error","error":"Job not found"}';
    expect(readCloseFrame(frame(Buffer.concat([Buffer.from([0x03, 0xf0]), Buffer.from(reason)])))).toEqual({ code: 1008, reason });
    const long = "r".repeat(200);
    const big = Buffer.concat([Buffer.from([0x88, 126, 0, 202, 0x03, 0xe8]), Buffer.from(long)]);
    expect(readCloseFrame(big)).toEqual({ code: 1000, reason: long });
    expect(readCloseFrame(Buffer.from([0x81, 2, 0x68, 0x69]))).toBeUndefined(); // a text frame
    expect(readCloseFrame(Buffer.from([0x88, 0]))).toEqual({ code: 1005, reason: "" });
  });

  it("file names are safe, short and unique", () => {
    const used = new Set<string>();
    expect(fileNameFor("https://acme.test/", used, "md")).toBe("acme.test.md");
    expect(fileNameFor("https://acme.test/a/b?x=1#f", used, "md")).toBe("acme.test_a_b_x_1.md");
    expect(fileNameFor("https://acme.test/", used, "md")).toBe("acme.test-2.md");
    expect(fileNameFor("https://acme.test/../../etc/passwd", used, "md")).toBe("acme.test_etc_passwd.md");
    expect(fileNameFor(`https://acme.test/${"x".repeat(500)}`, used, "md").length).toBeLessThanOrEqual(153);
  });
});

describe("README: Agents and the terminal", () => {
  it("every `npx webdata` line of the section runs (against the fake, example.com read as the fixture site)", async () => {
    const readme = await readFile(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const section = readme.slice(readme.indexOf("### The `webdata` command"), readme.indexOf("## Testing your code"));
    // `webdata fake` serves until interrupted (cli-commands.test.ts runs it), and a line with a placeholder (`<id>`) names no real job.
    const lines = section.split("\n").filter((l) => l.startsWith("npx webdata ") && !l.startsWith("npx webdata fake") && !/<\w+>/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(7);
    for (const line of lines) {
      const args = (line.slice("npx webdata ".length).match(/"[^"]*"|\S+/g) ?? []).map((a) => a.replace(/^"|"$/g, "").replace("https://example.com", "https://acme.test")).map((a) => (a === "pages" ? join(dir, "pages") : a));
      const r = await run([...args, ...(args[0] === "crawl" || args[0] === "batch" ? ["--poll-interval-ms", "60"] : [])]);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
    }
    expect((await readdir(join(dir, "pages"))).length).toBeGreaterThan(0);
  }, 60_000);
});
