import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

/** Suites that bundle the package, read its built declarations or run the benchmarks: `vitest.builds.config.ts` runs them, the unit run leaves them out. */
export const BUILD_SUITES = ["test/size.test.ts", "test/size-report.test.ts", "test/bench.test.ts", "test/declarations.test.ts"];

export default defineConfig({
  define: { __WEBDATA_VERSION__: JSON.stringify(pkg.version) },
  // Examples import the package by name, as users do; the tests run them on the sources (as test/tsconfig.json maps them).
  resolve: {
    alias: [
      { find: /^webdata$/, replacement: fileURLToPath(new URL("./src/node.ts", import.meta.url)) },
      { find: /^webdata\/v1$/, replacement: fileURLToPath(new URL("./src/v1/node.ts", import.meta.url)) },
      { find: /^webdata\/testing$/, replacement: fileURLToPath(new URL("./src/testing/node.ts", import.meta.url)) },
      { find: /^webdata\/ai$/, replacement: fileURLToPath(new URL("./src/ai/index.ts", import.meta.url)) },
      { find: /^webdata\/firecrawl$/, replacement: fileURLToPath(new URL("./src/firecrawl/node.ts", import.meta.url)) },
      { find: /^webdata\/webhooks$/, replacement: fileURLToPath(new URL("./src/webhooks.ts", import.meta.url)) },
      { find: /^webdata\/redis$/, replacement: fileURLToPath(new URL("./src/redis.ts", import.meta.url)) },
      { find: /^webdata\/otel$/, replacement: fileURLToPath(new URL("./src/otel.ts", import.meta.url)) },
      { find: /^webdata\/types$/, replacement: fileURLToPath(new URL("./src/types.ts", import.meta.url)) },
      { find: /^webdata\/team$/, replacement: fileURLToPath(new URL("./src/team.ts", import.meta.url)) },
      { find: /^webdata\/sse$/, replacement: fileURLToPath(new URL("./src/sse.ts", import.meta.url)) },
      { find: /^webdata\/websocket$/, replacement: fileURLToPath(new URL("./src/websocket.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...BUILD_SUITES],
    testTimeout: 20_000,
    maxConcurrency: 10, // test/faults.test.ts runs its cases concurrently (they mostly wait on timers)
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "test/tsconfig.json" },
  },
});
