/**
 * `import "webdata"` on Node does not load undici (most of what a short-lived
 * process used to pay at import): the Node entry starts loading it when a
 * client that will send through it is made, in both builds. Nor does it load
 * the zod 3 schema converter (zod-to-json-schema and zod 3), and it reads a
 * few bundled files, not one per source module. Runs the built package
 * (dist/, through its exports map) in fresh processes.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MockAgent } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebDataError } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: REPO, env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

// A request to a closed port: it fails, but only after the transport has loaded undici.
const CLOSED = "http://127.0.0.1:9";

describe.skipIf(!existsSync(`${REPO}dist/node/index.js`))("undici is loaded on the first request, not at import", () => {
  it("ESM: a resolve hook sees no undici and no zod 3 converter at import, a few files of the package, and each once it is needed", async () => {
    // Logs every module URL the loader resolves, in the order it resolves them.
    const hook = `import { appendFileSync } from "node:fs"; export async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.MODULE_LOG, r.url + "\\n"); return r; }`;
    const script = `
      import { register } from "node:module";
      import { readFileSync, writeFileSync } from "node:fs";
      writeFileSync(process.env.MODULE_LOG, "");
      register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
      const seen = () => readFileSync(process.env.MODULE_LOG, "utf8").split("\\n").filter(Boolean);
      const { WebData, toWireSchema } = await import("webdata");
      await new Promise((r) => setTimeout(r, 50));
      const atImport = seen();
      const { z } = await import("zod/v3");
      const unregistered = await toWireSchema(z.object({ a: z.string().min(2) })).then(() => "converted", (e) => e.name);
      const afterRefusal = seen();
      await import("webdata/zod3");
      await toWireSchema(z.object({ a: z.string().min(2) }));
      const afterConvert = seen();
      const client = new WebData({ apiKey: "fc-lazy-test", apiUrl: "${CLOSED}", maxRetries: 0, logLevel: "off" });
      const err = await client.getCreditUsage().catch((e) => e);
      console.log(JSON.stringify({ atImport, unregistered, afterRefusal, afterConvert, afterRequest: seen(), error: err.name }));`;
    const log = join(tmpdir(), `webdata-module-log-${process.pid}`);
    const out = JSON.parse(await run(["--input-type=module", "-e", script], { MODULE_LOG: log }).finally(() => rmSync(log, { force: true }))) as { atImport: string[]; unregistered: string; afterRefusal: string[]; afterConvert: string[]; afterRequest: string[]; error: string };
    const undici = (urls: string[]) => urls.filter((u) => u.includes("/node_modules/undici/"));
    const zod3Converter = (urls: string[]) => urls.filter((u) => u.includes("/node_modules/zod-to-json-schema/"));
    expect(undici(out.atImport)).toEqual([]);
    expect(zod3Converter(out.atImport)).toEqual([]);
    // The request checks' zod (zod/v4/mini, which reads ~120 modules, 64 of them locales) is bundled into dist/node/ (tsup.config.ts):
    // Node reads no module of the zod package at import, the larger part of a cold start before.
    expect(out.atImport.filter((u) => u.includes("/node_modules/zod/"))).toEqual([]);
    // ...and only the part it uses: bundling the whole namespace (a `const { x } = z` defeats tree-shaking) brought zod's
    // 64 locales along, a 713 KB chunk that took longer to compile than the package's files to load.
    const nodeBuild = readdirSync(`${REPO}dist/node`).filter((f) => f.endsWith(".js"));
    expect(nodeBuild.filter((f) => readFileSync(`${REPO}dist/node/${f}`, "utf8").includes("node_modules/zod/v4/locales/"))).toEqual([]);
    // The Node entry is one bundled graph (dist/node/): a score of chunks, not a file per source module (about 90).
    // Each Node entry (index, v1, firecrawl, zod3, webhooks, testing, ai, cli) shares it, so each added entry splits a few more.
    const own = [...new Set(out.atImport.filter((u) => u.startsWith(`file://${REPO}dist/`)))];
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((u) => u.startsWith(`file://${REPO}dist/node/`))).toBe(true);
    expect(own.length).toBeLessThanOrEqual(25);
    // A zod 3 schema before import "webdata/zod3" is a ValidationError, and nothing of the converter loads; after it, it converts.
    expect(out.unregistered).toBe("ValidationError");
    expect(zod3Converter(out.afterRefusal)).toEqual([]);
    expect(zod3Converter(out.afterConvert).length).toBeGreaterThan(0);
    expect(undici(out.afterConvert)).toEqual([]);
    expect(undici(out.afterRequest).length).toBeGreaterThan(0);
    expect(out.error).toBe("ConnectionError");
  });

  it("import does not touch the runtime's Headers (on Node 20 that loads the runtime's own undici first, which then sets the global dispatcher its fetch uses)", async () => {
    const script = `
      const bundled = () => process.moduleLoadList.some((m) => m.includes("deps/undici/undici"));
      await import("webdata");
      await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ atImport: bundled() }));`;
    expect(JSON.parse(await run(["--input-type=module", "-e", script]))).toEqual({ atImport: false });
  });

  it("CommonJS: require('webdata') and a client with its own fetch leave undici out of require.cache; a client that sends loads it", async () => {
    const script = `
      const loaded = () => Object.keys(require.cache).some((k) => k.includes("/node_modules/undici/"));
      const { WebData } = require("./dist/node.cjs");
      // A client given its own fetch never needs undici.
      new WebData({ apiKey: "fc-lazy-test", apiUrl: "${CLOSED}", fetch: globalThis.fetch });
      setTimeout(() => {
        const before = loaded();
        const client = new WebData({ apiKey: "fc-lazy-test", apiUrl: "${CLOSED}", maxRetries: 0, logLevel: "off" });
        client.getCreditUsage().catch((e) => e).then((err) => console.log(JSON.stringify({ before, after: loaded(), error: err.name })));
      }, 50);`;
    const out = JSON.parse(await run(["-e", script])) as { before: boolean; after: boolean; error: string };
    expect(out).toEqual({ before: false, after: true, error: "ConnectionError" });
  });
});

describe.skipIf(!existsSync(`${REPO}dist/node/index.js`))("the Node entries are one graph", () => {
  it("an error from webdata/v1, webdata/ai or a client tested with webdata/testing is an instance of the class webdata exports", async () => {
    const script = `
      const m = await import("webdata");
      const { WebDataV1 } = await import("webdata/v1");
      const { createTools } = await import("webdata/ai");
      const { createFakeService } = await import("webdata/testing");
      const v1 = await new WebDataV1({ apiKey: "fc-x", apiUrl: "${CLOSED}", maxRetries: 0, logLevel: "off" }).mapUrl("https://acme.test").catch((e) => e);
      let ai;
      try { createTools(new m.WebData({ apiKey: "fc-x", apiUrl: "${CLOSED}" }), { only: ["nope"] }); } catch (e) { ai = e; }
      const fake = createFakeService();
      const auth = await new m.WebData({ apiKey: "fc-wrong", apiUrl: "https://api.test", fetch: fake.fetch, logLevel: "off" }).scrape("https://acme.test").catch((e) => e);
      console.log(JSON.stringify([v1 instanceof m.ConnectionError, ai instanceof m.ValidationError, auth instanceof m.AuthenticationError]));`;
    expect(JSON.parse(await run(["--input-type=module", "-e", script]))).toEqual([true, true, true]);
  });
});

describe("the Node entry's connection options are checked at construction", () => {
  it("maxConnections must be a positive integer; dispatcher must be a Dispatcher", () => {
    for (const maxConnections of [0, -1, 1.5, Number.NaN, "4" as unknown as number]) {
      expect(() => new NodeWebData({ apiKey: "fc-x", apiUrl: CLOSED, maxConnections })).toThrow(WebDataError);
    }
    expect(() => new NodeWebData({ apiKey: "fc-x", apiUrl: CLOSED, maxConnections: 0 })).toThrow(/Invalid client options: maxConnections: must be >= 1/);
    expect(() => new NodeWebData({ apiKey: "fc-x", apiUrl: CLOSED, maxConnections: 4 })).not.toThrow();
    expect(() => new NodeWebData({ apiKey: "fc-x", apiUrl: CLOSED, dispatcher: {} as never })).toThrow(/undici Dispatcher/);
  });
});

describe("a MockAgent dispatcher under fake timers (undici already loaded by the test)", () => {
  afterEach(() => vi.useRealTimers());

  it("the first request is sent at once and the 429 wait runs on the fake clock", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get("https://mock.test");
    let calls = 0;
    const count = () => void calls++;
    pool.intercept({ path: "/v2/team/credit-usage", method: "GET" }).reply(() => (count(), { statusCode: 429, data: { success: false, error: "Rate limit exceeded. retry after 2s" }, responseOptions: { headers: { "content-type": "application/json" } } }));
    pool.intercept({ path: "/v2/team/credit-usage", method: "GET" }).reply(() => (count(), { statusCode: 200, data: { success: true, data: { remainingCredits: 5, planCredits: 10 } }, responseOptions: { headers: { "content-type": "application/json" } } }));
    const client = new NodeWebData({ apiKey: "fc-mock-test", apiUrl: "https://mock.test", dispatcher: agent, logLevel: "off" });
    vi.useFakeTimers();
    const usage = client.getCreditUsage();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(usage).resolves.toMatchObject({ remainingCredits: 5 });
    expect(calls).toBe(2);
    await agent.close();
  });
});
