/**
 * The README's and the entries' own snippets are the ones the type tests compile: every line of each
 * snippet is in the `*.test-d.ts` file that compiles it under strict TypeScript and NodeNext (vitest's
 * typecheck run, `test/tsconfig.json`), so a snippet edited in the docs alone fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), "utf8");
const README = read("../README.md");

/** The ```ts blocks between two headings of the README. */
function blocks(from: string, to: string): string[] {
  const start = README.indexOf(from);
  const end = README.indexOf(to, start);
  expect(start, from).toBeGreaterThanOrEqual(0);
  expect(end, to).toBeGreaterThan(start);
  return [...README.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** Every non-empty line of `snippet`, trimmed, is in `file`. */
function allIn(snippet: string, file: string): void {
  const text = read(file);
  for (const line of snippet.split("\n").map((l) => l.trim()).filter(Boolean)) expect(text, `${file} has: ${line}`).toContain(line);
}

describe("webdata/redis", () => {
  it("the README's snippet (Concurrency) is compiled by test/redis-readme.test-d.ts, with the ioredis import that compiles under NodeNext", () => {
    const block = blocks("### Concurrency", "### Long jobs").find((b) => b.includes("redisLimiter"));
    expect(block).toBeDefined();
    expect(block).toMatch(/^import \{ Redis \} from "ioredis";/m);
    allIn(block!, "./redis-readme.test-d.ts");
  });

  it("the README's snippet (Running a fleet) is compiled by test/redis-readme.test-d.ts", () => {
    const block = blocks("### Running a fleet", "### Long jobs").find((b) => b.includes("redisBudget"));
    expect(block).toBeDefined();
    allIn(block!, "./redis-readme.test-d.ts");
  });

  it("src/redis.ts's own snippet too", () => {
    const doc = /```ts\n([\s\S]*?)```/.exec(read("../src/redis.ts"))![1]!.replace(/^ \* ?/gm, "");
    expect(doc).toMatch(/^import \{ Redis \} from "ioredis";/m);
    allIn(doc, "./redis-readme.test-d.ts");
  });

  it("no doc imports ioredis's default export (not constructable under NodeNext: TS2351)", () => {
    for (const file of ["../README.md", "../src/redis.ts", "../MIGRATION.md", "../TESTING.md", "../examples/README.md"]) {
      expect(read(file), file).not.toMatch(/import Redis from "ioredis"/);
    }
  });
});

describe("webdata/webhooks on several replicas", () => {
  it("the README's snippets (Webhooks on several replicas, Reconcile) are compiled by test/webhooks-readme.test-d.ts", () => {
    const found = blocks("### Webhooks on several replicas", "### Observability");
    expect(found).toHaveLength(2);
    for (const block of found) allIn(block, "./webhooks-readme.test-d.ts");
  });
});

describe("webdata/otel", () => {
  it("the README's snippet (Observability) registers a propagator, and is compiled by test/otel-readme.test-d.ts", () => {
    const block = blocks("### Observability", "### Credits and budgets").find((b) => b.includes("otelHooks"));
    expect(block).toBeDefined();
    expect(block).toContain("propagation.setGlobalPropagator(new W3CTraceContextPropagator());");
    allIn(block!, "./otel-readme.test-d.ts");
  });

  it("the README says that no traceparent is sent until a propagator is registered", () => {
    const section = README.slice(README.indexOf("### Observability"), README.indexOf("### Credits and budgets")).replace(/\s+/g, " ");
    expect(section).toContain("until one is registered **no `traceparent` is sent**");
    expect(section).toMatch(/A waited job \(`crawl`, `batchScrape`, `extract`, `agent`, and the v1 waiters\) is one trace/);
  });
});

describe("the plugins (webdata/team, webdata/v1, webdata/sse, webdata/websocket)", () => {
  it("the README's websocket snippet (Watching a job) is compiled by test/team-readme.test-d.ts", () => {
    const block = blocks("### Watching a job", "\n##").find((b) => b.includes("plugins: [websocket]"));
    expect(block).toBeDefined();
    allIn(block!.replace(/^\s*\n/gm, ""), "./team-readme.test-d.ts");
  });

  it("the README's sse snippet (Watching a job) is compiled by test/team-readme.test-d.ts", () => {
    const block = blocks("### Watching a job", "\n##").find((b) => b.includes("plugins: [sse]"));
    expect(block).toBeDefined();
    allIn(block!.replace(/^\s*\n/gm, ""), "./team-readme.test-d.ts");
  });

  it("the README's team snippet is compiled by test/team-readme.test-d.ts", () => {
    const block = blocks("### The team features: one import", "### Credits and budgets").find((b) => b.includes("plugins: [team]"));
    expect(block).toBeDefined();
    allIn(block!, "./team-readme.test-d.ts");
  });

  it("the README's client.v1 snippet is compiled by test/team-readme.test-d.ts", () => {
    const block = blocks("### Migrating from v1", "\n## ").find((b) => b.includes("plugins: [v1]"));
    expect(block).toBeDefined();
    allIn(block!, "./team-readme.test-d.ts");
  });
});
