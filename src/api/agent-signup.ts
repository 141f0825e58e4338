/**
 * Agent signup: `POST /v2/agent-signup` (spec 4.4, §7; reference §11).
 * Unauthenticated: no `Authorization` header is sent even when the client has
 * a key. Each documented failure becomes its own error class.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { check } from "../core/validate.js";
import { send, type Endpoint } from "./endpoint.js";

/** Body of {@link agentSignup}. Field names are the wire's. */
export interface AgentSignupParams {
  /** The human sponsor's e-mail address; they receive the verification e-mail. */
  email: string;
  /** Name of the agent, 1..100 characters, shown in the e-mail. */
  agent_name: string;
  /** Must be `true`: the sponsor accepts the Terms of Service. */
  accept_terms: true;
}

/** The provisioned key (spec 2.4). */
export interface AgentSignupRecord {
  /** Whether the key was created. */
  success: boolean;
  /** The provisioned API key (`fc-...`). Usable at once, limited to 50 credits until the sponsor confirms. */
  api_key: string;
  /** `pending` on creation. */
  sponsor_status: string;
  /** Credits available before verification (50). */
  credit_limit: number;
  /** Credits remaining (50 on creation). */
  credits_remaining: number;
  /** The sponsor must confirm before this ISO 8601 time (5 days after creation). */
  verification_deadline_at: string;
  /** URL of the accepted Terms of Service. */
  tos_url: string;
}

export { SignupError, type SignupRefusal } from "../core/errors.js";

/** The sponsor's consent, as `accept_terms` must say it: every wrong value gets this one message. */
const MUST_ACCEPT = "must be true: the sponsor has to accept the Terms of Service";

// `true` as a boolean that is true, with one message for every wrong value: no literal schema class of zod's
// only for this call (about 70 bytes gzipped of every `WebData` bundle).
const signupBody = z.looseObject({
  email: z.email({ message: "must be a valid e-mail address" }),
  agent_name: z.string().check(z.minLength(1), z.maxLength(100)),
  accept_terms: z.boolean({ message: MUST_ACCEPT }).check(z.refine((v) => v, { message: MUST_ACCEPT })),
});

/** What {@link agentSignup} must get back: the provisioned key. */
const signupAnswer = z.looseObject({ api_key: z.string() });

const SIGNUP: Endpoint<[params: AgentSignupParams], AgentSignupRecord> = { op: "agent.signup",
  path: "/v2/agent-signup",
  body: (params) => check(signupBody, params, "agent signup"),
  auth: false,
  retry: "not-sent-only",
  response: signupAnswer,
};

/** `POST /v2/agent-signup`. Retried only when the request provably never left (a 429 here is a daily limit). */
export function agentSignup(http: HttpClient, params: AgentSignupParams, req?: RequestOptions): APIPromise<AgentSignupRecord> {
  return send(http, SIGNUP, req, params);
}
