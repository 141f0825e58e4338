/** Test helper: the error a promise rejects with. */
import { expect } from "vitest";

/** The error `p` rejects with, checked to be an instance of `ctor` (the test fails when `p` resolves or rejects with something else). */
export async function rejection<E>(p: Promise<unknown>, ctor: abstract new (...args: never[]) => E): Promise<E> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ctor);
  return err as E;
}
