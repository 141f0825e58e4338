/**
 * Redaction of the API key in what the fake records ({@link REDACTED} in its
 * place, as in the client's logs), so a test can print or snapshot `fake.requests` safely.
 */

/** The marker that stands for the key (the client's logs use the same). */
export const REDACTED = "[redacted]";

/** The token of an `authorization` header value (`Bearer <token>`), if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const token = header.trim().split(/\s+/)[1];
  return token || undefined;
}

/** A copy of lower-cased `headers` in which the bearer token appears nowhere. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const token = bearerToken(headers.authorization);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === "authorization") out[name] = token ? `${value.trim().split(/\s+/)[0]} ${REDACTED}` : value.trim() ? REDACTED : value;
    else out[name] = token && token.length >= 4 ? value.split(token).join(REDACTED) : value;
  }
  return out;
}
