/**
 * Installs what the runtime matrix needs, once, into a cache folder outside the
 * repo (reused between runs): Node 22/24 (registry `node@22`/`node@24`), Bun,
 * Deno, workerd and playwright-core (registry packages that carry their
 * binaries as per-platform optional dependencies, no download at install),
 * Debian's chromium (apt, only under `CI=true`), and a consumer project with the
 * packed tarball installed. Anything that cannot be installed throws: nothing is
 * skipped silently.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache folder (`WEBDATA_CACHE`, else `~/.cache/webdata-matrix`). */
export const CACHE = process.env.WEBDATA_CACHE || join(homedir(), ".cache", "webdata-matrix");
export const CHROMIUM = "/usr/bin/chromium";

/** Runtime packages: folder -> dependencies. Bump here. */
const RUNTIMES = {
  node22: { node: "22" },
  node24: { node: "24" },
  tools: { bun: "^1.3.0", deno: "^2.5.0", workerd: "^1.20250101.0", "playwright-core": "^1.55.0" },
};

/** The throwaway consumer project's dependencies (besides the tarball). */
export const OLDEST_TS = "5.5"; // zod 4 (a peer), whose types the package's types reference, needs TypeScript 5.5+
const CONSUMER_DEPS = {
  "@types/node": "^20.19.0",
  esbuild: "^0.27.0",
  typescript: "~5.9.0",
  "typescript-oldest": `npm:typescript@~${OLDEST_TS}.0`,
  // The fake's crawl WebSocket (serveFake) needs the optional ws package.
  ws: "^8.18.0",
};

function log(msg) {
  process.stderr.write(`[matrix] ${msg}\n`);
}

function npm(args, cwd) {
  const r = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, "utf8") === text) return false;
  writeFileSync(file, text);
  return true;
}

function version(bin, args = ["--version"]) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim().split("\n")[0] : undefined;
}

/** Paths of every runtime binary, installing what is missing. */
export function ensureRuntimes() {
  const bins = {};
  for (const [dir, deps] of Object.entries(RUNTIMES)) {
    const cwd = join(CACHE, "runtimes", dir);
    mkdirSync(cwd, { recursive: true });
    const changed = writeIfChanged(join(cwd, "package.json"), `${JSON.stringify({ private: true, dependencies: deps }, null, 2)}\n`);
    const missing = Object.keys(deps).some((d) => !existsSync(join(cwd, "node_modules", d, "package.json")));
    if (changed || missing) {
      log(`installing ${Object.keys(deps).join(", ")} into ${cwd}`);
      npm(["install"], cwd);
    }
    const bin = (name) => join(cwd, "node_modules", ".bin", name);
    if (dir === "tools") Object.assign(bins, { bun: bin("bun"), deno: bin("deno"), workerd: bin("workerd"), playwright: join(cwd, "node_modules", "playwright-core") });
    else bins[dir] = bin("node");
  }
  for (const [name, path] of Object.entries(bins)) {
    if (name === "playwright") continue;
    const v = version(path);
    if (!v) throw new Error(`runtime ${name} is not runnable at ${path}`);
    const want = { node22: "v22.", node24: "v24." }[name];
    if (want && !v.startsWith(want)) throw new Error(`${name} at ${path} is ${v}`);
    bins[`${name}Version`] = v;
  }
  bins.node20 = process.execPath;
  bins.node20Version = process.version;
  if (!process.version.startsWith("v20.")) log(`note: the driver runs on ${process.version}, listed as node20`);
  return bins;
}

/**
 * Debian's chromium: its version, installed with apt when missing only under `CI=true` (a system
 * package: the CI machine runs as root). Elsewhere a missing chromium returns `undefined`, and the
 * matrix skips its row with a line saying how to get it.
 */
export function ensureChromium() {
  if (!existsSync(CHROMIUM)) {
    if (!process.env.CI) return undefined;
    log("installing Debian's chromium (apt-get)");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { stdio: ["ignore", "ignore", "inherit"], env });
  }
  const v = version(CHROMIUM);
  if (!v) throw new Error(`${CHROMIUM} is not runnable`);
  return v;
}

/** `npm pack` of the built repo; returns the tarball path. */
export function pack(repo) {
  if (!existsSync(join(repo, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  const out = join(CACHE, "pack");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  npm(["pack", "--pack-destination", out, "--silent"], repo);
  const tgz = readdirSync(out).find((f) => f.endsWith(".tgz"));
  if (!tgz) throw new Error("npm pack produced no tarball");
  return join(out, tgz);
}

/** The consumer project with the tarball installed as a user would; returns its folder. */
export function ensureConsumer(tarball, fixtures) {
  const cwd = join(CACHE, "consumer");
  mkdirSync(cwd, { recursive: true });
  cpSync(tarball, join(cwd, "webdata.tgz"));
  const pkg = { name: "webdata-consumer", private: true, type: "module", dependencies: { webdata: "file:./webdata.tgz", ...CONSUMER_DEPS } };
  writeIfChanged(join(cwd, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  // The tarball changes every run: drop the old copy and the lock records so npm installs the new one.
  for (const p of ["node_modules/webdata", "node_modules/.package-lock.json", "package-lock.json"]) rmSync(join(cwd, p), { recursive: true, force: true });
  log(`installing the packed tarball into ${cwd}`);
  npm(["install", "--prefer-offline"], cwd);
  cpSync(fixtures, cwd, { recursive: true });
  return cwd;
}
