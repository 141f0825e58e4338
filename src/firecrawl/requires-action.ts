/**
 * Official name of an out-of-band step the service requires before the request can succeed, such as
 * accepting a provider's data terms (an error body's `requiresAction`). On the drop-in entry only.
 */
export interface RequiresAction {
  /** What to do: `accept_terms`, or a kind this SDK does not know yet. */
  type: "accept_terms" | (string & {});
  /** The terms to accept. */
  terms?: string;
  /** Their version. */
  version?: string;
  /** Where a person accepts them. */
  url?: string;
}

/**
 * The official `parseRequiresAction`: reads a `requiresAction` value from an
 * error body (`parseRequiresAction(err.body?.requiresAction)` on webdata's
 * `APIError`). An object with a string `type` gives a new {@link RequiresAction}
 * with `type` and whichever of `terms`, `version` and `url` are strings; other
 * fields, and fields of other types, are left out. Anything else (not an
 * object, no string `type`) gives `undefined`.
 */
export function parseRequiresAction(value: unknown): RequiresAction | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { type, terms, version, url } = value as Partial<Record<keyof RequiresAction, unknown>>;
  if (typeof type !== "string") return undefined;
  const action: RequiresAction = { type };
  if (typeof terms === "string") action.terms = terms;
  if (typeof version === "string") action.version = version;
  if (typeof url === "string") action.url = url;
  return action;
}
