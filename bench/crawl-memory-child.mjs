// One measurement of bench/crawl-memory.mts, in a fresh process of its own (run by it, never by hand):
//   node --expose-gc [--import tsx] bench/crawl-memory-child.mjs <contender> <apiUrl> <docs> <source> <preload> <what>
// contender: "raw" (an undici.request page loop over the `next` links, keeping nothing) | "webdata" (crawlDocuments)
// source: "dist" (the built package, `import "webdata"`: run in plain node, as an app runs it) | "src" (../src, under
//   tsx) | a directory holding another src/ (under tsx)
// preload: what the process loads before the baseline. "load": both contenders import webdata and make a client (the
//   processes differ only in the loop measured); "own": the raw loop's process loads undici alone; "same": as "load",
//   and each reads one status page (webdata's through the client, the raw loop's with undici.request).
// what: "peak" (the peak heap above the baseline, sampled every 5 ms and every 50 documents) | "retained" (a full GC at
//   a quarter of the documents and at the last: the live heap above the baseline at the quarter, and its growth to
//   the last; no peak).
// Prints one JSON line; with SPACES=1, V8's heap spaces at the baseline and at the peak on stderr.
import { getHeapSpaceStatistics } from "node:v8";
import { pathToFileURL } from "node:url";

const [contender, apiUrl, docsArg, source, preload, what] = process.argv.slice(2);
const KEY = "fc-bench";
const ID = "01a200de-0266-76d8-8503-80a52f44f4b3"; // bench/server.ts CRAWL_ID
const DOCS = Number(docsArg);
const marks = what === "retained" ? [Math.round(DOCS / 4), DOCS] : [];
const live = [];

const undici = await import("undici");
// What is loaded before the baseline sizes V8's young generation, the largest part of the peak: a process that
// compiled webdata's sources through tsx starts the loop with semi-spaces twice the size of one that loaded undici
// alone (8 MB against 4 MB). So by default both processes load the same code.
const loadsWebdata = contender !== "raw" || preload !== "own";
const mod = loadsWebdata
  ? source === "dist" ? await import("webdata")
    : await import(source === "src" ? "../src/node.js" : pathToFileURL(`${source}/node.ts`).href)
  : undefined;
const client = mod && new mod.WebData({ apiKey: KEY, apiUrl, logLevel: "off", maxRetries: 0 });
const headers = { authorization: `Bearer ${KEY}` };
if (preload === "same") {
  if (contender === "raw") await (await undici.request(`${apiUrl}/v2/crawl/${ID}?limit=1`, { headers })).body.json();
  else await client.getCrawlStatus(ID, { limit: 1 });
}

/** Every document of the crawl, handed to `use`. */
const iterate =
  contender === "raw"
    ? async (use) => {
        let next = `${apiUrl}/v2/crawl/${ID}`;
        while (next) {
          const res = await undici.request(next, { headers });
          const page = await res.body.json();
          for (const doc of page.data) use(doc);
          next = page.next;
        }
      }
    : async (use) => {
        for await (const doc of client.crawlDocuments(ID)) use(doc);
      };

const MB = 1024 * 1024;
const spaces = (field) => Object.fromEntries(getHeapSpaceStatistics().map((x) => [x.space_name, +(x[field] / MB).toFixed(1)]));
/** The young generation's semi-space, MB (half the new space V8 commits; it grows from 1 MB to 16 MB as young objects survive, and shrinks when allocation slows). */
const youngMB = () => spaces("space_size").new_space / 2;

globalThis.gc?.();
const base = process.memoryUsage().heapUsed;
const youngAtBase = youngMB();
const baseSpaces = spaces("space_used_size");
let peak = base;
let peakSpaces = baseSpaces;
const sample = () => {
  const h = process.memoryUsage().heapUsed;
  if (h > peak) {
    peak = h;
    if (process.env.SPACES) peakSpaces = spaces("space_used_size");
  }
};
const timer = what === "retained" ? undefined : setInterval(sample, 5);
let docs = 0;
let bytes = 0;
await iterate((doc) => {
  docs++;
  bytes += doc.markdown?.length ?? 0; // the application reads each document
  if (timer && docs % 50 === 0) sample();
  if (marks.includes(docs)) {
    globalThis.gc?.();
    live.push(process.memoryUsage().heapUsed);
  }
});
if (timer) {
  sample();
  clearInterval(timer);
}
if (docs !== DOCS) throw new Error(`expected ${DOCS} documents, got ${docs}`);
if (process.env.SPACES) console.error(contender, JSON.stringify(baseSpaces), JSON.stringify(peakSpaces));
const out = { docs, bytes, young: [youngAtBase, youngMB()] };
if (what === "retained") Object.assign(out, { heldMB: (live[0] - base) / MB, retainedMB: (live[1] - live[0]) / MB });
else out.peakMB = (peak - base) / MB;
console.log(JSON.stringify(out));
process.exit(0);
