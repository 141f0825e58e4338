/**
 * The suites that build bundles or run the benchmarks (`npm run test:builds`, part of `npm test`):
 * out of the unit run (`npm run test:unit`), which stays quick. They read `dist/`, so build first.
 */
import { defineConfig } from "vitest/config";
import base, { BUILD_SUITES } from "./vitest.config.js";

export default defineConfig({ ...base, test: { ...base.test, include: BUILD_SUITES, exclude: ["**/node_modules/**"], typecheck: { enabled: false } } });
