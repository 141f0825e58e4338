/**
 * Type tests: the README's OpenTelemetry snippet ("Observability") compiles as written, the propagator's
 * registration included (`@opentelemetry/core`, which the SDK's tracer packages bring; here through the
 * devDependency `@opentelemetry/sdk-trace-base`). test/readme-snippets.test.ts checks that every line of
 * the snippet is in this file; test/otel.test.ts that no `traceparent` is sent until a propagator is registered.
 */
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { describe, expectTypeOf, test } from "vitest";
import { WebData } from "webdata";
import { otelHooks } from "webdata/otel";

describe("README: OpenTelemetry", () => {
  test("the snippet compiles as written", () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator()); // without a propagator, no traceparent is sent
    const client = new WebData({ hooks: otelHooks() }); // the globally registered tracer provider
    expectTypeOf(client).toEqualTypeOf<WebData>();
  });
});
