/**
 * Agent jobs: `POST /v2/agent`, `GET /v2/agent/<id>`, `DELETE /v2/agent/<id>`
 * (reference §9). The waiter lives in `jobs/waiters.ts`.
 */
import { checkJsonOptions, optionsArg, type Checked } from "../core/options.js";
import { anyObject } from "../core/response.js";
import { type APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check, httpUrl } from "../core/validate.js";
import { PROMPT } from "./limits.js";
import { statusOf, TASK_START, taskStatus, type ExtractOptions, type ExtractStartResult, type ExtractStatus } from "./extract.js";
import { type Endpoint, rejectOfficialForm, rejectOfficialKeys, send, sendChecked, withChecked } from "./endpoint.js";
import { wireSchema } from "./schema.js";
import { webhookSchema, type AgentWebhookConfig } from "./webhooks.js";

/** Options of {@link startAgent} (besides the required prompt). */
export interface AgentOptions extends Pick<ExtractOptions, "schema" | "origin" | "integration"> {
  /** Pages to start from. */
  urls?: string[];
  /** Credit budget (above 2500 never uses a free request). */
  maxCredits?: number;
  /** Stay on the given URLs. */
  strictConstrainToURLs?: boolean;
  /** Model (server default `spark-1-pro`). */
  model?: "spark-1-pro" | "spark-1-mini" | (string & {});
  /** Where the service POSTs agent events. */
  webhook?: AgentWebhookConfig;
}

/** An agent request as one object, `{ prompt, ...options }` (the form `webdata/firecrawl`'s `agent(request)` takes; `WebData` takes `agent(prompt, options)`). */
export interface AgentRequest extends AgentOptions {
  /** What the agent should do (1..10000 characters). */
  prompt: string;
}

/** `POST /v2/agent` answer. */
export interface AgentStartResult extends Pick<ExtractStartResult, "id"> {}

/** Status of an agent job (`GET /v2/agent/<id>`). */
export interface AgentStatus<T = unknown> extends Pick<ExtractStatus, "id" | "status" | "error" | "creditsUsed"> {
  /** The result (only when completed). */
  data?: T;
  /** The model used. */
  model?: string;
  /** ISO time when the result is dropped (start + 24 h). */
  expiresAt?: string;
}

const agentBody = z.looseObject({
  prompt: z.string().check(z.minLength(PROMPT.min), z.maxLength(PROMPT.max)),
  urls: z.optional(z.array(httpUrl)),
  maxCredits: z.optional(z.number().check(z.positive())),
  strictConstrainToURLs: z.optional(z.boolean()),
  model: z.optional(z.string()),
  webhook: z.optional(webhookSchema(["started", "action", "completed", "failed", "cancelled"])),
  origin: z.optional(z.string()),
  integration: z.optional(z.string()),
});

/** `POST /v2/agent`: the options checked, the schema converted. */
const AGENT: Endpoint<[string, AgentOptions], unknown, AgentStartResult> = { op: "agent.start",
  path: "/v2/agent",
  body: (prompt, given) => {
    rejectOfficialForm("agent", prompt, "agent options");
    checkJsonOptions(given, "agent options");
    rejectOfficialKeys("startAgent", given, "agent options");
    const { schema, ...rest } = given;
    const plain = check(agentBody, { ...rest, prompt }, "agent options");
    return schema === undefined ? plain : { ...plain, schema: wireSchema(schema) };
  },
  ...TASK_START,
};

const AGENT_STATUS = taskStatus("agent.status", "/v2/agent", statusOf);

/** `DELETE /v2/agent/<id>`: the answer's `success`. */
const CANCEL: Endpoint<[id: string], { success?: boolean }, boolean> = { op: "agent.cancel", method: "DELETE", path: "/v2/agent/{id}", response: anyObject, map: (r) => r.success !== false };

/** `POST /v2/agent`. Not de-duplicated by the server: retried only after 429 or a refused connection. */
export function startAgent(http: HttpClient, prompt: string, given?: AgentOptions | null, req?: RequestOptions | null): APIPromise<AgentStartResult> {
  return withChecked(req, (checked) => startAgentWith(http, prompt, optionsArg(given, "agent options"), checked));
}

/** {@link startAgent} with its request options checked and its options an object (`agent()` checked them): the agent options' schema runs here, once. */
export function startAgentWith(http: HttpClient, prompt: string, given: AgentOptions, req: Checked<RequestOptions>): APIPromise<AgentStartResult> {
  return sendChecked(http, AGENT, req, prompt, given);
}

/** `GET /v2/agent/<id>`. A failed job comes back as `status: "failed"`, not thrown. */
export function getAgentStatus<T = unknown>(http: HttpClient, id: string, req?: RequestOptions): APIPromise<AgentStatus<T>> {
  return send(http, AGENT_STATUS, req, id) as APIPromise<AgentStatus<T>>;
}

/** `DELETE /v2/agent/<id>`: `true` once cancelled; 409 `ConflictError` when already finished or cancelled. */
export function cancelAgent(http: HttpClient, id: string, req?: RequestOptions): APIPromise<boolean> {
  return send(http, CANCEL, req, id);
}
