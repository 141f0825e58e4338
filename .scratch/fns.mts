// Files of src/ (not testing/) run by one call after import, and how many times the option checks ran
// (V8 precise coverage with call counts), against the fake service:
//   npx tsx bench/house/call-path.mts [checkout dir] [index|node] [-v]
import { Session } from "node:inspector/promises";
const root = (await import("node:path")).resolve(process.argv[2] ?? ".");
const entry = process.argv[3] ?? "index";
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
const { WebData } = await import(`/work/main/src/${entry}.ts`);
const { createFakeService } = await import(`/work/main/src/testing/index.ts`);
const fake = createFakeService();
const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch });
const calls: Record<string, () => Promise<unknown>> = {
  scrape: () => client.scrape("https://acme.test/"),
  crawl: () => client.crawl("https://acme.test/", { limit: 3 }),
  watcher: async () => {
    const started = await client.startCrawl("https://acme.test/", { limit: 3 });
    await session.post("Profiler.takePreciseCoverage");
    const w = client.watcher(started.id);
    for await (const ev of w) if (ev.type === "done") break;
  },
};
// warm once so first-use loading is not counted
await calls.scrape!();
const out: Record<string, unknown> = {};
for (const name of ["scrape", "crawl", "watcher"]) {
  await session.post("Profiler.takePreciseCoverage");
  await calls[name]!();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = new Set<string>();
  const counts: Record<string, number> = {};
  for (const script of result) {
    const m = /\/src\/(.*\.ts)$/.exec(script.url.replace(/\?.*$/, ""));
    if (!m || m[1]!.startsWith("testing/")) continue;
    for (const fn of script.functions) {
      const c = fn.ranges[0]?.count ?? 0;
      if (c > 0 && fn.functionName !== "") { files.add(m[1]!); (globalThis as any).fns ??= {}; ((globalThis as any).fns[name] ??= new Set()).add(m[1] + ":" + fn.functionName); }
      if (["checkRequestOptions", "optionsArg", "check"].includes(fn.functionName) && c > 0) counts[`${m[1]}:${fn.functionName}`] = (counts[`${m[1]}:${fn.functionName}`] ?? 0) + c;
    }
  }
  out[name] = { files: files.size, counts, list: process.argv.includes("-v") ? [...files].sort() : undefined };
}
for (const [k, v] of Object.entries((globalThis as any).fns)) console.log(k, [...(v as Set<string>)].filter((x) => /core\/(abort|body|config|errors|path|server-timeout|client-state)/.test(x)).join(" "));
process.exit(0);
