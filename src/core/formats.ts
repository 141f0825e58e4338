/**
 * The v2 format names this SDK knows, in one place: the request check's "did you mean" (`api/scrape.ts`,
 * where a name near one of these is refused before sending) and the explanation of a server's 400 for a
 * format it refused (`core/errors.ts`) read them. A name far from all of them is sent as given: the server
 * may know a format this SDK does not yet.
 */

/** The names `formats` takes as strings (`formats: ["markdown"]`; the server makes each `{ type: name }`). */
export const FORMAT_NAMES = ["markdown", "html", "rawHtml", "links", "summary", "images", "branding", "screenshot", "json", "changeTracking", "product", "menu", "audio", "video"] as const;

/** The formats written only as objects, for the field each requires (`{ type: "query", prompt }`). */
export const OBJECT_FORMAT_NAMES = ["attributes", "query", "question", "highlights"] as const;

/** The known format names as a message lists them. */
export const KNOWN_FORMATS_TEXT = `${FORMAT_NAMES.join(", ")}; as objects only: ${OBJECT_FORMAT_NAMES.join(", ")}`;
