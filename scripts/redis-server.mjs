#!/usr/bin/env node
// Makes sure `redis-server` is installed for the webdata/redis tests (test/redis.test.ts and
// examples/fleet start their own on a loopback port). Present: says so and does nothing. Missing, as
// root on Debian/Ubuntu: installs Debian's `redis-server` package with apt-get, printing each command.
// Missing otherwise: prints how to install it and exits 1 (the tests would fail with the same advice).
import { spawnSync } from "node:child_process";

const found = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
if (!found.error && found.status === 0) {
  console.log(`redis-server: present (${found.stdout.trim()})`);
  process.exit(0);
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = !spawnSync("apt-get", ["--version"], { stdio: "ignore" }).error;
if (!isRoot || !hasApt) {
  console.error(
    "redis-server: missing. The webdata/redis tests run against a real one. Install it: " +
      "`sudo apt-get install -y redis-server` (Debian/Ubuntu), `brew install redis` (macOS), " +
      `or run this script as root on Debian/Ubuntu (${isRoot ? "apt-get not found" : "not root"}).`,
  );
  process.exit(1);
}

/** Runs a command, printing it first; exits with its status when it fails. */
function run(cmd, args) {
  console.log(`redis-server: missing; running: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (r.status !== 0) {
    console.error(`redis-server: \`${cmd} ${args.join(" ")}\` failed (${r.error?.message ?? `exit ${r.status}`})`);
    process.exit(r.status || 1);
  }
}

run("apt-get", ["update"]);
run("apt-get", ["install", "-y", "--no-install-recommends", "redis-server"]);
const after = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
if (after.error || after.status !== 0) {
  console.error("redis-server: installed, but `redis-server --version` still fails");
  process.exit(1);
}
console.log(`redis-server: installed (${after.stdout.trim()})`);
