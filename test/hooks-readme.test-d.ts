/**
 * Type tests: the README's lifecycle-hooks snippet ("Observability") compiles under strict TypeScript as
 * written. Hooks are typed `(event) => unknown`: a hook whose body is an expression that returns a value
 * (`events.push(e)`, `e.phase === "end" && log.info(...)`) is a hook; the request path awaits a returned
 * promise and ignores any other value. test/hooks.test.ts checks that every line of the README's snippet
 * is in this file, and runs such hooks.
 */
import { describe, expectTypeOf, test } from "vitest";
import { WebData, type Hooks } from "webdata";
import type { JobHookEvent, ResponseHookEvent } from "webdata/types";

declare const metrics: { observe(operation: string, status: number, durationMs: number, creditsUsed: number | undefined): number };
declare const log: { info(line: string): void; warn(line: string): void; error(requestId: string, error: Error): void };

describe("README: lifecycle hooks", () => {
  test("the snippet compiles as written", () => {
    const client = new WebData({
      hooks: {
        onRequest: (e) => e.setHeader("x-team", "search"), // before each attempt; may add headers
        onResponse: (e) => metrics.observe(e.operation, e.status, e.durationMs, e.creditsUsed),
        onRetry: (e) => log.warn(`${e.operation} attempt ${e.attempt}: ${e.error.message}`),
        onError: (e) => log.error(e.requestId, e.error),
        onJob: (e) => e.phase === "end" && log.info(`${e.kind} ${e.jobId}: ${e.status}, ${e.creditsUsed} credits`),
      },
    });
    expectTypeOf(client).toEqualTypeOf<WebData>();
  });

  test("a hook may return any value, a promise of any value too", () => {
    const events: ResponseHookEvent[] = [];
    const jobs = new Map<string, JobHookEvent>();
    const hooks: Hooks = {
      onResponse: (e) => events.push(e),
      onJob: (e) => jobs.set(e.jobId, e),
      onError: async (e) => e.error.message,
      onRetry: (e) => Promise.resolve(e.attempt),
    };
    expectTypeOf(hooks.onResponse).toEqualTypeOf<((event: ResponseHookEvent) => unknown) | undefined>();
    // Still a function of the event: a hook that reads a field the event lacks does not compile.
    // @ts-expect-error: `status` is not a field of a job event
    const bad: Hooks = { onJob: (e) => e.status.toFixed() };
    void bad;
  });
});
