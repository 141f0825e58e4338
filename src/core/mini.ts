/**
 * The request checker: a small schema builder with the `zod/mini` API subset
 * this SDK uses (`z.looseObject`, `z.optional`, `.check(z.refine(...))`, ...)
 * and zod 4's issue shapes and semantics, so the option checks read like zod
 * and report the same problems. It replaces `zod/mini` for request
 * validation: zod/mini cost 8.5 KB of the 20 KB browser budget; this costs
 * about 1.5 KB. (Users' own zod schemas for JSON extraction are read by
 * duck-typing in `api/zod-json.ts` and need no zod at run time either.)
 *
 * Semantics kept from zod 4: every problem is listed; an object's checks run
 * when its own fields have only "soft" problems (from checks: lengths, bounds,
 * patterns, refinements) unless `when` says otherwise; a failed union reports
 * the issues of the one option whose type matched, else `invalid_union`.
 * Unknown object keys are accepted (the server judges fields the SDK does not
 * know), and parsing never copies or changes the value.
 * @internal
 */

/** One problem, in zod 4's issue shape (`soft`: raised by a check, the type was right). */
export interface Issue {
  code: string;
  path: PropertyKey[];
  message?: string;
  expected?: string;
  origin?: string;
  minimum?: number;
  maximum?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: string;
  values?: unknown[];
  input?: unknown;
  soft?: boolean;
  /** zod's `continue: false` (a fraction given for an int): not even checks with `when` run above it. */
  fatal?: boolean;
}

/** A check run after the type test: pushes issues for `v` at `path`; `hard` tells that a type problem (or a `superRefine` issue) was found below or by an earlier check. */
export type Check<T> = (v: T, path: PropertyKey[], out: Issue[], hard: boolean) => void;

/** A schema: tests a value and lists its problems. `T` is the type it accepts. */
export interface Schema<T = unknown> {
  /** Type marker only (never set). */
  readonly _t?: T;
  /** Accepts `undefined` (an optional object field). */
  readonly opt?: boolean;
  /** Pushes the problems of `v` (at `path`) into `out`. */
  run(v: unknown, path: PropertyKey[], out: Issue[]): void;
  /** A copy with `checks` added (run after the type test, in order). */
  check(...checks: Check<T>[]): this;
  /** `{ success, error: { issues } }`, as zod's `safeParse` (the value is not copied). */
  safeParse(v: unknown): { success: boolean; error: { issues: Issue[] } };
}

/** The type a schema accepts. */
export type Infer<S> = S extends Schema<infer T> ? T : never;
type Shape = Record<string, Schema<unknown>>;
type ObjectOf<S extends Shape> = { [K in keyof S]: Infer<S[K]> } & Record<string, unknown>;
type Message = string | { message?: string };

const text = (m?: Message): string | undefined => (typeof m === "string" ? m : m?.message);

/** Builds a schema from a type test that returns false after pushing a type problem. */
function make<T>(test: (v: unknown, path: PropertyKey[], out: Issue[]) => boolean, checks: Check<T>[] = [], extra?: object): Schema<T> {
  const s: Schema<T> = {
    ...extra,
    run(v, path, out) {
      const start = out.length;
      if (!test(v, path, out)) return;
      for (const c of checks) {
        const below = out.slice(start);
        if (below.some((i) => i.fatal)) return;
        c(v as T, path, out, below.some((i) => !i.soft));
      }
    },
    check: (...more) => make(test, [...checks, ...more], extra) as never,
    safeParse(v) {
      const issues: Issue[] = [];
      s.run(v, [], issues);
      return { success: issues.length === 0, error: { issues } };
    },
  };
  return s;
}

/** A schema that accepts values for which `ok` holds, else reports `invalid_type` expecting `expected`. */
const typed = <T>(expected: string, ok: (v: unknown) => boolean, m?: Message): Schema<T> =>
  make<T>((v, path, out) => ok(v) || (out.push({ code: "invalid_type", expected, path, message: text(m) }), false));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** zod's `isPlainObject`: no Map, Date or class instance (also true for objects of another realm and without prototype). */
const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v)) return false;
  const c = v.constructor;
  return typeof c !== "function" || (isObject(c.prototype) && Object.prototype.hasOwnProperty.call(c.prototype, "isPrototypeOf"));
};

/** Any string (`m`: the message for a non-string). */
export const string = (m?: Message): Schema<string> => typed("string", (v) => typeof v === "string", m);
/** A finite number. */
export const number = (): Schema<number> => typed("number", (v) => typeof v === "number" && Number.isFinite(v));
/** A safe integer (`invalid_type` expecting `int` for a fraction; a soft `too_big`/`too_small` beyond ±2^53-1, as zod). */
export const int = (): Schema<number> =>
  make((v, path, out) => {
    if (typeof v !== "number" || !Number.isFinite(v)) return out.push({ code: "invalid_type", expected: "number", path }), false;
    if (!Number.isInteger(v)) return out.push({ code: "invalid_type", expected: "int", format: "safeint", path, fatal: true }), false;
    if (v > Number.MAX_SAFE_INTEGER) issue(out, path, { code: "too_big", origin: "int", maximum: Number.MAX_SAFE_INTEGER, inclusive: true });
    if (v < Number.MIN_SAFE_INTEGER) issue(out, path, { code: "too_small", origin: "int", minimum: Number.MIN_SAFE_INTEGER, inclusive: true });
    return true;
  });
/** `true` or `false`. */
export const boolean = (): Schema<boolean> => typed("boolean", (v) => typeof v === "boolean");
/** Anything. */
export const unknown = (): Schema<unknown> => make(() => true);

/** Exactly `value`. */
export const literal = <const T extends string | number | boolean>(value: T, m?: Message): Schema<T> =>
  make((v, path, out) => v === value || (out.push({ code: "invalid_value", values: [value], path, message: text(m) }), false));

/** One of `options` (they are on `.options`). */
export const enum_ = <const T extends readonly string[]>(options: T): Schema<T[number]> & { options: T } =>
  make<T[number]>((v, path, out) => options.includes(v as string) || (out.push({ code: "invalid_value", values: [...options], path }), false), [], { options }) as Schema<T[number]> & { options: T };
export { enum_ as enum };

/** An array whose items match `item`. */
export const array = <T>(item: Schema<T>): Schema<T[]> =>
  make((v, path, out) => {
    if (!Array.isArray(v)) return out.push({ code: "invalid_type", expected: "array", path }), false;
    for (let i = 0; i < v.length; i++) item.run(v[i], [...path, i], out); // holes too (forEach skips them)
    return true;
  });

/** A plain object (not a Map, Date or class instance) whose values match `value` (keys are strings). */
export const record = <V>(_key: Schema<string>, value: Schema<V>): Schema<Record<string, V>> =>
  make((v, path, out) => {
    if (!isPlain(v)) return out.push({ code: "invalid_type", expected: "record", path }), false;
    for (const k of Object.keys(v)) value.run(v[k], [...path, k], out);
    return true;
  });

/** An object with the fields of `shape` (on `.shape`); other keys pass through unchecked. */
export const looseObject = <S extends Shape>(shape: S): Schema<ObjectOf<S>> & { shape: S } =>
  make<ObjectOf<S>>(
    (v, path, out) => {
      if (!isObject(v)) return out.push({ code: "invalid_type", expected: "object", path }), false;
      for (const k in shape) {
        const s = shape[k]!;
        if (s.opt && !(k in v)) continue;
        const n = out.length;
        s.run(v[k], [...path, k], out);
        // A missing key whose schema takes `undefined` (z.unknown()) is still missing, as in zod.
        if (out.length === n && !(k in v)) out.push({ code: "invalid_type", expected: "nonoptional", path: [...path, k] });
      }
      return true;
    },
    [],
    { shape },
  ) as Schema<ObjectOf<S>> & { shape: S };
/** Same as {@link looseObject}: unknown keys are never an error here (the server is their judge). */
export const object = looseObject;

/** `undefined`, or a value matching `s`. */
export const optional = <T>(s: Schema<T>): Schema<T | undefined> =>
  make((v, path, out) => (v !== undefined && s.run(v, path, out), true), [], { opt: true });

/** `null`, or a value matching `s` (optional if `s` is). */
export const nullable = <T>(s: Schema<T>): Schema<T | null> => make((v, path, out) => (v !== null && s.run(v, path, out), true), [], { opt: s.opt });

/** A value matching one of `options`. */
export const union = <O extends readonly Schema<unknown>[]>(options: O): Schema<Infer<O[number]>> =>
  make((v, path, out) => {
    if (options.length === 1) return options[0]!.run(v, path, out), true;
    const results = options.map((o) => {
      const issues: Issue[] = [];
      o.run(v, path, issues);
      return issues;
    });
    if (results.some((r) => r.length === 0)) return true;
    const typeMatched = results.filter((r) => r.every((i) => i.soft));
    if (typeMatched.length === 1) out.push(...typeMatched[0]!);
    else out.push({ code: "invalid_union", path });
    return true;
  }, [], { opt: options.some((o) => o.opt) });

/** A string in e-mail form (zod's pattern). */
export const email = (m?: Message): Schema<string> =>
  string(m).check(regex(/^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/, { message: text(m) }, "email"));

/** An absolute URL (spaces around it are ignored) whose scheme (without `:`) matches `protocol`; zod's `/^https?$/` also needs `//`. */
export const url = (o: { protocol?: RegExp; message?: string } = {}): Schema<string> =>
  string(o.message).check(
    refine((s) => {
      s = s.trim();
      if (o.protocol?.source === "^https?$" && !/^https?:\/\//i.test(s)) return false;
      try {
        const u = new URL(s);
        return !o.protocol || o.protocol.test(u.protocol.slice(0, -1));
      } catch {
        return false;
      }
    }, { message: o.message, format: "url" }),
  );

/** Soft issue at `path` (plus `at`), unless a type problem was found and `when` is not set. */
function issue(out: Issue[], path: PropertyKey[], i: Omit<Issue, "path">, at: PropertyKey[] = []): void {
  out.push({ ...i, path: [...path, ...at], soft: true });
}

/** Passes when `fn(value)` is truthy; else a `custom` issue (or `invalid_format` with `format`). */
export function refine<T>(fn: (v: T) => unknown, o: Message & { path?: PropertyKey[]; when?: () => boolean; format?: string } = {}): Check<T> {
  const opts = typeof o === "string" ? { message: o } : o;
  return (v, path, out, hard) => {
    if ((hard && !opts.when) || fn(v)) return;
    issue(out, path, opts.format ? { code: "invalid_format", format: opts.format, message: text(opts) } : { code: "custom", message: text(opts) }, opts.path);
  };
}

/** Context of {@link superRefine}: push issues with paths relative to the checked value. */
export interface RefineContext<T> {
  value: T;
  issues: { code: "custom"; path?: PropertyKey[]; message: string; input?: unknown }[];
}

/** Runs `fn`, which pushes any number of issues into `ctx.issues` (they stop later checks without `when`, as in zod). */
export function superRefine<T>(fn: (v: T, ctx: RefineContext<T>) => void, o: { when?: () => boolean } = {}): Check<T> {
  return (v, path, out, hard) => {
    if (hard && !o.when) return;
    const ctx: RefineContext<T> = { value: v, issues: [] };
    fn(v, ctx);
    for (const { path: at, ...rest } of ctx.issues) out.push({ ...rest, path: [...path, ...(at ?? [])] });
  };
}

/** Items, or characters counted in code points as zod does ("😀" is one). */
const size = (v: unknown): number => (typeof v === "string" ? v.length - (v.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0) : (v as unknown[]).length);
const originOf = (v: unknown): string => (Array.isArray(v) ? "array" : "string");

/** At least `n` characters or items. */
export const minLength = (n: number, m?: Message): Check<{ length: number }> => (v, path, out) => {
  if (size(v) < n) issue(out, path, { code: "too_small", origin: originOf(v), minimum: n, inclusive: true, message: text(m) });
};
/** At most `n` characters or items. */
export const maxLength = (n: number, m?: Message): Check<{ length: number }> => (v, path, out) => {
  if (size(v) > n) issue(out, path, { code: "too_big", origin: originOf(v), maximum: n, inclusive: true, message: text(m) });
};
/** A number `>= n`. */
export const gte = (n: number, m?: Message): Check<number> => (v, path, out, hard) => {
  if (!hard && v < n) issue(out, path, { code: "too_small", origin: "number", minimum: n, inclusive: true, message: text(m) });
};
/** A number `<= n`. */
export const lte = (n: number, m?: Message): Check<number> => (v, path, out, hard) => {
  if (!hard && v > n) issue(out, path, { code: "too_big", origin: "number", maximum: n, inclusive: true, message: text(m) });
};
/** A number `> 0`. */
export const positive = (m?: Message): Check<number> => (v, path, out, hard) => {
  if (!hard && !(v > 0)) issue(out, path, { code: "too_small", origin: "number", minimum: 0, inclusive: false, message: text(m) });
};
/** A string matching `re` (`invalid_format`, format `regex` unless given). */
export function regex(re: RegExp, m?: Message, format = "regex"): Check<string> {
  return (v, path, out, hard) => {
    re.lastIndex = 0; // a `g` or `y` pattern would otherwise start where the last match ended
    if (!hard && !re.test(v)) issue(out, path, { code: "invalid_format", origin: "string", format, pattern: String(re), message: text(m) });
  };
}
