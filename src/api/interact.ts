/**
 * Scrape interaction, added by the service after the reference's baseline
 * (§14: `POST`/`DELETE /v2/scrape/:jobId/interact`): run code or a prompt in
 * the browser that scraped a page (the scrape's `metadata.scrapeId`), then end
 * it. Wire as the official client 4.x sends it. Not retried after a failure
 * that may have run the code.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { anyObject } from "../core/response.js";
import { check, int } from "../core/validate.js";
import { withoutSuccess } from "./crawl.js";
import { send, type Endpoint } from "./endpoint.js";
import type { BrowserExecuteOptions, BrowserExecuteResult, BrowserSession } from "./browser.js";

/** Options of `interact`: `code` or `prompt`. */
export interface InteractOptions extends Pick<BrowserExecuteOptions, "language" | "origin"> {
  /** Code to run in the page's browser. */
  code?: string;
  /** What to do, in words (instead of `code`). */
  prompt?: string;
  /** Server-side limit in **seconds** (the wire's unit). */
  timeout?: number;
}

/** What an interaction produced (`POST /v2/scrape/:id/interact`). Fields the server did not send are absent. */
export interface InteractResult
  extends Partial<Pick<BrowserExecuteResult, "stdout" | "stderr" | "result" | "exitCode" | "killed">>, Partial<Pick<BrowserSession, "cdpUrl" | "liveViewUrl" | "interactiveLiveViewUrl">> {
  /** The answer to a `prompt`. */
  output?: string;
  /** Whether the output was cut. */
  truncated?: boolean;
  error?: string;
}

/** What `stopInteraction` reports besides `success`. */
export interface StopInteractionResult {
  /** Session status after the stop. */
  status?: string;
  /** How long the session ran, ms. */
  sessionDurationMs?: number;
  creditsBilled?: number;
}

const interactBody = z
  .looseObject({
    code: z.optional(z.string().check(z.minLength(1))),
    prompt: z.optional(z.string().check(z.minLength(1))),
    language: z.optional(z.enum(["node", "python", "bash"])),
    timeout: z.optional(int(1)),
    origin: z.optional(z.string()),
  })
  .check(z.refine((o) => typeof o.code === "string" || typeof o.prompt === "string", { message: "either code or prompt must be provided" }));

/** The `timeout` (seconds) is read by the route's `SERVER_TIMEOUTS` row. */
const INTERACT: Endpoint<[jobId: string, options: InteractOptions], InteractResult & { success?: boolean }, InteractResult> = { op: "interact",
  path: "/v2/scrape/{id}/interact",
  occupies: true,
  body: (_id, options) => check(interactBody, options, "interact options"),
  retry: "not-idempotent",
  response: anyObject,
  map: withoutSuccess,
};

const STOP: Endpoint<[jobId: string], StopInteractionResult & { success?: boolean }, StopInteractionResult> = { op: "interact.stop", method: "DELETE", path: "/v2/scrape/{id}/interact", response: anyObject, map: withoutSuccess };

/** `POST /v2/scrape/:jobId/interact`. */
export function interact(http: HttpClient, jobId: string, options: InteractOptions, req?: RequestOptions): APIPromise<InteractResult> {
  return send(http, INTERACT, req, jobId, options);
}

/** `DELETE /v2/scrape/:jobId/interact`: ends the page's browser session. */
export function stopInteraction(http: HttpClient, jobId: string, req?: RequestOptions): APIPromise<StopInteractionResult> {
  return send(http, STOP, req, jobId);
}
