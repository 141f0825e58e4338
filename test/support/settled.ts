import { vi } from "vitest";

/** Runs `p` with the clock faked, moving it 100 ms at a time until `p` settles: waits and polls take no real time. */
export async function settled<T>(p: Promise<T>): Promise<T> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; !done && i < 1200; i++) await vi.advanceTimersByTimeAsync(100);
  return p;
}
