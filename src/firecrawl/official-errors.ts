/**
 * The drop-in's errors carry what code written for the official client reads
 * (`err.status`, `err.code`, `err.details`, `err.message`), with the official
 * values where webdata's error has none:
 *
 * - an HTTP error whose body has no `code`: `code` is `ERR_BAD_REQUEST` (4xx) or
 *   `ERR_BAD_RESPONSE` (5xx), as the official client reports it, and `details`
 *   the answer's body when it has no `details`;
 * - a request webdata refuses before sending that the server would refuse too
 *   (a `ValidationError` of the request's options): `status` 400, `code`
 *   `BAD_REQUEST` and `details` the issues (`{ code, path, message }`), as the
 *   server's 400 reads through the official client.
 *
 * A method webdata does not support, and an argument the official client itself
 * refuses (an empty URL), keep no `status`: the official client sends nothing there either.
 *
 * `name` is the official `SdkError`'s, `FirecrawlSdkError`, on every error the official client
 * raises as an `SdkError` (code written for it compares `err.name === "FirecrawlSdkError"`, where a
 * second copy of the package defeats `instanceof`); the class stays webdata's (`instanceof NotFoundError`,
 * `err.constructor.name`). `JobTimeoutError` keeps its name (the official one's too), `AbortError` its
 * (the platform's name for a cancelled call; the official client takes no signal), and an argument the
 * official client refuses itself (its plain `Error`, not an `SdkError`) stays a `ValidationError`.
 */
import { AbortError, APIError, JobTimeoutError, ValidationError, WebDataError } from "../core/errors.js";
import { APIPromise } from "../core/request.js";

/** The official client's own message for an empty or blank URL (it refuses it before sending). */
export const EMPTY_URL = "URL cannot be empty";

/** The official `SdkError`'s `name`. */
export const SDK_ERROR_NAME = "FirecrawlSdkError";

/** Marks the drop-in's errors that stand for one the official client raises itself (no HTTP answer behind them): left as they are. */
const OWN: unique symbol = Symbol("webdata.officialOwn");

/**
 * An argument the official client refuses itself, before sending (`query cannot be empty`, `k must be
 * positive`, ...): a `ValidationError` whose message holds its words, with no `status` (nothing was sent).
 */
export function officialRefusal(message: string, path: string, context = "arguments"): ValidationError {
  const err = new ValidationError([{ path, message }], context);
  set(err, OWN, true);
  return err;
}

/** A failure the official client reads from a 2xx answer (a catalogue call's own error): its message, `status` and `code` as it gives them. */
export function officialFailure(message: string, status?: number, code?: string): WebDataError {
  const err = new WebDataError(message);
  if (status !== undefined) set(err, "status", status);
  if (code !== undefined) set(err, "code", code);
  set(err, "name", SDK_ERROR_NAME);
  set(err, OWN, true);
  return err;
}

/**
 * An own, non-enumerable property (not in JSON or `toEqual`), as the official fields are read; the drop-in
 * classes define their made methods with it too (as a class's own methods are: writable, not enumerable).
 */
export function set(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true, writable: true });
}

/** `err` with the official fields added (the same object). */
export function officialError(err: unknown): unknown {
  if (err instanceof APIError) {
    if (err.code === undefined) set(err, "code", err.status >= 500 ? "ERR_BAD_RESPONSE" : "ERR_BAD_REQUEST");
    if (err.details === undefined && err.body !== undefined) set(err, "details", err.body);
    set(err, "name", SDK_ERROR_NAME);
    return err;
  }
  if (typeof err === "object" && err !== null && OWN in err) return err;
  if (err instanceof ValidationError && !("status" in err)) {
    const own = err.issues.some((i) => i.message === EMPTY_URL || i.message.startsWith("not supported by webdata"));
    if (own) return err;
    set(err, "name", SDK_ERROR_NAME);
    set(err, "status", 400);
    set(err, "code", "BAD_REQUEST");
    set(err, "details", err.zodIssues.length > 0 ? err.zodIssues : err.issues.map((i) => ({ code: "custom", path: i.path === "" ? [] : i.path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: i.message })));
    return err;
  }
  if (err instanceof WebDataError && !(err instanceof JobTimeoutError) && !(err instanceof AbortError) && !(err instanceof ValidationError)) set(err, "name", SDK_ERROR_NAME);
  return err;
}

/**
 * A research index error as the official `firecrawl.research` reads it: an answer in the problem format
 * (`{ type, title, detail }`) gives `code` its `type`, `details` the body and the message its `detail` (else `title`)
 * first; any other error as {@link officialError}.
 */
export function researchError(err: unknown): never {
  if (err instanceof APIError && err.code === undefined && isProblem(err.body)) {
    set(err, "code", err.body.type);
    set(err, "details", err.body);
    // The official message is the problem's detail (else its title): it leads ours, before the status line.
    const text = err.body.detail || err.body.title;
    if (text && !err.message.includes(text)) set(err, "message", `${text}: ${err.message}`);
  }
  throw err;
}

function isProblem(body: unknown): body is { type?: string; title?: string; detail?: string } {
  return typeof body === "object" && body !== null && (typeof (body as { detail?: unknown }).detail === "string" || typeof (body as { title?: unknown }).title === "string");
}

/** `result` (a call's return) with its failure given the official fields; an `APIPromise` stays one. */
export function officially<T>(result: T): T {
  const adapt = (e: unknown): never => {
    throw officialError(e);
  };
  if (result instanceof APIPromise) return new APIPromise((result as APIPromise<unknown>).withResponse().catch(adapt)) as T;
  if (result instanceof Promise) return result.catch(adapt) as T;
  return result;
}

/** Runs `call`, giving a failure (thrown or rejected) the official fields. */
export function runOfficially<T>(call: () => T): T {
  try {
    return officially(call());
  } catch (err) {
    throw officialError(err);
  }
}

/** A rejected call (an `APIPromise`, so `.withResponse()` works) with the official empty-URL message, when `url` is empty or blank. */
export function emptyUrl(url: unknown, context: string): APIPromise<never> | undefined {
  if (typeof url !== "string" || url.trim() !== "") return undefined;
  return new APIPromise(Promise.reject(new ValidationError([{ path: "url", message: EMPTY_URL }], context)));
}
