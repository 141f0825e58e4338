/**
 * How each runtime of the matrix runs the flows (fixtures/flows.mjs) from the
 * consumer project. Each job returns the parsed `{ entry, flows }` result or
 * throws; the driver serves a fresh fake per job.
 */
import { spawn } from "node:child_process";
import { writeFileSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CACHE, CHROMIUM } from "./setup.mjs";

const JOB_TIMEOUT_MS = 90_000;

/** Runs a command; resolves with its output, rejects on a non-zero exit or after the timeout. */
export function run(cmd, args, { cwd, env, timeoutMs = JOB_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ out, err });
      else reject(new Error(`${cmd} ${args.join(" ")} exited ${code ?? signal}\n${out.slice(-2000)}\n${err.slice(-2000)}`));
    });
  });
}

function parseResult(out) {
  const line = out.split("\n").find((l) => l.startsWith("MATRIX_RESULT "));
  if (!line) throw new Error(`no MATRIX_RESULT line in the output:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice("MATRIX_RESULT ".length));
}

async function bundle(consumer, entry, outfile, options) {
  const require = createRequire(join(consumer, "package.json"));
  const esbuild = await import(require.resolve("esbuild"));
  await esbuild.build({ entryPoints: [join(consumer, entry)], outfile, bundle: true, format: "esm", logLevel: "error", ...options });
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before listening`);
    try {
      await fetch(url, { method: "HEAD" });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Node (any version) through ESM `import` or CJS `require`. */
export function nodeJob(bin, style) {
  const entry = style === "esm" ? "entry-esm.mjs" : "entry-cjs.cjs";
  return async ({ consumer, url, key }) => parseResult((await run(bin, [entry, url, key], { cwd: consumer })).out);
}

/** Bun, importing the package as ESM. */
export function bunJob(bin) {
  return async ({ consumer, url, key }) => parseResult((await run(bin, ["entry-esm.mjs", url, key], { cwd: consumer })).out);
}

/** Deno with network to loopback only and no env permission (the client must not need one). */
export function denoJob(bin) {
  return async ({ consumer, url, key }) => {
    const args = ["run", "--no-prompt", "--no-lock", "--allow-net=127.0.0.1", "--allow-read", "entry-esm.mjs", url, key];
    return parseResult((await run(bin, args, { cwd: consumer, env: { DENO_DIR: join(CACHE, "deno-dir"), DENO_NO_UPDATE_CHECK: "1" } })).out);
  };
}

/** Cloudflare workerd: the client bundled into a worker, allowed to reach loopback. */
export function workerdJob(bin) {
  return async ({ consumer, url, key }) => {
    await bundle(consumer, "worker.mjs", join(consumer, "worker.bundle.js"), { platform: "neutral", conditions: ["workerd", "worker", "browser"], mainFields: ["module", "main"] });
    const port = await freePort();
    const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .mainWorker),
    (name = "net", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const mainWorker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.bundle.js")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "net",
);
`;
    writeFileSync(join(consumer, "workerd.capnp"), config);
    const child = spawn(bin, ["serve", "workerd.capnp"], { cwd: consumer, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/health`, child, 20_000).catch((e) => {
        throw new Error(`workerd: ${e.message}\n${log.slice(-2000)}`);
      });
      const res = await fetch(`${base}/run?url=${encodeURIComponent(url)}&key=${encodeURIComponent(key)}`, { signal: AbortSignal.timeout(JOB_TIMEOUT_MS) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`workerd answered ${res.status}: ${text.slice(0, 500)}\n${log.slice(-2000)}`);
      return JSON.parse(text);
    } finally {
      child.kill("SIGKILL");
    }
  };
}

/** Debian's chromium, headless, driven by playwright-core; the page is served from its own origin (CORS). */
export function chromiumJob(playwrightDir) {
  return async ({ consumer, url, key }) => {
    const out = join(consumer, "browser.bundle.js");
    await bundle(consumer, "browser.mjs", out, { platform: "browser", minify: true });
    const js = readFileSync(out);
    const html = '<!doctype html><meta charset="utf-8"><title>webdata matrix</title><script type="module" src="/browser.bundle.js"></script>';
    const page = createServer((req, res) => {
      if (req.url?.startsWith("/browser.bundle.js")) res.writeHead(200, { "content-type": "text/javascript" }).end(js);
      else res.writeHead(200, { "content-type": "text/html" }).end(html);
    });
    await new Promise((r) => page.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${page.address().port}`;
    const { chromium } = createRequire(import.meta.url)(playwrightDir);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      timeout: 60_000,
    });
    try {
      const tab = await browser.newPage();
      const errors = [];
      tab.on("pageerror", (e) => errors.push(String(e)));
      await tab.goto(`${origin}/?url=${encodeURIComponent(url)}&key=${encodeURIComponent(key)}`);
      await tab.waitForFunction(() => globalThis.__matrixResult, undefined, { timeout: 60_000 }).catch((e) => {
        throw new Error(`no result from the page: ${e.message}; page errors: ${errors.join("; ")}`);
      });
      return await tab.evaluate(() => globalThis.__matrixResult);
    } finally {
      await browser.close();
      page.close();
    }
  };
}

/** A strict tsc run over the consumer's TypeScript files. */
export function tscJob(tscPackage, tsconfig) {
  return async ({ consumer }) => {
    const tsc = join(consumer, "node_modules", tscPackage, "bin", "tsc");
    const v = JSON.parse(readFileSync(join(consumer, "node_modules", tscPackage, "package.json"), "utf8")).version;
    await run(process.execPath, [tsc, "-p", join("ts", tsconfig)], { cwd: consumer });
    return { entry: `tsc ${v}`, flows: { types: { ok: true, detail: tsconfig } } };
  };
}
