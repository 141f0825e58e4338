/**
 * `webdata/otel`: OpenTelemetry traces of the client's calls, as lifecycle hooks.
 * `@opentelemetry/api` is an optional peer: only this entry imports it, so an app
 * that does not import `webdata/otel` loads and bundles none of it.
 *
 *     import { WebData } from "webdata";
 *     import { otelHooks } from "webdata/otel";
 *
 *     const client = new WebData({ hooks: otelHooks() }); // the global tracer provider, as registered by the OTel SDK
 *
 * What it records (OpenTelemetry's HTTP client semantic conventions for the attempts):
 * - one span per call (`webdata scrape`, `webdata crawl.status`, ...; kind INTERNAL), a child of the
 *   context active when the call was made;
 * - under it, one CLIENT span per HTTP attempt, named `{method} {url.template}` (`POST /v2/scrape`),
 *   with `http.request.method`, `url.template` (the route template:
 *   never a URL with its query), `http.response.status_code`, `error.type` on a failure, and
 *   `http.request.resend_count` on a retry. Each attempt sends a W3C `traceparent` (through the
 *   global propagator, `propagation.inject`) naming its span, so a server that reads it joins the trace;
 * - one span per job a waiter waits on (`crawl`, `batchScrape`, `extract`, `agent`): from the wait's
 *   start to its end, with the job's id, kind, final status, pages (completed / total) and credits.
 *   The status reads of a waited job are its children.
 *
 * A waited job is one trace. Inside a span of the caller's, the start call and the job span are its
 * children. With no span active, the start call's span is the trace's root and the job span its child
 * (the job's id is known only from the start's answer). A later call that names a job these hooks saw
 * start or end (a batch's `/errors` read after its wait, a status read of a started job) joins that
 * job's trace too when no span is active; the last {@link RECENT_JOBS} jobs are remembered.
 *
 * The `traceparent` header is written by the global propagator: until one is registered (the Node SDK
 * registers W3C Trace Context; a bare tracer provider does not) none is sent. Register one with
 * `propagation.setGlobalPropagator(new W3CTraceContextPropagator())` (`@opentelemetry/core`).
 *
 * Never in an attribute: the key, a request body, a search query, a prompt, a URL's query, an
 * error's message (a server's message can echo its input). A failure is named by its class
 * (`error.type`: `RateLimitError`, or the status code of an attempt's answer).
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type TextMapSetter, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { APIError } from "./core/errors.js";
import type { ErrorHookEvent, HookEventBase, Hooks, JobHookEvent, RequestHookEvent, ResponseHookEvent, RetryHookEvent } from "./core/hooks.js";
import { VERSION } from "./core/version.js";

/** Options of {@link otelHooks}. */
export interface OtelHooksOptions {
  /** The tracer to record with (wins over `tracerProvider`). */
  tracer?: Tracer | undefined;
  /** The provider to take the tracer from (default: the global one, `trace.getTracerProvider()`: an SDK registered after `otelHooks()` is called is used too). */
  tracerProvider?: TracerProvider | undefined;
}

/**
 * Attribute names: OpenTelemetry's semantic conventions (stable HTTP ones, as `@opentelemetry/semantic-conventions`
 * spells them; written here so that package is not a dependency), and this client's own under `webdata.`.
 */
export const OTEL_ATTRIBUTES = {
  httpRequestMethod: "http.request.method",
  httpResponseStatusCode: "http.response.status_code",
  httpRequestResendCount: "http.request.resend_count",
  urlTemplate: "url.template",
  serverAddress: "server.address",
  serverPort: "server.port",
  errorType: "error.type",
  operation: "webdata.operation",
  requestId: "webdata.request_id",
  creditsUsed: "webdata.credits_used",
  jobId: "webdata.job.id",
  jobKind: "webdata.job.kind",
  jobStatus: "webdata.job.status",
  jobCompleted: "webdata.job.completed",
  jobTotal: "webdata.job.total",
} as const;

/** The instrumentation scope's name (the tracer's name). */
export const OTEL_SCOPE = "webdata";

const A = OTEL_ATTRIBUTES;

/** One call in flight: its span, its context, and the span of the attempt being sent. */
interface Call {
  span: Span;
  ctx: Context;
  attempt: Span | undefined;
  attemptNo: number;
}

/** One waited job in flight: its span and context. */
type Job = Pick<Call, "span" | "ctx">;

/** How many jobs' contexts (their start's, then their own once ended) one {@link otelHooks} object keeps, for the calls that name them later. */
export const RECENT_JOBS = 256;

/** Sets the request headers of one attempt through its hook event. */
const HEADER_SETTER: TextMapSetter<RequestHookEvent> = { set: (e, key, value) => e.setHeader(key, value) };

/**
 * Lifecycle hooks that record OpenTelemetry spans of every call, HTTP attempt and waited job (see the
 * module's doc for what is recorded, and what never is). Pass them as the client's `hooks` (every call)
 * or a call's (that call):
 *
 *     new WebData({ hooks: otelHooks({ tracerProvider }) }); // a provider of your own instead of the global one
 *
 * Without a registered OpenTelemetry SDK the API's tracer is a no-op: spans cost a few objects and
 * record nothing, and the `traceparent` sent is the caller's, when one is active. The returned object
 * keeps the spans in flight; one object may serve several clients.
 *
 * @example const client = new WebData({ apiKey, hooks: otelHooks() }); await client.scrape(url); // a "webdata scrape" span with a "POST /v2/scrape" child
 */
export function otelHooks(options: OtelHooksOptions = {}): Hooks {
  // The global one is the API's proxy: it records through the SDK registered, also when it is registered later.
  const spans = new Spans(options.tracer ?? (options.tracerProvider ?? trace.getTracerProvider()).getTracer(OTEL_SCOPE, VERSION));
  return {
    onRequest: (e: RequestHookEvent) => spans.onRequest(e),
    onResponse: (e: ResponseHookEvent) => spans.onResponse(e),
    onRetry: (e: RetryHookEvent) => spans.onRetry(e),
    onError: (e: ErrorHookEvent) => spans.onError(e),
    onJob: (e: JobHookEvent) => (e.phase === "start" ? spans.startJob(e) : spans.endJob(e)),
  };
}

/** The spans in flight of one {@link otelHooks} object: calls, their attempts and waited jobs, and the jobs seen lately. */
class Spans {
  // Calls by request id: one per call, the same on its retries. A caller may send one id on two calls at once:
  // each id holds a list, and an event goes to the call whose attempt it names.
  readonly #calls = new Map<string, Call[]>();
  readonly #jobs = new Map<string, Job>();
  // Jobs seen, by id: the context of their start call (until their wait starts), then of their span (once ended).
  // Holds span contexts, not spans; the oldest goes first past RECENT_JOBS.
  readonly #recent = new Map<string, Context>();

  constructor(readonly recorder: Tracer) {}

  /** An attempt starts: a call's span on its first attempt, and the attempt's CLIENT span, whose context the request carries. */
  onRequest(e: RequestHookEvent): void {
    const call = (e.attempt > 1 ? this.#find(e, false) : undefined) ?? this.#startCall(e);
    if (call.attempt) endAttempt(call, undefined, undefined); // never left open
    const template = routeTemplate(e);
    const attributes: Attributes = { [A.httpRequestMethod]: e.method, [A.urlTemplate]: template, ...server(e.url) };
    if (e.attempt > 1) attributes[A.httpRequestResendCount] = e.attempt - 1;
    const span = this.recorder.startSpan(`${e.method} ${template}`, { kind: SpanKind.CLIENT, attributes }, call.ctx);
    call.attempt = span;
    call.attemptNo = e.attempt;
    propagation.inject(trace.setSpan(call.ctx, span), e, HEADER_SETTER);
  }

  /** A call succeeded: its attempt and its span end. */
  onResponse(e: ResponseHookEvent): void {
    const call = this.#find(e, true);
    if (!call) return;
    endAttempt(call, e.status, undefined);
    if (e.creditsUsed !== undefined && e.creditsUsed >= 0) call.span.setAttribute(A.creditsUsed, e.creditsUsed);
    call.span.end();
    this.#forget(e, call);
    if (e.jobId !== undefined) this.#remember(e.jobId, call.ctx, call.span); // a job start: the job's span goes under it
  }

  /** An attempt failed and will be retried. */
  onRetry(e: RetryHookEvent): void {
    const call = this.#find(e, true);
    if (call) endAttempt(call, e.status, e.error);
  }

  /** A call failed: its attempt and its span end with the failure's type. */
  onError(e: ErrorHookEvent): void {
    // A call that failed before its first attempt was sent (a hook threw, an abort) still gets its span.
    const call = this.#find(e, true) ?? this.#startCall(e);
    endAttempt(call, e.status, e.error);
    failed(call.span, e.error.name || "Error");
    call.span.end();
    this.#forget(e, call);
  }

  /** A wait starts: the job's span, under the caller's active span; with none, under the call that started the job (one trace). */
  startJob(e: JobHookEvent): void {
    const parent = this.#parentFor(this.#recent.get(e.jobId));
    const span = this.recorder.startSpan(`webdata ${e.kind} job`, { kind: SpanKind.INTERNAL, attributes: { [A.jobId]: e.jobId, [A.jobKind]: e.kind } }, parent);
    this.#jobs.set(e.jobId, { span, ctx: trace.setSpan(parent, span) });
  }

  /** A wait ends: the job's span ends with its final status, pages and credits. */
  endJob(e: JobHookEvent): void {
    const job = this.#jobs.get(e.jobId);
    if (!job) return;
    this.#jobs.delete(e.jobId);
    const attributes: Attributes = {};
    if (e.status !== undefined) attributes[A.jobStatus] = e.status;
    if (e.completed !== undefined) attributes[A.jobCompleted] = e.completed;
    if (e.total !== undefined) attributes[A.jobTotal] = e.total;
    if (e.creditsUsed !== undefined && e.creditsUsed >= 0) attributes[A.creditsUsed] = e.creditsUsed;
    job.span.setAttributes(attributes);
    if (e.error) failed(job.span, e.error.name || "Error");
    job.span.end();
    this.#remember(e.jobId, job.ctx, job.span); // a read after the wait (a batch's /errors) joins the job's trace
  }

  #remember(jobId: string, ctx: Context, span: Span): void {
    this.#recent.delete(jobId);
    this.#recent.set(jobId, trace.setSpanContext(ctx, span.spanContext()));
    if (this.#recent.size > RECENT_JOBS) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  /** The caller's active context when it holds a span, else the context of the job `jobId` (when known), else the active one. */
  #parentFor(recentCtx: Context | undefined): Context {
    const active = context.active();
    return recentCtx !== undefined && trace.getSpan(active) === undefined ? recentCtx : active;
  }

  #find(e: HookEventBase, open: boolean): Call | undefined {
    const list = this.#calls.get(e.requestId);
    return list?.find((c) => (open ? c.attempt !== undefined && c.attemptNo === e.attempt : c.attempt === undefined && c.attemptNo === e.attempt - 1)) ?? list?.[0];
  }

  #forget(e: HookEventBase, call: Call): void {
    const rest = this.#calls.get(e.requestId)?.filter((c) => c !== call) ?? [];
    if (rest.length) this.#calls.set(e.requestId, rest);
    else this.#calls.delete(e.requestId);
  }

  /** The job a call reads, when its path names one (`/v2/crawl/<id>`, `/v2/crawl/<id>/errors`): a waited job's span is its parent; a job seen before, when no span is active. */
  #jobOf(path: string): Context | undefined {
    if (this.#jobs.size === 0 && this.#recent.size === 0) return undefined;
    let seen: Context | undefined;
    for (const segment of path.split("/")) {
      if (!segment) continue;
      const job = this.#jobs.get(segment);
      if (job) return job.ctx;
      seen ??= this.#recent.get(segment);
    }
    return seen === undefined ? undefined : this.#parentFor(seen);
  }

  #startCall(e: HookEventBase): Call {
    const parent = this.#jobOf(e.path) ?? context.active();
    const span = this.recorder.startSpan(`webdata ${e.operation}`, { kind: SpanKind.INTERNAL, attributes: { [A.operation]: e.operation, [A.requestId]: e.requestId } }, parent);
    const call: Call = { span, ctx: trace.setSpan(parent, span), attempt: undefined, attemptNo: 0 };
    this.#calls.set(e.requestId, [...(this.#calls.get(e.requestId) ?? []), call]);
    return call;
  }
}

/** Ends the attempt in flight with its answer's status and the failure's type. */
function endAttempt(call: Call, status: number | undefined, error: Error | undefined): void {
  const span = call.attempt;
  if (!span) return;
  call.attempt = undefined;
  if (status !== undefined && status > 0) span.setAttribute(A.httpResponseStatusCode, status);
  const type = errorType(status, error);
  if (type !== undefined) failed(span, type);
  span.end();
}

/** Marks a span failed: `error.type` and an ERROR status naming the type. */
function failed(span: Span, type: string): void {
  span.setAttribute(A.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** `error.type` of a failed attempt: the status code of an error answer (an `APIError`), else the error's class (`ConnectionError`, `TimeoutError`, `InvalidResponseError` of a 2xx); none on success. */
function errorType(status: number | undefined, error: Error | undefined): string | undefined {
  if (!error) return undefined;
  return error instanceof APIError && status !== undefined ? String(status) : error.name || "Error";
}

/** `server.address` and `server.port` of the URL requested (the port always: the conventions want it on a client span; the scheme's default when the URL names none). */
function server(url: string): Attributes {
  try {
    const u = new URL(url);
    return { [A.serverAddress]: u.hostname.replace(/^\[|\]$/g, ""), [A.serverPort]: Number(u.port || (u.protocol === "https:" ? 443 : 80)) };
  } catch {
    return {};
  }
}

/** The route template of an attempt's path (`/v2/crawl/{id}`): low-cardinality, for the span's name and `url.template`. */
function routeTemplate(e: HookEventBase): string {
  if (e.route !== undefined) return e.route;
  return e.path.replace(/\/[^/]*\d[^/]*(?=\/|$)/g, (seg) => (/^\/v\d+$/.test(seg) ? seg : "/{id}"));
}
