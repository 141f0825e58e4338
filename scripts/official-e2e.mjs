// Runs the official client's own end-to-end tests (its npm tarball ships them under src/__tests__/e2e)
// twice against the built-in fake service: once through the official client, once with only their
// import changed to webdata's drop-in (dist/node/firecrawl.js), and prints each test that passes with
// one client and not the other. Not part of `npm test` (two suites of concurrent jobs, ~2 min).
//   npm run build && node scripts/official-client.mjs && node scripts/official-e2e.mjs
// What the tests import is mapped, nothing else changed: @jest/globals -> vitest, their `zod` -> the
// official client's own zod 3 (the schemas official users write), dotenv and uuid -> stand-ins, and
// their `../../../index` -> the client under test.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(import.meta.url), "..", "..");
const official = join(root, "test/official-client/node_modules/@mendable/firecrawl-js");
const work = join(root, ".cache/official-e2e");
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
writeFileSync(join(work, "dotenv.mjs"), "export function config() { return {}; }\nexport default { config };\n");
writeFileSync(join(work, "uuid.mjs"), "export const v4 = () => crypto.randomUUID();\n");
const clients = { official: join(official, "dist/index.js"), dropin: join(root, "dist/node/firecrawl.js") };

const fake = spawn(process.execPath, [join(root, "dist/node/cli.js"), "fake", "--port", "0", "--json"], { stdio: ["ignore", "pipe", "ignore"] });
const url = await new Promise((resolve, reject) => {
  fake.stdout.once("data", (b) => resolve(JSON.parse(String(b).split("\n")[0]).url));
  fake.once("exit", (code) => reject(new Error(`webdata fake exited ${code}`)));
});
const results = {};
try {
  for (const [who, entry] of Object.entries(clients)) {
    cpSync(join(official, "src/__tests__/e2e"), join(work, who), { recursive: true });
    const config = join(work, `vitest.${who}.config.mjs`);
    writeFileSync(config, `import { defineConfig } from "vitest/config";
export default defineConfig({
  resolve: { alias: [
    { find: /^@jest\\/globals$/, replacement: "vitest" },
    { find: /^dotenv$/, replacement: ${JSON.stringify(join(work, "dotenv.mjs"))} },
    { find: /^uuid$/, replacement: ${JSON.stringify(join(work, "uuid.mjs"))} },
    { find: /^zod$/, replacement: ${JSON.stringify(join(root, "test/official-client/node_modules/zod/index.js"))} },
    { find: /^(\\.\\.\\/)+index(\\.js)?$/, replacement: ${JSON.stringify(entry)} },
  ] },
  test: { root: ${JSON.stringify(join(work, who))}, include: ["**/*.test.ts"], testTimeout: 60000, hookTimeout: 60000 },
});
`);
    const out = join(work, `${who}.json`);
    try {
      execFileSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", config, "--reporter=json", `--outputFile=${out}`], {
        cwd: root,
        stdio: "ignore",
        env: { ...process.env, TEST_URL: url, FIRECRAWL_API_URL: url, API_URL: url, TEST_API_KEY: "fc-test-key" },
      });
    } catch {
      // failing tests are the data
    }
    const report = JSON.parse(readFileSync(out, "utf8"));
    for (const file of report.testResults) for (const t of file.assertionResults) (results[`${file.name.split(`/${who}/`)[1]} > ${t.fullName}`] ??= {})[who] = t.status;
    console.log(`${who}: ${report.numPassedTests} passed, ${report.numFailedTests} failed of ${report.numTotalTests}`);
  }
} finally {
  fake.kill("SIGTERM");
}
const rows = Object.entries(results);
const differ = rows.filter(([, r]) => (r.official === "passed") !== (r.dropin === "passed"));
console.log(`both pass: ${rows.filter(([, r]) => r.official === "passed" && r.dropin === "passed").length}; differ: ${differ.length}`);
for (const [name, r] of differ) console.log(`  ${r.official === "passed" ? "official only" : "drop-in only "}  ${name}`);
process.exitCode = differ.some(([, r]) => r.official === "passed") ? 1 : 0;
