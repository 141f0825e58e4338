/** Recognising zod schemas by shape (zod 4: `_zod.def`; zod 3: `_def.typeName`). */

/** Any zod 3 or zod 4 schema, structurally. */
export interface ZodLike {
  /** zod 3: the definition (`typeName`, ...). */
  _def?: Record<string, unknown>;
  /** zod 4: the internals (`def`, ...). */
  _zod?: { def: Record<string, unknown>; optin?: string };
}

/** True for a zod 3 or zod 4 schema. */
export function isZodSchema(value: unknown): value is ZodLike {
  if (typeof value !== "object" || value === null) return false;
  const v = value as ZodLike;
  return (typeof v._zod === "object" && v._zod !== null && typeof v._zod.def === "object") || typeof v._def?.typeName === "string";
}

/** A JSON Schema object, as the wire takes it. */
export type JsonSchema = Record<string, unknown>;

/** Options for zod 4's own converters: a `Date` is an ISO string on the wire; other unrepresentable types accept anything. */
export const zod4Options = {
  unrepresentable: (ctx: { zodSchema: { _zod?: { def?: { type?: string } } } }) =>
    ctx.zodSchema._zod?.def?.type === "date" ? { type: "string", format: "date-time" } : "any",
} as const;
