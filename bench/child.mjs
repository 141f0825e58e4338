// One measurement in a fresh process (cold start and peak heap must not share a
// process with anything else). Prints one JSON line. Run by bench/clients.ts:
//   node --expose-gc bench/child.mjs <measure> <contender> <apiUrl> [docs]
// measure: "import" | "import+scrape" | "import-zod-loaded" | "crawl-memory"
//   import-zod-loaded: import() timed in a process that has loaded its zod already (an app that uses zod):
//   webdata's peer zod (zod/v4/mini), the official client's own zod 3 (its dependency).
// contender: "webdata" | "webdata-fetch" | "official" | "raw"
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
  const { WebData } = await import("webdata");
  const extra = contender === "webdata-fetch" ? { fetch: globalThis.fetch } : {};
  return { scrape: (c) => c.scrape("https://acme.test", { formats: ["markdown"] }), make: () => new WebData({ apiKey: KEY, apiUrl, logLevel: "off", maxRetries: 0, ...extra }) };
}

if (measure === "import-zod-loaded") {
  if (contender === "official") {
    // Its own zod 3 (nested in its package), by the file its `import "zod"` reaches.
    const { createRequire } = await import("node:module");
    const { dirname, join } = await import("node:path");
    const root = dirname(dirname(createRequire(import.meta.url).resolve("@mendable/firecrawl-js")));
    await import(pathToFileURL(join(root, "node_modules/zod/index.js")).href);
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

throw new Error(`unknown measure ${measure}`);
