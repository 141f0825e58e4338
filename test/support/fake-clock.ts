/** The TESTING.md fake-clock steps, shared by the tests that run them as a file's first call. */
import { expect, vi } from "vitest";
import type { FakeService } from "../../src/testing/index.js";

/** The TESTING.md steps: a 429 asking for 2 s, no retry at 1.999 s, the retry at 2 s. */
export async function backsOffOnTheFakeClock(fake: FakeService, call: () => Promise<unknown>, expected: object): Promise<void> {
  vi.useFakeTimers();
  fake.rateLimit({ retryAfterSeconds: 2 });
  const result = call();
  await vi.advanceTimersByTimeAsync(1_999);
  expect(fake.requests).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  await expect(result).resolves.toMatchObject(expected);
  expect(fake.requests).toHaveLength(2);
}
