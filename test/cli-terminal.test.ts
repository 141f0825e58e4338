/**
 * The `webdata` bin on a terminal and off it: run as a separate process on a
 * pseudo-terminal (util-linux `script`), with stdout on the same terminal or in
 * a file, and with pipes. The progress line never runs into page text; pipes get
 * plain lines without escape codes; NO_COLOR turns colour off; after the last
 * page the CLI says it is waiting for the server.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeJobs, type FakeService, type ServedFake } from "../src/testing/node.js";
import { hasScript, runBin, runPty, servedFakeEach } from "./support/cli-run.js";

let fake: FakeService;
let served: ServedFake;
let dir: string;

servedFakeEach("webdata-cli-tty-", (c) => ({ fake, served, dir } = c));

const env = () => ({ WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url });
const ESC = "\x1b";

describe.skipIf(!hasScript())("webdata on a pseudo-terminal", () => {
  it("stdout and stderr on one terminal: the progress line is cleared before each page, so page text never runs into it", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const r = await runPty(["crawl", "https://acme.test", "--limit", "4", "--poll-interval-ms", "60"], { env: env() });
    expect(r.code, r.output).toBe(0);
    const pages = [...r.output.matchAll(/<!-- https:\/\/acme\.test/g)];
    expect(pages).toHaveLength(4);
    expect(r.output).toContain(`\r${ESC}[2Kcrawl `); // the progress line was drawn in place
    for (const m of pages) {
      const before = r.output.slice(Math.max(0, m.index - 5), m.index);
      expect(before.endsWith(`\r${ESC}[2K`) || before.endsWith("\n"), JSON.stringify(r.output.slice(Math.max(0, m.index - 80), m.index + 20))).toBe(true);
    }
    expect(r.output).not.toMatch(/pages?(?:\/s)?[^\n\r]*<!--/); // a page run into the progress line: "… 0s<!-- https://…"
    expect(r.output).not.toMatch(/\b1 pages\b/);
    expect(r.output).toMatch(/crawl [0-9a-f-]{36} completed: 4 pages\r?\n/);
  });

  it("stdout to a file, stderr on the terminal: the file gets the pages without escape codes; the terminal the progress", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const file = join(dir, "out.md");
    const r = await runPty(["crawl", "https://acme.test", "--limit", "3", "--poll-interval-ms", "60"], { env: env(), stdoutFile: file });
    expect(r.code, r.output).toBe(0);
    const text = await readFile(file, "utf8");
    expect([...text.matchAll(/<!-- https:\/\/acme\.test/g)]).toHaveLength(3);
    expect(text).not.toContain(ESC);
    expect(r.output).toContain(`${ESC}[2K`);
    expect(r.output).not.toContain("<!--");
  });

  it("a terminal narrower than the progress line: the line is cut to fit (a wrapped line cannot be redrawn)", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const r = await runPty(["crawl", "https://acme.test", "--limit", "3", "--poll-interval-ms", "60", "-o", dir], { env: env(), columns: 50 });
    expect(r.code, r.output).toBe(0);
    // Each redrawn status line: what follows a clear up to the next clear, when no line end follows it (whole messages may wrap).
    const drawn = r.output.split(`\r${ESC}[2K`).slice(1).filter((s) => s !== "" && !s.includes("\n"));
    expect(drawn.some((s) => s.startsWith("crawl "))).toBe(true);
    for (const s of drawn) expect(s.length, s).toBeLessThan(50);
  });

  it("errors are red on a terminal; NO_COLOR (and a pipe) turn colour off", async () => {
    const refused = { WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: "http://127.0.0.1:9" };
    const colour = await runPty(["scrape", "https://acme.test", "--max-retries", "0"], { env: refused });
    expect(colour.code).toBe(8);
    expect(colour.output).toContain(`${ESC}[31mConnectionError`);
    const none = await runPty(["scrape", "https://acme.test", "--max-retries", "0"], { env: { ...refused, NO_COLOR: "1" } });
    expect(none.code).toBe(8);
    expect(none.output).toContain("ConnectionError");
    expect(none.output).not.toContain(ESC);
    const piped = await runBin(["scrape", "https://acme.test", "--max-retries", "0"], { env: refused });
    expect(piped.code).toBe(8);
    expect(piped.stderr).not.toContain(ESC);
  });

  it("doctor's table is coloured on a terminal, and not with NO_COLOR", async () => {
    const colour = await runPty(["doctor"], { env: env() });
    expect(colour.code, colour.output).toBe(0);
    expect(colour.output).toContain(`${ESC}[32m✓${ESC}[0m Reachable`);
    const none = await runPty(["doctor"], { env: { ...env(), NO_COLOR: "1" } });
    expect(none.code).toBe(0);
    expect(none.output).toContain("✓ Reachable");
    expect(none.output).not.toContain(ESC);
  });
});

describe("webdata off a terminal", () => {
  it("after the last page, while the server has not finished the job, says it is waiting, with the pages received", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 2, settlePolls: 3 });
    const r = await runBin(["crawl", "https://acme.test", "--limit", "2", "--poll-interval-ms", "60", "-o", dir], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/crawl [0-9a-f-]{36}: 2 pages received; waiting for the server to finish the job\.\.\.\n/);
    expect(r.stderr.match(/waiting for the server/g)).toHaveLength(1);
    expect(r.stderr.indexOf("waiting for the server")).toBeLessThan(r.stderr.indexOf("completed: 2 pages"));
    expect(r.stderr).not.toMatch(/\x1b|\r/);
  });
});
