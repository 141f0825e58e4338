import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const dirs = { before: "/work/before/dist", now: "/work/main/dist" };
const apps = {
  "import { WebData }": (d: string) => `import { WebData } from "${d}/index.js"; export const c = new WebData({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1" });`,
  "import { scrape }": (d: string) => `import { scrape } from "${d}/index.js"; export const s = (u) => scrape(u, { formats: ["markdown"] });`,
  "WebData + webdata/team": (d: string) => `import { WebData } from "${d}/index.js"; import { team } from "${d}/team.js"; export const c = new WebData({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1", plugins: [team], budget: { credits: 5 } });`,
};
for (const [name, app] of Object.entries(apps)) {
  const row: string[] = [];
  for (const [label, d] of Object.entries(dirs)) {
    try {
      const out = await build({ stdin: { contents: app(d), resolveDir: "/work/main", loader: "js" }, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent", nodePaths: ["/work/main/node_modules"] });
      row.push(`${label} ${gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length} B`);
    } catch { row.push(`${label} n/a`); }
  }
  console.log(name.padEnd(28), row.join("   "));
}
