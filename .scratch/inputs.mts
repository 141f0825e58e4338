import { appDir, bundle, CLIENT_APP, SCRAPE_APP } from "../bench/bundles.js";
const { dir, remove } = appDir();
const app = process.argv[2] === "scrape" ? SCRAPE_APP : CLIENT_APP;
const b = await bundle(dir, app, { split: false });
console.log("total", b.minified, b.gzipped);
const groups = process.argv.slice(3);
for (const [f, n] of b.inputs) console.log(String(n).padStart(7), f);
for (const g of groups) { const re = new RegExp(g); const w = await bundle(dir, app, { split: false, without: (n) => re.test(n) }); console.log("without", g, b.gzipped - w.gzipped); }
remove();
