/** The issues `check` (src/core/validate.ts) reports for `value`, as `path: message` lines, or "ok" when it passes. */
import type * as z from "zod/v4/mini";
import { ValidationError } from "../../src/core/errors.js";
import { check } from "../../src/core/validate.js";

/** `check(schema, value)`'s verdict as data: "ok", or its issues as `path: message`. */
export function checkIssues(schema: z.ZodMiniType, value: unknown): string[] | "ok" {
  try {
    check(schema, value, "options");
    return "ok";
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.issues.map((i) => `${i.path}: ${i.message}`);
  }
}
