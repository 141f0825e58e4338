/**
 * `ARCHITECTURE.md` is checked: every import of every module in `src/` must be
 * allowed by its "What may import what" table (layers such as `core/` never
 * importing `api/` or `jobs/`, `api/` never importing `jobs/`, `testing/`
 * importing nothing of the client, `node:*` and undici only in the Node
 * modules), and there is no import cycle, type imports included. Rules with
 * one home that the source can show: v1 sends no request itself, and only
 * `jobs/pages.ts` walks a job's status pages.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycles, importsOf, pageReadsOf, parseRules, violations, type ModuleImports } from "./support/architecture.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "src");
const rules = parseRules(readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8"));

/** `src/**\/*.ts`, relative to `src/`, with `/` separators. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [relative(SRC, join(dir, e.name)).split("\\").join("/")] : [],
  );
}

/** The import graph of `src/`: relative imports resolved to files, packages as written. */
function srcGraph(): { graph: Map<string, ModuleImports>; unresolved: string[] } {
  const graph = new Map<string, ModuleImports>();
  const unresolved: string[] = [];
  for (const file of sourceFiles()) {
    const entry: ModuleImports = { files: [], packages: [] };
    for (const ref of importsOf(file, readFileSync(join(SRC, file), "utf8"))) {
      if (!ref.spec.startsWith(".")) {
        entry.packages.push(ref);
        continue;
      }
      const base = resolve(SRC, dirname(file), ref.spec);
      const target = [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
      if (target) entry.files.push({ file: relative(SRC, target).split("\\").join("/"), typeOnly: ref.typeOnly });
      else unresolved.push(`${file} -> ${ref.spec}`);
    }
    graph.set(file, entry);
  }
  return { graph, unresolved };
}

/** A graph from `from -> to` lines (a `to` with no `/` and no `.ts` is a package; a trailing ` type` marks a type-only import). */
function graphOf(lines: string[]): Map<string, ModuleImports> {
  const graph = new Map<string, ModuleImports>();
  for (const line of lines) {
    const [from = "", rest = ""] = line.split(" -> ");
    const typeOnly = rest.endsWith(" type");
    const to = rest.replace(/ type$/, "");
    const entry = graph.get(from) ?? { files: [], packages: [] };
    if (to.endsWith(".ts")) entry.files.push({ file: to, typeOnly });
    else entry.packages.push({ spec: to, typeOnly });
    graph.set(from, entry);
  }
  return graph;
}

describe("the checker", () => {
  it("reads every import form, and no comment", () => {
    const code = [
      'import { request } from "undici";',
      'import type { Server } from "node:http";',
      'import { type A, type B } from "./types.js";',
      'export { Agent } from "undici/agent";',
      'export type { X } from "./x.js";',
      'export * from "./all.js";',
      'const fs = await import("node:fs");',
      'const os = require("os");',
      "type T = import('./t.js').T;",
      "import {\n  Readable,\n} from 'node:stream';",
      '// import { x } from "node:commented";',
      '/* export * from "./commented.js"; */',
    ].join("\n");
    expect(importsOf("x.ts", code)).toEqual([
      { spec: "undici", typeOnly: false },
      { spec: "node:http", typeOnly: true },
      { spec: "./types.js", typeOnly: true },
      { spec: "undici/agent", typeOnly: false },
      { spec: "./x.js", typeOnly: true },
      { spec: "./all.js", typeOnly: false },
      { spec: "node:fs", typeOnly: false },
      { spec: "os", typeOnly: false },
      { spec: "./t.js", typeOnly: true },
      { spec: "node:stream", typeOnly: false },
    ]);
  });

  it("reports each kind of forbidden import the note names", () => {
    const bad = [
      "core/request.ts -> api/scrape.ts",
      "core/retry.ts -> jobs/polling.ts",
      "api/crawl.ts -> jobs/waiters.ts",
      "testing/service.ts -> core/errors.ts",
      "client.ts -> testing/index.ts",
      "v1/extract.ts -> client.ts",
      "core/transport.ts -> undici",
      "api/scrape.ts -> node:fs",
      "testing/service.ts -> node:http",
      "node.ts -> fs",
    ];
    expect(violations(graphOf(bad), rules).sort()).toEqual([...bad].sort());
    const good = [
      "api/crawl.ts -> core/request.ts",
      "jobs/waiters.ts -> api/crawl.ts",
      "v1/index.ts -> client.ts",
      "node.ts -> undici type",
      "node.ts -> undici",
      "node.ts -> node:stream",
      "testing/ws.ts -> node:http type",
      "testing/node.ts -> node:http",
      "testing/ws.ts -> ws",
      "core/validate.ts -> zod/v4/mini",
    ];
    expect(violations(graphOf(good), rules)).toEqual([]);
  });

  it("finds a cycle, type imports included", () => {
    expect(cycles(graphOf(["a.ts -> b.ts", "b.ts -> c.ts type", "c.ts -> a.ts", "c.ts -> d.ts"]))).toEqual(["a.ts -> b.ts -> c.ts -> a.ts"]);
    expect(cycles(graphOf(["a.ts -> b.ts", "a.ts -> c.ts", "b.ts -> c.ts"]))).toEqual([]);
  });
});

describe("src/ follows ARCHITECTURE.md", () => {
  const { graph, unresolved } = srcGraph();

  it("reads the note's table and every module", () => {
    expect(rules.map((r) => r.module)).toEqual(expect.arrayContaining(["core/", "api/", "jobs/", "v1/", "client.ts", "node.ts", "testing/"]));
    expect(graph.size).toBeGreaterThan(50);
    expect(unresolved).toEqual([]);
  });

  it("no module imports across a line the note forbids", () => {
    expect(violations(graph, rules)).toEqual([]);
  });

  it("no import cycles", () => {
    expect(cycles(graph)).toEqual([]);
  });
});

describe("ARCHITECTURE.md's table of homes names files that exist", () => {
  const note = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  const table = note.slice(note.indexOf("## Where each rule lives"), note.indexOf("\n## ", note.indexOf("## Where each rule lives") + 5));
  /** Every `folder/file.ts` (or `file.ts`) in the home column of the table. */
  const homes = [...new Set(table.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| rule") && !l.startsWith("| ---")).flatMap((l) => [...(l.split(" | ")[1] ?? "").matchAll(/`([\w-]+\/)?[\w-]+\.ts`/g)].map((m) => m[0].slice(1, -1))))];

  it("reads the table", () => {
    expect(homes.length).toBeGreaterThan(15);
    expect(homes).toEqual(expect.arrayContaining(["core/request.ts", "core/retry.ts", "core/redact.ts", "jobs/pages.ts"]));
  });

  it.each(homes)("%s exists in src/", (home) => {
    expect(existsSync(join(SRC, home))).toBe(true);
  });
});

describe("v1 maps, it does not send (ARCHITECTURE.md: v1 only maps names and shapes onto api/ and jobs/)", () => {
  const v1 = sourceFiles().filter((f) => f.startsWith("v1/"));
  const { graph } = srcGraph();
  /** Homes of rules the v1 layer gets through the shared api/ and jobs/ calls and never applies itself: retries, the sleep, redaction; the server-timeout table and document identity by name (their modules hold what v1 may use too); and the 404 grace: the start is noted by the shared job start. */
  const HOMES = ["core/retry.ts", "core/redact.ts"];
  /** Rules that share a module with what v1 may use (option checks, the documents iterators): the names v1 must not import. */
  const RULES: Record<string, RegExp> = { "core/time.ts": /\b(onAbort|linkSignal|delay)\b/, "core/options.ts": /\b(SERVER_TIMEOUTS|serverTimeoutMs|attemptTimeoutMs)\b/, "jobs/pages.ts": /\b(documentKey|firstSeen|DocumentMemory)\b/ };

  it("reads the v1 modules", () => {
    expect(v1).toEqual(expect.arrayContaining(["v1/client.ts", "v1/scrape.ts", "v1/crawl.ts", "v1/jobs.ts", "v1/usage.ts"]));
  });

  it.each(v1)("%s sends no request itself (no `.request(` call: it calls the shared api/ and jobs/ functions)", (file) => {
    const code = readFileSync(join(SRC, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/\.request\b\s*[<(]/);
  });

  it("no v1 module applies those rules itself: it imports nothing from their homes, and notes no job start (api/job-starts.ts startJob does)", () => {
    const direct = v1.flatMap((f) => {
      const code = readFileSync(join(SRC, f), "utf8");
      if (code.includes("noteStart")) return [`${f} notes a start itself`];
      const homes = (graph.get(f)?.files ?? []).filter((i) => !i.typeOnly && HOMES.includes(i.file)).map((i) => `${f} -> ${i.file}`);
      const named = Object.entries(RULES).flatMap(([home, names]) => {
        const from = [...code.matchAll(/import \{([^}]*)\} from "([^"]+)"/g)].filter((m) => m[2]!.endsWith(home.replace(/\.ts$/, ".js")));
        return from.some((m) => names.test(m[1]!)) ? [`${f} -> ${home} (a rule of its own)`] : [];
      });
      return [...homes, ...named];
    });
    expect(direct).toEqual([]);
  });
});

describe("one page walk (ARCHITECTURE.md: the pagination walk lives in jobs/pages.ts)", () => {
  /** Modules that may read a status page outside the walk, one page at a time and never in a loop: `v1/jobs.ts` reads the one page a caller's `nextURL` names (`checkCrawlStatus` without `getAllData`). */
  const ONE_PAGE = ["v1/jobs.ts"];
  const reads = sourceFiles().flatMap((file) => pageReadsOf(file, readFileSync(join(SRC, file), "utf8")).map((r) => ({ file, ...r })));

  it("the checker finds the walk of a loop (the watcher's poll loop before it used the walk) and not a single read", () => {
    const ownLoop = [
      "let cursor = 0; let next: string | undefined;",
      "for (;;) {",
      "  const url = next;",
      "  const page = await read(ctx, max, () =>",
      "    url ? getJobPage<Document>(ctx.http, ctx.kind, ctx.id, url, req) : getJobStatus<Document>(ctx.http, ctx.kind, ctx.id, { skip: cursor }, req),",
      "  );",
      "  cursor += page.data.length;",
      "}",
    ].join("\n");
    expect(pageReadsOf("jobs/watch-poll.ts", ownLoop)).toEqual([
      { callee: "getJobPage", line: 5, inLoop: true },
      { callee: "getJobStatus", line: 5, inLoop: true },
    ]);
    const single = ['if (nextURL) return getJobPage(http, kind, id, nextURL, req, V1);', "return getJobStatus(http, kind, id, { skip, limit }, req, V1);", "for (;;) await getJobStatus(http, kind, id, { limit: 1 }, req);"].join("\n");
    expect(pageReadsOf("v1/jobs.ts", single)).toEqual([
      { callee: "getJobPage", line: 1, inLoop: false },
      { callee: "getJobStatus", line: 2, inLoop: false },
    ]);
    // The read with its options checked already, its page options made by the SDK (`ownPage`): found alike.
    const checked = ["for (;;) await readJobStatus(http, kind, id, ownPage({ skip: seen }), req);", "await readJobStatus(http, kind, id, ownPage({ limit: 1 }), req);"].join("\n");
    expect(pageReadsOf("jobs/watch-poll.ts", checked)).toEqual([{ callee: "readJobStatus", line: 1, inLoop: true }]);
  });

  it("jobs/pages.ts walks the pages: it follows next and reads on from skip in its loop", () => {
    const own = reads.filter((r) => r.file === "jobs/pages.ts" && r.inLoop).map((r) => r.callee);
    expect(own).toEqual(expect.arrayContaining(["getJobPage", "readJobStatus"]));
  });

  it("no other module reads status pages in a loop (getJobPage, or getJobStatus with a skip): waiters, iterators, v1 and the watcher go through the walk", () => {
    expect(reads.filter((r) => r.inLoop && r.file !== "jobs/pages.ts").map((r) => `${r.file}:${r.line} ${r.callee}`)).toEqual([]);
  });

  it("no module counts a skip for a client's public status read (the AI tools' status read did, up to 20 pages, without the loop rules): it walks with jobPages", () => {
    expect(reads.filter((r) => (r.callee === "getCrawlStatus" || r.callee === "getBatchScrapeStatus") && r.file !== "jobs/pages.ts").map((r) => `${r.file}:${r.line} ${r.callee}`)).toEqual([]);
  });

  it("the checker finds a public status read given a skip, in a loop or not, and not one without", () => {
    const code = [
      "const read = (skip?: number) => client.getCrawlStatus(id, skip ? { skip } : undefined, { signal });",
      "for (let n = 1; n < 20; n++) await client.getBatchScrapeStatus(id, { skip: n * 100 });",
      "await client.getCrawlStatus(id, undefined, req);",
    ].join("\n");
    expect(pageReadsOf("ai/tools-jobs.ts", code)).toEqual([
      { callee: "getCrawlStatus", line: 1, inLoop: false },
      { callee: "getBatchScrapeStatus", line: 2, inLoop: true },
    ]);
  });

  it("only jobs/pages.ts follows next links (calls getJobPage), but for the one page a caller names in v1/jobs.ts", () => {
    expect(reads.filter((r) => r.callee === "getJobPage" && r.file !== "jobs/pages.ts" && !ONE_PAGE.includes(r.file)).map((r) => `${r.file}:${r.line}`)).toEqual([]);
  });
});

describe("one function sends (ARCHITECTURE.md: every endpoint is `Endpoint` data, sent by api/endpoint.ts)", () => {
  /**
   * The modules that may call `.request(`, `.answer(` or `.raw(` themselves, each with its reason: the request
   * function itself is not a call of it. Everything else sends through `send` / `open` of `api/endpoint.ts`.
   */
  const EXCEPTIONS: Record<string, string> = {
    "api/endpoint.ts": "the one sender",
  };
  /** A call of a method named `request`, `answer` or `raw` (`http.request<T>(`, `http.answer<T>(`, `client.http.raw(`, a chained `\n  .request(`), comments left out. */
  const SENDS = /\.\s*(?:request|answer|raw)\s*[<(]/;
  const sends = (code: string): boolean => SENDS.test(code.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""));

  it("the check finds every form of a send", () => {
    for (const code of ["http.request<T>(() => spec, req)", "return http\n    .request<X>(() => ({}), req)", "ctx.http.raw({ method: \"GET\" }, opts)", "client.http.request({ method: \"GET\", path })", "http.answer<T>(build, req)"]) expect(sends(code)).toBe(true);
    for (const code of ["send(http, EP, req, id)", "open(http, EP, req, ctx)", "// http.request(spec)", "/** `http.raw(spec)` */", "reader.read()"]) expect(sends(code)).toBe(false);
  });

  it("no module of src/ but api/endpoint.ts calls HttpClient.request, .answer or .raw (the fake service, testing/, is not the client)", () => {
    const offenders = sourceFiles().filter((f) => !f.startsWith("testing/") && !(f in EXCEPTIONS) && sends(readFileSync(join(SRC, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("each exception still sends (a stale exception is removed)", () => {
    for (const f of Object.keys(EXCEPTIONS)) expect(sends(readFileSync(join(SRC, f), "utf8")), f).toBe(true);
  });
});

/**
 * Homes that hold (one home per rule): each rule of ARCHITECTURE.md's "Where each rule
 * lives" checked here has a marker (the function or constant that is the rule) in its home, and its
 * logic appearing anywhere else in the client (`testing/`, the fake service, is not the client) fails
 * the test, as the page-walk check does. Each exception names its reason and must still match.
 */
describe("homes that hold: a rule's marker is in its home, and its logic nowhere else", () => {
  const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/.*$/gm;
  const client = sourceFiles().filter((f) => !f.startsWith("testing/"));
  const codeOf = (file: string) => readFileSync(join(SRC, file), "utf8").replace(COMMENTS, "");
  const FAMILY = "APIError|BadRequestError|AuthenticationError|PaymentRequiredError|PermissionDeniedError|NotFoundError|RequestTimeoutError|ConflictError|GoneError|RedirectError|RateLimitError|InternalServerError|IdempotencyConflictError|SignupError";

  /** One kind of a rule's logic: what it is, and how it shows in code. */
  interface Logic {
    what: string;
    re: RegExp;
  }
  /** A rule: its homes (where its logic may be), the markers each home must define, its logic, and the code excepted (one expression of one module, with its reason). */
  interface Rule {
    rule: string;
    /** How its row of ARCHITECTURE.md's table starts. */
    row: string;
    homes: string[];
    markers: [file: string, marker: RegExp][];
    logic: Logic[];
    exceptions?: Record<string, [allowed: RegExp, reason: string]>;
  }

  const STATUS_COMPARED: Logic = { what: "a status compared with a number", re: /\bstatus\s*(?:[!=]==?|[<>]=?)\s*[1-5]\d\d\b|\b[1-5]\d\d\s*(?:[!=]==?|[<>]=?)\s*[\w.#]*\bstatus\b/ };
  const RULES: Rule[] = [
    {
      rule: "status to class (errors: every public error class, status to class, the answers with a class of their own)",
      row: "| errors: every public error class, status to class",
      homes: ["core/errors.ts"],
      markers: [
        ["core/errors.ts", /\bstatic from\(init: APIErrorInit\): APIError\b/],
        ["core/errors.ts", /\bconst ERROR_CLASSES\b/],
        ["core/errors.ts", /\bexport function statusText\b/],
      ],
      logic: [
        STATUS_COMPARED,
        { what: "a status-to-class or status-to-text table", re: /\b[1-5]\d\d\s*:\s*(?:["'`]|\w+Error\b)|\[\s*[1-5]\d\d\s*,[^\]\n]*\b\w+Error\s*\]/ },
        { what: "an answer's error class built by hand", re: new RegExp(`\\bnew\\s+(?:${FAMILY})\\s*\\(`) },
      ],
      exceptions: {
        "core/retry.ts": [/\berr\.status === 500 && err\.code === "UNKNOWN_ERROR"/, "explainKeyedFailure: the idempotency key's likely cause added to a self-hosted server's 500 UNKNOWN_ERROR (the key's home); it picks no class and no retry"],
        "core/request.ts": [/\bstatus >= 200 && status < 300\b/, "isSuccess: a 2xx is a result, the one test the request path makes before APIError.from maps every other status"],
        "cli/doctor.ts": [/\berr\.status !== 404\b/, "a probe that names a deployment by what /v2 answers (404: v1 only); it picks no class"],
        "api/crawl.ts": [/\bnew IdempotencyConflictError\(\{\s*status: conflict\.status\b/, "a lost start's 409 re-thrown with its explanation: the class APIError.from gave the answer, kept"],
        "firecrawl/official-errors.ts": [/\berr\.status >= 500 \? "ERR_BAD_RESPONSE" : "ERR_BAD_REQUEST"/, "the drop-in's official `code` of an answer without one (the official client's axios names a 5xx ERR_BAD_RESPONSE, a 4xx ERR_BAD_REQUEST); it picks no class"],
      },
    },
    {
      rule: "redaction (the key and every secret of the client, in answers and in errors; redactError the one boundary)",
      row: "| redaction:",
      homes: ["core/redact.ts"],
      markers: [
        ["core/redact.ts", /\bexport function redactError\b/],
        ["core/redact.ts", /\bexport function redactAll\b/],
        ["core/redact.ts", /\bexport function secretsOf\b/],
      ],
      logic: [
        { what: "the redaction marker", re: /\[redacted\]/ },
        { what: "a redaction function of its own", re: /\bfunction\s+\w*[rR]edact\w*|\b\w*[rR]edact\w*\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>|\b(?:serverText|secretFree|scrub\w*|mask\w*)\s*\(/ },
        { what: "a secret cut out of text", re: /\.split\(\s*[\w.#]*(?:secret|[kK]ey)\w*\s*\)\s*\.join\(|\.replace(?:All)?\([^)\n]*(?:Bearer|fc-)/ },
      ],
    },
    {
      rule: "retries (which failures retry, the server's wait, the backoff)",
      row: "| retries:",
      homes: ["core/retry.ts"],
      markers: [
        ["core/retry.ts", /\bexport function isRetryable\b/],
        ["core/retry.ts", /\bexport const RETRYABLE_STATUSES\b/],
        ["core/retry.ts", /\bexport function parseRetryAfter\b/],
        ["core/retry.ts", /\bexport async function withRetries\b/],
      ],
      logic: [
        { what: "the server's wait read", re: /retry-after/i },
        { what: "p-retry driven by hand", re: /["']p-retry["']/ },
        { what: "a list of retryable statuses", re: /\b(?:408|429|50[0-4])\s*,\s*(?:408|429|50[0-4])\b/ },
      ],
    },
    {
      rule: "the watcher's fatal rule (which errors end a watcher)",
      row: "| retries:",
      homes: ["core/retry.ts"],
      markers: [["core/retry.ts", /\bexport function isWatchFatal\b/]],
      // A 4xx range written by hand is also "a status compared with a number" of the rule above, whose home is core/errors.ts (isClientError).
      logic: [
        { what: "a fatal rule of its own", re: /\bfunction\s+is\w*Fatal\b|\bis\w*Fatal\s*=(?!=)/ },
        { what: "a refused next link judged by hand", re: /\binstanceof\s+PaginationError\b/ },
      ],
    },
    {
      rule: "document identity (what makes two documents of a job the same)",
      row: "| what makes two documents of a job the same",
      homes: ["jobs/pages.ts"],
      markers: [
        ["jobs/pages.ts", /\bexport function documentKey\b/],
        ["jobs/pages.ts", /\bexport function firstSeen\b/],
      ],
      logic: [{ what: "a document identity of its own", re: /\bscrapeId\b[^;\n]*\bsourceURL\b|\.(?:has|add|get|set)\(\s*[\w.?]*\b(?:scrapeId|sourceURL)\b/ }],
    },
    {
      rule: "the 404 grace after a start",
      row: "| the 404 grace after a start",
      homes: ["api/job-starts.ts"],
      markers: [
        ["api/job-starts.ts", /\bexport function notYetVisible\b/],
        ["api/job-starts.ts", /\bexport const NOT_VISIBLE_GRACE_MS\b/],
      ],
      logic: [
        { what: "a 404 grace of its own", re: /\binstanceof\s+NotFoundError\b[^;\n]*(?:Date\.now|performance\.now|startedAt|GRACE)/ },
        { what: "the grace's length", re: /\bNOT_VISIBLE_GRACE_MS\b/ },
      ],
    },
    {
      rule: "transport selection (a caller's fetch, else the entry's transport, else global fetch)",
      row: "| transport selection",
      homes: ["core/transport.ts"],
      markers: [["core/transport.ts", /\bexport function selectTransport\b/]],
      logic: [{ what: "the global fetch taken by hand", re: /(?<!typeof\s+)\bglobalThis\.fetch\b/ }],
    },
    {
      rule: "the governance pipeline (the stages every call passes, in order, in the one sender)",
      row: "| the governance pipeline",
      homes: ["api/endpoint.ts"],
      markers: [
        ["api/endpoint.ts", /\bexport function sendChecked\b/],
        ["api/endpoint.ts", /\bfunction governed\b/],
      ],
      logic: [{ what: "a governance stage called by hand", re: /\.(?:admit|count)\(\s*call\b|\bgovernance\??!?\.(?:admit|count)\b/ }],
      exceptions: { "team.ts": [/this\.(?:credits|#shared\?)\.count\(call, answer\)|this\.#shared\?\.admit\(call\)/, "the team plugin's stage passes the call on to its meter and its shared budget: the stage itself, not a call by hand"] },
    },
    {
      rule: "credits and budgets (what each operation may cost, the refusal before sending, the cancel of a waited job)",
      row: "| credits and budgets",
      homes: ["team/budget.ts", "team/meter.ts", "api/credit-rules.ts"],
      markers: [
        ["api/credit-rules.ts", /\bexport const CREDIT_RULES\b/],
        ["team/budget.ts", /\bexport function refuseOverBudget\b/],
        ["team/budget.ts", /\bexport function budgetWatch\b/],
        ["team/meter.ts", /\bexport class ClientCreditMeter\b/],
      ],
      logic: [
        { what: "a budget refusal of its own", re: /\bnew BudgetExceededError\(/ },
        { what: "a credit rule of its own", re: /\b(?:spends|reports):\s*"/ },
      ],
    },
    {
      rule: "the concurrency limit (the slot a call holds, the wait for it)",
      row: "| the concurrency limit",
      homes: ["team/limit.ts"],
      markers: [
        ["team/limit.ts", /\bexport async function takeSlot\b/],
        ["team/limit.ts", /\bexport class LocalSlots\b/],
      ],
      logic: [{ what: "a slot taken by hand", re: /\.acquire\(/ }],
      exceptions: { "redis/limiter.ts": [/await slot\.acquire\(signal\)|return local\.acquire\(signal\)/, "redis-semaphore's own acquire, inside the limiter webdata/redis gives the stage, and its in-process fallback's (whenRedisDown)"] },
    },
    {
      rule: "the job recipe (start, budget, observe, poll, finish: one composition for every waiter, v2 and v1)",
      row: "| the job recipe",
      homes: ["jobs/waiters.ts", "jobs/polling.ts"],
      markers: [
        ["jobs/waiters.ts", /\bexport function awaitJob\b/],
        ["jobs/waiters.ts", /\bexport interface JobRecipe\b/],
      ],
      logic: [
        { what: "a job's budget watched by hand", re: /\.watchJob\(/ },
        { what: "a waited job's onJob events sent by hand", re: /\bphase:\s*"(?:start|end)",/ },
        { what: "a waiter built on the poll loop by hand", re: /\bwaitFor(?:Job|Task)(?:<[^>]*>)?\(/ },
      ],
      exceptions: {
        "ai/tools-jobs.ts": [/\bawait waitFor(?:Job|Task)\(/, "the agent tools' wait-or-current read: the poll loop alone, up to the tool's deadline, on a job the tool started (the budget is the start's stage)"],
      },
    },
    {
      rule: "a document's URL (the one asked for, the one shown)",
      row: "| a document's URL",
      homes: ["api/document.ts"],
      markers: [
        ["api/document.ts", /\bexport function requestedUrl\b/],
        ["api/document.ts", /\bexport function shownUrl\b/],
      ],
      logic: [{ what: "a document's URL picked by hand", re: /\bsourceURL\s*\?\?|\?\?\s*[\w.?]*\bsourceURL\b/ }],
      exceptions: {
        "firecrawl/watcher.ts": [/sourceURL: md\?\.sourceURL \?\? \(typeof md\?\.url === "string" \? md\.url : ""\)/, "the drop-in's document event fills the official `metadata.sourceURL` (typed as always present): it builds the field, it does not pick a URL"],
      },
    },
    {
      rule: "stalled jobs (the progress rule and the check, read at each poll)",
      row: "| long jobs",
      homes: ["team/stall.ts"],
      markers: [
        ["team/stall.ts", /\bexport class Progress\b/],
        ["team/stall.ts", /\bexport async function stalledError\b/],
      ],
      logic: [
        { what: "a JobStalledError built by hand", re: /\bnew JobStalledError\(/ },
        { what: "progress compared by hand", re: /\bsinceMs\s*[<>]=?/ },
      ],
    },
    {
      rule: "the operations catalogue (each operation's name, route and faces, in one table)",
      row: "| the operations catalogue",
      homes: ["api/operations.ts"],
      markers: [
        ["api/operations.ts", /\bexport const OPERATIONS\b/],
        ["api/operations.ts", /\bexport type OperationName\b/],
      ],
      logic: [{ what: "an operation's route listed by hand", re: /\broute:\s*["'`](?:GET|POST|PUT|PATCH|DELETE) \// }],
    },
    {
      rule: "the poll numbers (default, floor, ramp, the v1 intervals)",
      row: "| polling numbers",
      homes: ["jobs/pages.ts"],
      markers: [
        ["jobs/pages.ts", /\bexport const DEFAULT_POLL_INTERVAL_MS\b/],
        ["jobs/pages.ts", /\bexport const MIN_POLL_INTERVAL_MS\b/],
        ["jobs/pages.ts", /\bexport function pollPauses\b/],
        ["jobs/pages.ts", /\bexport const V1_TASK_POLL_MS\b/],
      ],
      logic: [
        { what: "a poll interval's default written by hand", re: /\bpoll\w*\s*(?:\?\?|\|\|)\s*\d/ },
        { what: "a poll floor written by hand", re: /\bMath\.max\([^)\n]*\b(?:500|MIN_POLL_INTERVAL_MS)\b/ },
        { what: "a ramp of pauses written by hand", re: /\*=?\s*1\.5\b/ },
        { what: "the poll numbers read outside their rule", re: /\b(?:DEFAULT|MIN)_POLL_INTERVAL_MS\b/ },
      ],
    },
    {
      rule: "the pagination walk's refusals (a next link followed twice, a finished job's page repeated, a next link for another job)",
      row: "| the pagination walk",
      homes: ["jobs/pages.ts", "jobs/status.ts"],
      markers: [
        ["jobs/pages.ts", /\bexport async function\* walkPages\b/],
        ["jobs/status.ts", /\bexport function nextPagePath\b/],
      ],
      logic: [{ what: "a pagination refusal of its own", re: /\bnew PaginationError\(/ }],
      exceptions: {
        "firecrawl/client.ts": [/\bthrow new PaginationError\(checkId,/, "the drop-in's auto-paginated monitor check (official semantics: maxPages, maxResults, maxWaitTime): a monitor check's pages, not a job's status pages"],
      },
    },
    {
      rule: "the request id (chosen once per call, put on results and errors, the server's read)",
      row: "| lifecycle hooks and the request id",
      homes: ["core/request.ts", "core/response.ts"],
      markers: [
        ["core/request.ts", /\bh\["x-request-id"\] = opts\.requestId \?\? h\["x-request-id"\] \?\? uuid\(\)/],
        ["core/response.ts", /\bexport function tagRequestId\b/],
        ["core/response.ts", /\bexport function tagError\b/],
        ["core/response.ts", /\bexport function serverIdOf\b/],
      ],
      logic: [
        { what: "a request id set by hand", re: /\[\s*["']x-request-id["']\s*\]\s*(?:\?\?=|=(?!=))/ },
        { what: "a result tagged with its request id by hand", re: /["']_requestId["']\s*,\s*\{/ },
        { what: "the server's request id read by hand", re: /\.get\(\s*["'](?:x-request-id|request-id|x-correlation-id|cf-ray)["']/ },
      ],
    },
    {
      rule: "the hook run (a call's hooks run in order, a throw a HookError, the event named by its operation)",
      row: "| lifecycle hooks and the request id",
      homes: ["core/hooks.ts"],
      markers: [
        ["core/hooks.ts", /\bexport class HookRun\b/],
        ["core/hooks.ts", /\bexport function clientHookSets\b/],
      ],
      logic: [
        { what: "a hook's throw wrapped by hand", re: /\bnew HookError\(/ },
        { what: "an event's operation named by hand", re: /`v1\.\$\{|["']v1\.["']\s*\+/ },
      ],
      exceptions: {
        "jobs/waiters.ts": [/\bthrow new HookError\("onJob", err\)/, "observeJob: the onJob hooks, told of a waited job's start and end (the job recipe's observe step), not of a request"],
      },
    },
    {
      rule: "the response body limit (maxResponseBytes: a declared length over it refused, a read stopped past it)",
      row: "| the response body limit",
      homes: ["core/transport.ts"],
      markers: [
        ["core/transport.ts", /\bexport function checkDeclared\b/],
        ["core/transport.ts", /\bexport async function readLimited\b/],
        ["core/transport.ts", /\bexport function fitsDeclared\b/],
      ],
      logic: [
        { what: "a body refused as too large by hand", re: /\bnew ResponseTooLargeError\(/ },
        { what: "a declared length read by hand", re: /\.get\(\s*["']content-length["']/ },
      ],
    },
    {
      rule: "a webhook delivery's identity (each delivery claimed once, a cancel's flood reported once per job)",
      row: "| a webhook delivery's identity",
      homes: ["webhooks/receiver.ts"],
      markers: [
        ["webhooks/receiver.ts", /\bexport function webhookReceiver\b/],
        ["webhooks/receiver.ts", /\bfunction identity\b/],
        ["webhooks/receiver.ts", /\bconst CANCELLED_PAGE\b/],
      ],
      logic: [
        { what: "a delivery claimed by hand", re: /\.claim\(/ },
        { what: "a cancelled page matched by hand", re: /cancell\?ed/ },
      ],
    },
  ];

  /** `file: what` for each kind of `rule`'s logic found in `code` of `file` outside its homes and exceptions. */
  const found = (rule: Rule, file: string, code: string) => rule.logic.filter((l) => l.re.test(code)).map((l) => `${file}: ${l.what}`);

  it("the checker finds each form of each rule's logic, and not the calls of its marker", () => {
    const [status, redaction, retries, fatal, identity, grace, transport] = RULES as [Rule, Rule, Rule, Rule, Rule, Rule, Rule];
    const bad: [Rule, string][] = [
      [status, "return res.status === 429 ? new RateLimitError({ ...init }) : APIError.from(init);"],
      [status, "if (!isSuccess(res.status) && res.status < 400) return redirect();"],
      [status, "if (300 <= err.status) throw err;"],
      [status, "const CLASSES = { 400: BadRequestError, 404: NotFoundError };"],
      [status, 'const texts = { 400: "Bad Request" };'],
      [status, "const row = [409, /\\/agent-signup$/, SignupError];"],
      [status, "throw new NotFoundError({ status: 404, message: \"Job not found\" });"],
      [redaction, 'return text.split(secret).join("[redacted]");'],
      [redaction, "export function serverText(ctx, text) { return redact(text, ctx.http.config.apiKey); }"],
      [redaction, "const msg = serverText(ctx, frame.error);"],
      [redaction, 'const clean = (t: string) => t.replace(/Bearer \\S+/g, "Bearer ***");'],
      [redaction, "const safe = text.split(apiKey).join(\"***\");"],
      [retries, 'const wait = Number(res.headers.get("retry-after")) * 1000;'],
      [retries, 'import pRetry from "p-retry";'],
      [retries, "const RETRY = new Set([429, 500, 502, 503]);"],
      [fatal, "export function isFatal(err: unknown): boolean { return err instanceof APIError && err.status >= 400 && err.status < 500; }"],
      [fatal, "const isJobFatal = (e: APIError) => e.status !== 429;"],
      [fatal, "if (err instanceof PaginationError) throw err;"],
      [status, "return err instanceof APIError && err.status >= 400 && err.status < 500;"],
      [identity, "const key = doc.metadata?.scrapeId ?? doc.metadata?.sourceURL;"],
      [identity, "if (seen.has(doc.metadata.scrapeId)) continue;"],
      [grace, "if (err instanceof NotFoundError && Date.now() - startedAt < 10_000) continue;"],
      [grace, "const fresh = now - at < NOT_VISIBLE_GRACE_MS;"],
      [transport, "const send = options.fetch ?? globalThis.fetch;"],
      [transport, "return globalThis.fetch(url, init);"],
    ];
    for (const [rule, code] of bad) expect(found(rule, "x.ts", code), code).not.toEqual([]);
    const good: [Rule, string][] = [
      [status, "return APIError.from(init);"],
      [status, "if (err instanceof NotFoundError) return undefined;"],
      [status, "const timeout = 300; const max = 500;"],
      [redaction, "throw this.redactError(err);"],
      [redaction, "const secrets = secretsOf(config.apiKey, config.headers);"],
      [redaction, 'const path = parts.join("/");'],
      [retries, "return withRetries(attempt, plan);"],
      [retries, "if (isRetryable(err, policy)) continue;"],
      [fatal, "if (isWatchFatal(err)) throw err;"],
      [fatal, "const fatal = this.#fatal;"],
      [identity, "if (!firstSeen(seen, doc)) return false;"],
      [identity, "const url = m.url ?? m.sourceURL ?? \"\";"],
      [grace, "if (notYetVisible(err, startedAt(ctx.http, ctx.id))) failures -= 1;"],
      [grace, "if (err instanceof NotFoundError) return EXIT.notFound;"],
      [transport, "fetch?: typeof globalThis.fetch | undefined;"],
    ];
    for (const [rule, code] of good) expect(found(rule, "x.ts", code), code).toEqual([]);
  });

  it("the checker finds each form of the newer rules' logic, and not the calls of their markers", () => {
    const rule = (start: string) => RULES.find((r) => r.rule.startsWith(start))!;
    const [catalogue, poll, walk, requestId, hooks, limit, webhook] = ["the operations catalogue", "the poll numbers", "the pagination walk", "the request id", "the hook run", "the response body limit", "a webhook delivery"].map(rule) as [Rule, Rule, Rule, Rule, Rule, Rule, Rule];
    const bad: [Rule, string][] = [
      [catalogue, 'const TOOLS = { scrape: { route: "POST /v2/scrape", tool: "scrape" } };'],
      [poll, "const pause = wait.pollIntervalMs ?? 2000;"],
      [poll, "const ms = Math.max(options.pollIntervalMs, 500);"],
      [poll, "next = Math.min(next * 1.5, 2000);"],
      [poll, "const floor = MIN_POLL_INTERVAL_MS;"],
      [walk, 'if (seen.has(next)) throw new PaginationError(id, "loop", next, "loop");'],
      [requestId, 'headers["x-request-id"] = crypto.randomUUID();'],
      [requestId, 'Object.defineProperty(result, "_requestId", { value: id });'],
      [requestId, 'const id = res.headers.get("x-request-id");'],
      [hooks, 'try { await hooks.onRequest?.(e); } catch (err) { throw new HookError("onRequest", err); }'],
      [hooks, "const operation = `v1.${op}`;"],
      [limit, "if (text.length > limit) throw new ResponseTooLargeError(limit, endpoint);"],
      [limit, 'const size = Number(res.headers.get("content-length"));'],
      [webhook, "if (!(await store.claim(key, ttlMs))) return;"],
      [webhook, "const cancelled = /crawl cancell?ed/.test(error);"],
    ];
    for (const [r, code] of bad) expect(found(r, "x.ts", code), code).not.toEqual([]);
    const good: [Rule, string][] = [
      [catalogue, 'const EP: Endpoint<[]> = { op: "scrape", path: "/v2/scrape" };'],
      [poll, "const pause = pollPauses(wait.pollIntervalMs);"],
      [poll, "const cap = Math.max(1, limit);"],
      [walk, "for await (const page of walkPages(http, kind, id, req, v, rules)) yield page;"],
      [walk, "if (err instanceof PaginationError) throw err;"],
      [requestId, "return tagRequestId(data, requestId);"],
      [requestId, 'const sent = headers["x-request-id"];'],
      [hooks, "if (call.run) await call.run.error(failed);"],
      [limit, "checkDeclared(headers, limit, method, url);"],
      [webhook, "const receiver = webhookReceiver({ store });"],
    ];
    for (const [r, code] of good) expect(found(r, "x.ts", code), code).toEqual([]);
  });

  it.each(RULES.map((r) => [r.rule, r] as const))("%s: ARCHITECTURE.md's table names its home", (_name, rule) => {
    const line = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8").split("\n").find((l) => l.startsWith(rule.row));
    expect(line, rule.row).toBeDefined();
    expect(line?.split(" | ")[1], rule.row).toContain(`\`${rule.markers[0]![0]}\``);
  });

  it.each(RULES.map((r) => [r.rule, r] as const))("%s: its markers are in its home", (_name, rule) => {
    for (const [file, marker] of rule.markers) expect(codeOf(file), `${file} defines ${marker}`).toMatch(marker);
  });

  /** The code of `file` less the one expression the rule excepts there. */
  const checked = (rule: Rule, file: string) => {
    const allowed = rule.exceptions?.[file]?.[0];
    return allowed ? codeOf(file).replace(new RegExp(allowed.source, "g"), "") : codeOf(file);
  };

  it.each(RULES.map((r) => [r.rule, r] as const))("%s: its logic appears in no other module", (_name, rule) => {
    const offenders = client.filter((f) => !rule.homes.includes(f)).flatMap((f) => found(rule, f, checked(rule, f)));
    expect(offenders).toEqual([]);
  });

  it.each(RULES.filter((r) => r.exceptions).map((r) => [r.rule, r] as const))("%s: each exception is still that logic, still in its module (a stale exception is removed)", (_name, rule) => {
    for (const [f, [allowed]] of Object.entries(rule.exceptions ?? {})) {
      const code = codeOf(f);
      expect(code, f).toMatch(allowed);
      expect(found(rule, f, code.match(allowed)?.[0] ?? ""), f).not.toEqual([]);
    }
  });

  it("the redaction boundary (redactError) is applied where the table says, and only there: the request path and the watcher's events", () => {
    const callers = client.filter((f) => /\bredactError\s*[<(]/.test(codeOf(f))).sort();
    expect(callers).toEqual(["core/redact.ts", "core/request.ts", "jobs/watcher.ts"]);
  });

  it("the waiters and the watcher's REST and SSE reads take the 404 grace from api/job-starts.ts (notYetVisible), as the table says", () => {
    for (const f of ["jobs/polling.ts", "jobs/watch-poll.ts", "jobs/watch-sse.ts"]) expect(codeOf(f), f).toMatch(/\bnotYetVisible\(/);
  });

  it("the watcher's transports take the fatal rule from core/retry.ts (isWatchFatal), not from a rule of their own", () => {
    for (const f of ["jobs/watch-poll.ts", "jobs/watch-sse.ts"]) {
      expect(codeOf(f), f).toMatch(/\bisWatchFatal\(/);
      expect(srcGraph().graph.get(f)?.files.map((i) => i.file), f).toContain("core/retry.ts");
    }
  });
});

describe("official compatibility lives in webdata/firecrawl (WebData returns its own shapes)", () => {
  /**
   * Where a `success` flag or an official-shape helper may appear: the drop-in (`firecrawl/`), which adapts
   * WebData's results to the official client's; the v1 face (`v1/`), whose answers are the v1 API's own
   * `{ success, ... }`; the fake service (`testing/`), which answers as the server does; and the webhook
   * deliveries' types (`api/webhooks.ts`), where `success` is the wire's field of each event.
   * `api/endpoint.ts` only refuses official keys with a hint naming the drop-in: it adapts nothing.
   */
  const ALLOWED_DIRS = ["firecrawl/", "v1/", "testing/"];
  const EXCEPTIONS: Record<string, string> = { "api/webhooks.ts": "the webhook deliveries' own `success` field (the wire's)" };
  /** Each rule, and whether it reads string literals (an import path, a property name) or code with the strings blanked (messages may say `success: false`). */
  const RULES: [string, RegExp, "strings" | "bare"][] = [
    ["imports the official-shape helpers", /from\s+["'][./]*(?:firecrawl\/|api\/)?official-shapes(?:\.js)?["']/, "strings"],
    ["uses an official-shape helper", /\b(?:withSuccess|listWithAlias|flattenBatchOptions|historicalOptions|agentArgs|SuccessFlag|ListWithAlias)\b/, "bare"],
    ["defines a success property", /definePropert(?:y|ies)\s*\([^;]*["']success["']/, "strings"],
    ["sets a success flag", /\bsuccess\s*:\s*(?:true|false)\b/, "bare"],
    ["declares a success field on a result", /\breadonly\s+success\b/, "bare"],
  ];
  const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  const bare = (text: string): string => code(text).replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  const breaches = (text: string): string[] => RULES.filter(([, re, on]) => re.test(on === "bare" ? bare(text) : code(text))).map(([what]) => what);

  it("the check finds each form and not a comment or a read of the wire's success", () => {
    expect(breaches('import { withSuccess } from "../firecrawl/official-shapes.js";')).toEqual(["imports the official-shape helpers", "uses an official-shape helper"]);
    expect(breaches('import { x } from "./official-shapes.js";')).toEqual(["imports the official-shape helpers"]);
    expect(breaches("return listWithAlias(r, \"periods\");")).toEqual(["uses an official-shape helper"]);
    expect(breaches('Object.defineProperty(value, "success", { value: true, enumerable: false });')).toEqual(["defines a success property"]);
    expect(breaches("return { ...r, success: true };")).toEqual(["sets a success flag"]);
    expect(breaches("export interface R { readonly success?: boolean }")).toEqual(["declares a success field on a result"]);
    expect(breaches("/** answers `{ success: true }` */\nconst ok = (r: { success?: boolean }) => r.success !== false; // success: true")).toEqual([]);
    expect(breaches('z.refine(check, { error: "expected a string (or success: false)" });')).toEqual([]);
  });

  it("no module outside src/firecrawl/ (and the v1 face, the fake, the webhook types) adds success flags, list aliases or official overloads", () => {
    const offenders = sourceFiles()
      .filter((f) => !ALLOWED_DIRS.some((d) => f.startsWith(d)) && !(f in EXCEPTIONS))
      .flatMap((f) => breaches(readFileSync(join(SRC, f), "utf8")).map((what) => `${f}: ${what}`));
    expect(offenders).toEqual([]);
  });

  it("the helpers live in src/firecrawl/official-shapes.ts, and each exception still needs its exception", () => {
    expect(existsSync(join(SRC, "api/official-shapes.ts"))).toBe(false);
    expect(breaches(readFileSync(join(SRC, "firecrawl/official-shapes.ts"), "utf8"))).toContain("defines a success property");
    for (const f of Object.keys(EXCEPTIONS)) expect(breaches(readFileSync(join(SRC, f), "utf8")), f).not.toEqual([]);
  });
});
