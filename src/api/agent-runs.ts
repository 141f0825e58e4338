/**
 * Agent runs beyond start/status/cancel, added by the service after the
 * reference's baseline (§14 names `/trace` and `/snapshots`): the team's runs,
 * a run's trace and an artifact snapshot (each function names its route). Wire
 * as the official client 4.x reads it; the trace events are typed loosely
 * (their schema is versioned by the server: `schemaVersion`).
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { anyObject, objects } from "../core/response.js";
import { check, int } from "../core/validate.js";
import { withoutSuccess } from "./crawl.js";
import { send, type Endpoint } from "./endpoint.js";

/** One run of `listAgents`. */
export interface AgentRun {
  /** Job id. */
  id: string;
  /** Creation time, ISO 8601. */
  createdAt: string;
  status: "processing" | "completed" | "failed" | (string & {});
  /** A short description of the target. */
  targetHint?: string;
  /** Origin tag of the start. */
  origin?: string;
  /** Integration name of the start. */
  integration?: string;
  /** Dashboard settings (`hidden`, `starred`, `label`). */
  settings?: { hidden?: boolean; starred?: boolean; label?: string };
  /** The start's options (`prompt`, `urls`, `schema`, `model`, ...). */
  options?: Record<string, unknown>;
}

/** `GET /v2/agent`: one page of runs, newest first (20 per page). */
export interface AgentRunList {
  agents: AgentRun[];
  /** Absolute URL of the next page (its `before` query value continues the list); absent on the last page. */
  next?: string;
}

/** Options of `listAgents`. */
export interface AgentListOptions {
  /** Only runs created before this time, in **milliseconds** since the epoch (the `before` of a `next` URL). */
  before?: number;
}

/** One event of an agent trace (`events[]`): `type` (`run.started`, `tool_call.finished`, `artifact.updated`, ...) plus its fields. */
export interface AgentTraceEvent {
  type: string;
  /** Server time, ISO 8601. */
  occurredAt?: string;
  /** Order within the run. */
  producerSequence?: number;
  /** Every other field of the event, as the server sent it. */
  [field: string]: unknown;
}

/** `GET /v2/agent/:id/trace`. */
export interface AgentTrace extends Partial<Pick<AgentRun, "id">> {
  /** The run's events, in order. */
  events: AgentTraceEvent[];
  /** Credits used so far. */
  creditsUsed?: number;
  /** Browser sessions running now (with `liveView: true`). */
  activeBrowserSessions?: { id: string; liveViewUrl: string; viewport?: { width: number; height: number } }[];
}

/** `GET /v2/agent/:id/snapshots/:snapshotId`: the full content of an artifact named by an `artifact.updated` event. */
export interface AgentSnapshot extends Partial<Pick<AgentRun, "id">> {
  snapshotId?: string;
  /** The artifact's content (JSON or text, as a string). */
  snapshot?: string;
}

const listQuery = z.object({ before: z.optional(int(0)) });

/** What {@link listAgents} reads. */
const agentListAnswer = z.looseObject({ agents: z.optional(objects) });

/** What {@link getAgentTrace} reads. */
const agentTraceAnswer = z.looseObject({ events: z.optional(objects) });

const traceQuery = z.object({ liveView: z.optional(z.boolean()) });

const LIST: Endpoint<[options: AgentListOptions], AgentRunList & { success?: boolean }, AgentRunList> = { op: "agent.list",
  path: "/v2/agent",
  query: (options) => ({ before: check(listQuery, options ?? {}, "listAgents options").before }),
  response: agentListAnswer,
  map: (r) => ({ ...withoutSuccess(r), agents: Array.isArray(r.agents) ? r.agents : [] }),
};

const TRACE: Endpoint<[id: string, options: { liveView?: boolean }], AgentTrace & { success?: boolean }, AgentTrace> = { op: "agent.trace",
  path: "/v2/agent/{id}/trace",
  query: (_id, options) => ({ liveView: check(traceQuery, options ?? {}, "getAgentTrace options").liveView ? true : undefined }),
  response: agentTraceAnswer,
  map: (r) => ({ ...withoutSuccess(r), events: Array.isArray(r.events) ? r.events : [] }),
};

const SNAPSHOT: Endpoint<[id: string, snapshotId: string], AgentSnapshot & { success?: boolean }, AgentSnapshot> = { op: "agent.snapshot", path: "/v2/agent/{id}/snapshots/{snapshotId}", response: anyObject, map: withoutSuccess };

/** `GET /v2/agent[?before=]`. */
export function listAgents(http: HttpClient, options: AgentListOptions = {}, req?: RequestOptions): APIPromise<AgentRunList> {
  return send(http, LIST, req, options);
}

/** `GET /v2/agent/:id/trace[?liveView=true]`. */
export function getAgentTrace(http: HttpClient, id: string, options: { liveView?: boolean } = {}, req?: RequestOptions): APIPromise<AgentTrace> {
  return send(http, TRACE, req, id, options);
}

/** `GET /v2/agent/:id/snapshots/:snapshotId`. */
export function getAgentSnapshot(http: HttpClient, id: string, snapshotId: string, req?: RequestOptions): APIPromise<AgentSnapshot> {
  return send(http, SNAPSHOT, req, id, snapshotId);
}
