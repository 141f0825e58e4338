/**
 * What a tool call gives back to a model, cut by `reading.ts`, and errors as results a model can act on
 * ("rate limited, retry after 3 s"), never throws that end the agent loop.
 */
import {
  APIError,
  AuthenticationError,
  JobFailedError,
  JobTimeoutError,
  PaymentRequiredError,
  RateLimitError,
  TimeoutError,
  ValidationError,
  WebDataError,
} from "../core/errors.js";

/** The answer of one tool call, in the shape every adapter maps from. */
export interface ToolResult {
  /** Text for the model (markdown or JSON), within the budget. */
  content: string;
  /** True when the call failed; `content` then says why and what to do. */
  isError: boolean;
}

/** A failure the model can act on. */
export function failure(message: string): ToolResult {
  return { content: message, isError: true };
}

/** Turns whatever a call threw into a result a model can act on. */
export function errorResult(err: unknown): ToolResult {
  if (err instanceof ValidationError) return failure(`invalid arguments: ${err.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`);
  if (err instanceof RateLimitError) {
    const wait = err.retryAfterMs === undefined ? "" : `, retry after ${Math.ceil(err.retryAfterMs / 1000)} s`;
    return failure(`rate limited by the service${wait}`);
  }
  if (err instanceof PaymentRequiredError) return failure("the account has no credits left for this request; try a smaller request (lower limit) or stop");
  if (err instanceof AuthenticationError) return failure("the service refused the API key; this cannot be fixed by retrying");
  if (err instanceof JobTimeoutError) return failure(`the job ${err.jobId} is still running; check it later with the status tool and id ${err.jobId}`);
  if (err instanceof JobFailedError) return failure(`the job ${err.jobId} failed: ${err.message}`);
  if (err instanceof TimeoutError) return failure("the request timed out; retry once, or ask for less (fewer formats, a shorter page)");
  if (err instanceof APIError) return failure(`the service answered ${err.status}: ${err.message}`);
  if (err instanceof WebDataError) return failure(`${err.name}: ${err.message}`);
  return failure(`unexpected error: ${err instanceof Error ? err.message : String(err)}`);
}
