/**
 * Request body values known only after a module loads (a user's schema whose
 * converter is loaded on first use). The body is still serialised at the call,
 * with a placeholder for each such value; the request goes out once they are
 * filled in, so changing the options object after the call cannot change it.
 */

import { WebDataError } from "./errors.js";
import { uuid } from "./retry.js";

const pending = new WeakMap<object, Promise<unknown>>();
let made = 0;
let filling = false;

/** The placeholders' prototype: a plain object to zod, but serialising one anywhere but {@link fillLater} is a bug, not a silent `{}`. */
const SLOT: object = Object.create(Object.prototype, {
  toJSON: {
    value(this: object): object {
      if (!filling) throw new WebDataError("A request body value was serialised before it was known (built outside a request spec)");
      return this;
    },
  },
});

/** A placeholder (an empty plain object) to put in a body where `value`'s result goes. */
export function later(value: Promise<unknown>): Record<string, never> {
  const slot = Object.create(SLOT) as Record<string, never>;
  value.catch(() => undefined); // a rejection surfaces through the request, not as an unhandled one
  pending.set(slot, value);
  made++;
  return slot;
}

/** How many placeholders were made so far: a body built while this did not change holds none. */
export function laterCount(): number {
  return made;
}

/** `spec` with its body serialised now and each placeholder's value filled in when known (rejects when one rejects). */
export function fillLater<S extends { body?: unknown }>(spec: S): Promise<S> {
  const waits: Promise<unknown>[] = [];
  // Unguessable, so no string of the caller's can be taken for a placeholder.
  const tag = `\u0000later:${uuid()}:`;
  let text: string | undefined;
  filling = true;
  try {
    text = JSON.stringify(spec.body, (_key, v: unknown) => {
      const wait = typeof v === "object" && v !== null ? pending.get(v) : undefined;
      if (!wait) return v;
      waits.push(wait);
      return `${tag}${waits.length - 1}`;
    });
  } finally {
    filling = false;
  }
  return Promise.all(waits).then((values) => ({
    ...spec,
    body: text === undefined ? undefined : JSON.parse(text, (_key, v: unknown) => (typeof v === "string" && v.startsWith(tag) ? values[Number(v.slice(tag.length))] : v)),
  }));
}
