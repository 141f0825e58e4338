/**
 * The 409 the service sends when an `x-idempotency-key` was used before (or is
 * not a UUID): a distinct error class, so a retried job start can tell "this
 * job already exists" from other conflicts. Used by v2 crawl and v1 crawl and
 * batch starts (reference §1.1).
 */
import { IdempotencyConflictError, type APIError } from "../core/errors.js";

export { IdempotencyConflictError } from "../core/errors.js";

/** `RequestSpec.mapError` for job starts that send an idempotency key. */
export function idempotencyConflict(err: APIError): APIError {
  if (err.status === 409 && /idempotency key/i.test(err.serverMessage)) {
    return new IdempotencyConflictError({
      status: err.status,
      message: err.serverMessage,
      code: err.code,
      details: err.details,
      requestId: err.requestId,
      body: err.body,
      headers: err.headers,
      endpoint: err.endpoint,
    });
  }
  return err;
}
