import { readFileSync } from "node:fs";
import { defineConfig, type Options } from "tsup";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

/** The package's entry points (see `exports` in package.json). */
const entry = {
  index: "src/index.ts",
  node: "src/node.ts",
  "v1/index": "src/v1/index.ts",
  "v1/node": "src/v1/node.ts",
  "firecrawl/index": "src/firecrawl/index.ts",
  "firecrawl/node": "src/firecrawl/node.ts",
  zod3: "src/zod3.ts",
  zod4: "src/zod4.ts",
  webhooks: "src/webhooks.ts",
  // `webdata/otel`: OpenTelemetry spans as lifecycle hooks; `@opentelemetry/api` (an optional peer) stays external.
  otel: "src/otel.ts",
  // `webdata/team`: the governance stages (budget, concurrency limit, meter) as a plugin of the client.
  team: "src/team.ts",
  // `webdata/sse`: the watcher's server-sent-events transport, a plugin of the client.
  sse: "src/sse.ts",
  // `webdata/websocket`: the watcher's WebSocket transport, a plugin of the client (built into the Node entry).
  websocket: "src/websocket.ts",
  "testing/index": "src/testing/index.ts",
  "testing/node": "src/testing/node.ts",
  "ai/index": "src/ai/index.ts",
  // `webdata/redis`: Node only (redis-semaphore runs on Node); no browser build.
  redis: "src/redis.ts",
  // `webdata/types`: types only (its JavaScript is an empty module, there for `import { type X }` under `verbatimModuleSyntax`).
  types: "src/types.ts",
};

const shared: Options = {
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
  define: { __WEBDATA_VERSION__: JSON.stringify(pkg.version) },
  // zod is a peer dependency (the application's own copy is used): never bundled, in any build.
  external: ["undici", "eventsource-parser", "ws", "zod", /^zod\//, "zod-to-json-schema", "ai", /^@modelcontextprotocol\//, /^@opentelemetry\//, "redis-semaphore", "ioredis", /^node:/],
};

// `npm run build` empties dist/ first; the three builds run side by side, so none cleans.
export default defineConfig([
  // ESM: one file per source module (dist/ mirrors src/), so a bundler keeps only the modules an app
  // reaches ("sideEffects": false): code is split at the entries (`webdata/v1`, `webdata/zod3`, ...), never
  // inside the client. The Node-only modules are left out: Node gets them from the bundled build below.
  { ...shared, entry: ["src/**/*.ts", "!src/node.ts", "!src/v1/node.ts", "!src/firecrawl/node.ts", "!src/testing/node.ts", "!src/redis.ts", "!src/redis/**", "!src/cli/**"], format: ["esm"], bundle: false, dts: false },
  // ESM for Node (the "node" conditions and the CLI): the same modules bundled, with shared chunks, so
  // `import "webdata"` reads a few files instead of ~90 (a third of a cold start). Browsers keep the
  // file-per-module build above, which their bundlers tree-shake module by module. One build, so every
  // Node entry shares one copy of each class (an error from `webdata/testing` is `instanceof` the one
  // exported by `webdata`).
  {
    ...shared,
    entry: { index: "src/node.ts", v1: "src/v1/node.ts", firecrawl: "src/firecrawl/node.ts", zod3: "src/zod3.ts", zod4: "src/zod4.ts", webhooks: "src/webhooks.ts", testing: "src/testing/node.ts", ai: "src/ai/index.ts", otel: "src/otel.ts", team: "src/team.ts", sse: "src/sse.ts", websocket: "src/websocket.ts", redis: "src/redis.ts", cli: "src/cli/main.ts" },
    outDir: "dist/node",
    format: ["esm"],
    platform: "node",
    bundle: true,
    splitting: true,
    treeshake: false,
    // The request checks' zod (`zod/v4/mini`, with the `zod/v4/core` it imports) is bundled here, tree-shaken: imported from
    // the package, it reads ~120 modules (64 of them zod's locales), half of a cold `import "webdata"` on Node. What takes the
    // app's own zod stays external: `zod/v4/core` (webdata/zod4's `toJSONSchema` of the app's schemas, whose registry holds
    // their descriptions) and `zod/v3`. Browsers keep zod external (shared with the app: bytes count there).
    external: shared.external!.filter((x) => !(x instanceof RegExp && x.source === "^zod\\/")).concat(["zod/v4/core", "zod/v3"]),
    noExternal: ["zod/v4/mini"],
    dts: false,
  },
  // ESM types: one declaration file per entry.
  { ...shared, entry, format: ["esm"], dts: { only: true } },
  // CommonJS (Node `require`): bundled per entry with shared chunks. The optional packages loaded when
  // first needed (undici by the Node client, `ai` and the MCP SDK by `webdata/ai`, `ws` by the fake) are
  // loaded with `require()` (in a promise), not `import()`: CommonJS hosts built on `vm` without a
  // dynamic-import hook (Jest's default mode) cannot run `import()`.
  {
    ...shared,
    entry,
    format: ["cjs"],
    dts: true,
    splitting: true,
    treeshake: true,
    // p-retry (and its one dependency) and p-queue (with p-timeout) ship as ESM only: bundled, so `require("webdata")` needs no ESM loader.
    noExternal: ["p-retry", "is-network-error", "p-queue", "p-timeout"],
    esbuildOptions(o) {
      o.supported = { ...o.supported, "dynamic-import": false };
    },
  },
]);
