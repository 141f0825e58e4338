/**
 * Feedback, added by the service after the reference's baseline (§14): rate a
 * search's results or any job; a `bad` rating may refund credits. Wire as the
 * official client 4.x sends it. Not retried after a failure that may have
 * recorded it (a second one answers `alreadySubmitted`).
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { anyObject } from "../core/response.js";
import { check, httpUrl } from "../core/validate.js";
import { withoutSuccess } from "./crawl.js";
import { send, type Endpoint } from "./endpoint.js";
import type { ScrapeParams } from "./scrape.js";

/** Options of `searchFeedback`. */
export interface SearchFeedbackOptions extends Pick<ScrapeParams, "origin"> {
  rating: "good" | "partial" | "bad";
  /** Results that were useful, and why. */
  valuableSources?: { url: string; reason?: string }[];
  /** What the results lacked. */
  missingContent?: { topic: string; description?: string }[];
  /** Queries that would have worked better. */
  querySuggestions?: string;
  integration?: string | null;
}

/** The server's record of the feedback. */
export interface FeedbackResult {
  feedbackId: string;
  /** Credits given back for this search. */
  creditsRefunded: number;
  /** True when feedback for this search was already recorded (nothing changed). */
  alreadySubmitted?: boolean;
  /** True when the team's daily refund cap was reached. */
  dailyCapReached?: boolean;
  creditsRefundedToday?: number;
  dailyRefundCap?: number;
  /** A warning from the server. */
  warning?: string;
}

const feedbackBody = z.looseObject({
  rating: z.enum(["good", "partial", "bad"]),
  valuableSources: z.optional(z.array(z.looseObject({ url: httpUrl, reason: z.optional(z.string()) }))),
  missingContent: z.optional(z.array(z.looseObject({ topic: z.string().check(z.minLength(1)), description: z.optional(z.string()) }))),
  querySuggestions: z.optional(z.string()),
  integration: z.optional(z.nullable(z.string())),
  origin: z.optional(z.string()),
});

/** Options of `feedback`: rate any job of `search`, `scrape`, `parse` or `map` (`POST /v2/feedback`). */
export interface FeedbackOptions extends SearchFeedbackOptions {
  /** The endpoint that ran the job. */
  endpoint: "search" | "scrape" | "parse" | "map";
  /** The job's id (a scrape's `metadata.scrapeId`, a search's `id`). */
  jobId: string;
  /** Issue codes (`[a-z0-9_-]`, at most 20). */
  issues?: string[];
  /** Tags, as issue codes (at most 20). */
  tags?: string[];
  /** A note (at most 4000 characters). */
  note?: string;
  /** The page concerned. */
  url?: string;
  /** The pages concerned (of a PDF). */
  pageNumbers?: number[];
  /** Small endpoint-specific metadata (at most 8 KB as JSON). */
  metadata?: Record<string, unknown>;
}

const endpointBody = z.looseObject({ ...feedbackBody.shape, endpoint: z.enum(["search", "scrape", "parse", "map"]), jobId: z.string().check(z.minLength(1)) }).check(
  z.refine((b) => ["issues", "tags", "note", "valuableSources", "missingContent", "querySuggestions", "url", "pageNumbers"].some((k) => (b as Record<string, { length?: number }>)[k]?.length), {
    message: "give at least one signal besides the rating: issues, tags, note, valuableSources, missingContent, querySuggestions, url or pageNumbers",
  }),
);

const FEEDBACK: Endpoint<[options: FeedbackOptions], FeedbackResult & { success?: boolean }, FeedbackResult> = { op: "feedback",
  path: "/v2/feedback",
  body: (options) => check(endpointBody, options, "feedback options"),
  retry: "not-idempotent",
  response: anyObject,
  map: withoutSuccess,
};

const SEARCH_FEEDBACK: Endpoint<[searchId: string, options: SearchFeedbackOptions], FeedbackResult & { success?: boolean }, FeedbackResult> = { op: "search.feedback",
  path: "/v2/search/{id}/feedback",
  body: (_id, options) => check(feedbackBody, options, "searchFeedback options"),
  retry: "not-idempotent",
  response: anyObject,
  map: withoutSuccess,
};

/**
 * `POST /v2/feedback` (server: `controllers/v2/feedback/controller.ts`, `endpointFeedbackSchema`): the body as
 * given; the server wants at least one signal besides the rating (400 `INVALID_BODY` otherwise), 404
 * `JOB_NOT_FOUND` for a job it does not know. Not retried once it may have been recorded.
 */
export function feedback(http: HttpClient, options: FeedbackOptions, req?: RequestOptions): APIPromise<FeedbackResult> {
  return send(http, FEEDBACK, req, options);
}

/** `POST /v2/search/:jobId/feedback`. */
export function searchFeedback(http: HttpClient, searchId: string, options: SearchFeedbackOptions, req?: RequestOptions): APIPromise<FeedbackResult> {
  return send(http, SEARCH_FEEDBACK, req, searchId, options);
}
