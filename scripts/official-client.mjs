// Installs the service's official client (@mendable/firecrawl-js, pinned in test/official-client/)
// for the comparison tests and the bench, apart from webdata's own devDependencies: it declares
// Node >= 22, and as a devDependency it made every `npm install` on Node 20 warn EBADENGINE.
// `npm test` and `npm run bench` run this first; it installs once (npm ci, from the pinned lockfile)
// and is silent when the client is already there. It then links node_modules/@mendable/firecrawl-js
// to that install, so tests, the bench and the type checks import it by its name as before (Node and
// Vite resolve the link to its real path, where the client's own dependencies are). `npm install`
// removes the link as extraneous; the next `npm test` puts it back.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "test", "official-client");
const wanted = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies["@mendable/firecrawl-js"];
const installed = join(dir, "node_modules", "@mendable", "firecrawl-js", "package.json");
const have = existsSync(installed) ? JSON.parse(readFileSync(installed, "utf8")).version : undefined;
if (have !== wanted) {
  console.error(`Installing the official client ${wanted} into test/official-client/ for the comparison tests (it declares Node >= 22; these tests run it on ${process.version})...`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // --loglevel=error: its engines warning is the one this separate install exists to keep out of `npm install`.
  execFileSync(npm, ["ci", "--loglevel=error", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
}
const target = join(dir, "node_modules", "@mendable", "firecrawl-js");
const link = join(root, "node_modules", "@mendable", "firecrawl-js");
let current;
try {
  current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : "(a directory)";
} catch {
  current = undefined;
}
if (current !== target) {
  if (current !== undefined) rmSync(link, { recursive: true, force: true });
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(target, link, "junction");
}
