import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  entry: {
    index: "src/index.ts",
    node: "src/node.ts",
    "v1/index": "src/v1/index.ts",
    "v1/node": "src/v1/node.ts",
    "testing/index": "src/testing/index.ts",
    "testing/node": "src/testing/node.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  splitting: true,
  treeshake: true,
  external: ["undici", "zod", "eventsource-parser", "ws", /^node:/],
  noExternal: ["p-retry", "is-network-error"],
  define: { __WEBDATA_VERSION__: JSON.stringify(pkg.version) },
});
