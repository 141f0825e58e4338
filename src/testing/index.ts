/**
 * `webdata/testing`: a stateful, deterministic fake of the service for tests,
 * examples and demos. Inject `fake.fetch` as the client's `fetch`, mount it in
 * msw, or (on Node) serve it on loopback with `serveFake`.
 */
import { registerMap } from "./handlers/map.js";
import { registerPreview } from "./handlers/preview.js";
import { registerScrape } from "./handlers/scrape.js";
import { registerJobs } from "./handlers/jobs.js";
import { registerTasks } from "./handlers/tasks.js";
import { registerSignup, signupState } from "./handlers/signup.js";
import { registerStreams } from "./handlers/streams.js";
import { registerTeam } from "./handlers/team.js";
import { registerBrowser } from "./handlers/browser.js";
import { registerSearch } from "./handlers/search.js";
import { registerUsageHistory } from "./handlers/usage-history.js";
import { registerV1 } from "./handlers/v1.js";
import { registerLater } from "./handlers/later.js";
import { registerMonitor } from "./handlers/monitor.js";
import { registerParse } from "./handlers/parse.js";
import { FakeService, type FakeServiceOptions } from "./service.js";

export { FakeService, json, fail, HttpFailure, CREDITS, TOKENS_PER_CREDIT } from "./service.js";
export type { FakeServiceOptions, RecordedRequest, FakeTeam, Handler, HandlerContext, RequestHook, TeamLoad } from "./service.js";
export type { FaultSpec, FaultScope, FaultMatch, RateLimitSpec, FailOptions, DropOptions, CorruptOptions, StallOptions } from "./faults.js";
export { dropStream, streamLog, type StreamDropSpec, type StreamConnection } from "./handlers/streams.js";
export { FIXTURE_ORIGIN, type FixturePage, type PageSpec } from "./fixtures.js";
export { signupState } from "./handlers/signup.js";
export { fakeJobs, type FakeJobs } from "./handlers/jobs.js";
export type { FakeJob, JobEngineOptions, JobFailureSpec } from "./handlers/job-engine.js";
export { fakeTasks, type FakeTasks, type FakeTask, type TaskOptions } from "./handlers/tasks.js";
export { v1FakeState, type V1FakeState } from "./handlers/v1.js";
export {
  signWebhook,
  fakeWebhooks,
  type SignWebhookOptions,
  type SignedWebhook,
  type WebhookEventInit,
  type WebhookFetch,
  type FakeWebhooks,
  type FakeWebhookDelivery,
  type FakeWebhookSettings,
  type FakeWebhookTarget,
} from "./webhooks.js";

/** Every capability's routes, in registration order. Later capabilities add theirs here. */
const REGISTRARS: ((fake: FakeService) => void)[] = [registerScrape, registerMap, registerTeam, registerSignup, registerPreview, registerJobs, registerTasks, registerStreams, registerV1, registerSearch, registerBrowser, registerUsageHistory, registerLater, registerParse, registerMonitor];

/**
 * Creates a fake service with every endpoint registered; inject its `fetch` into the client.
 *
 * @example const fake = createFakeService(); const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch })
 */
export function createFakeService(options: FakeServiceOptions = {}): FakeService {
  const fake = new FakeService(options);
  for (const register of REGISTRARS) register(fake);
  return fake;
}

/**
 * Marks an e-mail as having blocked agent signups (403 on the next signup).
 *
 * @example blockSignupEmail(fake, "owner@example.com")
 */
export function blockSignupEmail(fake: FakeService, email: string): void {
  signupState(fake).blocked.add(email.toLowerCase());
}
