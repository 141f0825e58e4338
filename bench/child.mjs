// One measurement in a fresh process (cold start and peak heap must not share a
// process with anything else). Prints one JSON line. Run by bench/clients.ts:
//   node --expose-gc bench/child.mjs <measure> <contender> <apiUrl> [docs]
// measure: "import" | "import+scrape" | "import-zod-loaded" | "crawl-memory" | "first-document"
//   first-document: a watched crawl against the in-process fake on a virtual clock (this process's
//   setTimeout/clearTimeout/Date.now replaced; contender "ramped": the default polling, "fixed": an
//   explicit 2 s interval, what the default was before the ramp): ms to the first document scraped at
//   1 s, and status reads of a 5 s and a 60 s job.
//   import-zod-loaded: import() timed in a process that has loaded its zod already (an app that uses zod):
//   webdata's peer zod (zod/v4/mini), the official client's own zod 3 (its dependency).
// contender: "webdata" | "webdata-fetch" | "official" | "raw" | "zod" (zod/v4/mini alone) | "ramped" / "fixed" (first-document)
import { pathToFileURL } from "node:url";

const [measure, contender, apiUrl, docsArg] = process.argv.slice(2);
const KEY = "fc-bench";

async function load() {
  if (contender === "official") {
    const mod = await import("@mendable/firecrawl-js");
    const Firecrawl = mod.default;
    return { scrape: (c) => c.scrape("https://acme.test", { formats: ["markdown"] }), make: () => new Firecrawl({ apiKey: KEY, apiUrl }), mod };
  }
  if (contender === "raw") return { make: () => undefined };
  if (contender === "zod") {
    await import("zod/v4/mini");
    return { make: () => undefined };
  }
  const { WebData } = await import("webdata");
  const extra = contender === "webdata-fetch" ? { fetch: globalThis.fetch } : {};
  return { scrape: (c) => c.scrape("https://acme.test", { formats: ["markdown"] }), make: () => new WebData({ apiKey: KEY, apiUrl, logLevel: "off", maxRetries: 0, ...extra }) };
}

if (measure === "import-zod-loaded") {
  if (contender === "official") {
    // Its own zod 3 (a dependency of its own install, test/official-client/), by the file its `import "zod"` reaches.
    const { createRequire } = await import("node:module");
    const { dirname, join } = await import("node:path");
    const root = dirname(dirname(createRequire(import.meta.url).resolve("@mendable/firecrawl-js")));
    await import(pathToFileURL(createRequire(join(root, "package.json")).resolve("zod")).href);
  } else {
    await import("zod/v4/mini");
  }
}

if (measure === "import" || measure === "import+scrape" || measure === "import-zod-loaded") {
  const t0 = performance.now();
  const lib = await load();
  const tImport = performance.now() - t0;
  let tFirst;
  if (measure === "import+scrape") {
    const client = lib.make();
    await lib.scrape(client);
    tFirst = performance.now() - t0;
  }
  console.log(JSON.stringify({ ms: measure === "import+scrape" ? tFirst : tImport }));
  process.exit(0);
}

if (measure === "crawl-memory") {
  const id = "01a200de-0266-76d8-8503-80a52f44f4b3";
  const lib = await load();
  const client = lib.make();
  // The Node entry loads undici on its first request: loaded here, before the baseline, so the peak is
  // what iterating the crawl holds, not the transport's module code (about 10 MB of heap).
  if (contender === "webdata") await import("undici");
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let docs = 0;
  const sample = () => {
    const h = process.memoryUsage().heapUsed;
    if (h > peak) peak = h;
  };
  const timer = setInterval(sample, 5);
  let bytes = 0;
  const use = (doc) => {
    docs++;
    bytes += doc.markdown.length; // the application reads each document
    if (docs % 50 === 0) sample();
  };
  if (contender === "raw") {
    let next = `${apiUrl}/v2/crawl/${id}`;
    while (next) {
      const res = await fetch(next, { headers: { authorization: `Bearer ${KEY}` } });
      const page = await res.json();
      for (const doc of page.data) use(doc);
      next = page.next;
    }
  } else if (contender === "official") {
    const job = await client.getCrawlStatus(id, { autoPaginate: true });
    for (const doc of job.data) use(doc);
  } else {
    for await (const doc of client.crawlDocuments(id)) use(doc);
  }
  sample();
  clearInterval(timer);
  if (docs !== Number(docsArg)) throw new Error(`expected ${docsArg} documents, got ${docs}`);
  console.log(JSON.stringify({ peakMB: (peak - base) / 1024 / 1024, docs, bytes }));
  process.exit(0);
}

if (measure === "first-document") {
  const { WebData } = await import("webdata");
  const { createFakeService, fakeJobs } = await import("webdata/testing");
  // The virtual clock: timers run in time order, each after the real I/O and promises before it settle.
  const realNow = Date.now();
  let now = 0;
  let seq = 0;
  const timers = new Map();
  globalThis.setTimeout = (fn, ms = 0, ...args) => {
    const id = ++seq;
    timers.set(id, { at: now + Math.max(0, Number(ms) || 0), fn, args, id });
    return { id, unref() { return this; }, ref() { return this; }, hasRef: () => false, [Symbol.toPrimitive]: () => id };
  };
  globalThis.clearTimeout = (t) => t !== undefined && t !== null && timers.delete(typeof t === "object" ? t.id : t);
  Date.now = () => realNow + now;
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  const runUntil = async (done, limitMs) => {
    await settle();
    while (!done() && now < limitMs) {
      let next;
      for (const t of timers.values()) if (!next || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
      if (!next) break;
      timers.delete(next.id);
      now = Math.max(now, next.at);
      next.fn(...next.args);
      await settle();
    }
  };
  const watch = async (endAt) => {
    const fake = createFakeService({ streamIntervalMs: 2 });
    const jobs = fakeJobs(fake);
    jobs.configure({ pagesPerPoll: 0 });
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off" });
    const job = await client.startCrawl("https://acme.test/", { limit: 5 });
    const t0 = now;
    let first;
    let end;
    const watcher = client.watcher(job.id, { transports: ["poll"], ...(contender === "fixed" ? { pollIntervalMs: 2000 } : {}) });
    watcher.on("document", () => (first ??= now - t0));
    watcher.on("done", () => (end = now - t0));
    watcher.on("error", () => undefined);
    setTimeout(() => jobs.advance(job.id, 1), 1000); // the first document is scraped at 1 s
    setTimeout(() => jobs.finish(job.id), endAt);
    await runUntil(() => end !== undefined, t0 + endAt + 10_000);
    watcher.close();
    timers.clear();
    const reads = fake.requests.filter((r) => r.method === "GET" && r.pathname.endsWith(job.id)).length;
    return { first, end, reads };
  };
  await watch(5000); // a first run warms up, before anything is measured
  const short = await watch(5000);
  const long = await watch(60_000);
  console.log(JSON.stringify({ firstMs: short.first, reads5s: short.reads, reads60s: long.reads, end5s: short.end, end60s: long.end }));
  process.exit(0);
}

throw new Error(`unknown measure ${measure}`);
