/**
 * Finds timers and sockets that a piece of async work left behind, even while
 * other work runs at the same time: every Timeout and TCP handle created inside
 * {@link trackResources}'s callback (directly or through promises and callbacks
 * it started) is attributed to its owner with AsyncLocalStorage, and forgotten
 * when async_hooks reports it destroyed. What remains and still keeps the
 * event loop alive (`hasRef()`) is a leak.
 */
import { AsyncLocalStorage, createHook } from "node:async_hooks";

const TRACKED = new Set(["Timeout", "TCPWRAP", "TCPCONNECTWRAP"]);
const owners = new AsyncLocalStorage<string>();
const live = new Map<number, { owner: string; type: string; resource: WeakRef<object> }>();

const hook = createHook({
  init(id, type, _trigger, resource) {
    if (!TRACKED.has(type)) return;
    const owner = owners.getStore();
    if (owner !== undefined) live.set(id, { owner, type, resource: new WeakRef(resource as object) });
  },
  destroy(id) {
    live.delete(id);
  },
});

/** Starts attributing resources (call once, in `beforeAll`). */
export function enableLeakTracking(): void {
  hook.enable();
}

/** Stops attributing resources (`afterAll`). */
export function disableLeakTracking(): void {
  hook.disable();
  live.clear();
}

/** Runs `fn` with every timer and socket it creates attributed to `owner`. */
export function trackResources<T>(owner: string, fn: () => Promise<T>): Promise<T> {
  return owners.run(owner, fn);
}

/** Resource types (`Timeout`, `TCPWRAP`, ...) created under `owner` that are still alive and keep the process running. */
export function leaksOf(owner: string): string[] {
  const out: string[] = [];
  for (const [id, r] of live) {
    if (r.owner !== owner) continue;
    const res = r.resource.deref() as { hasRef?: () => boolean; _destroyed?: boolean } | undefined;
    if (!res || res._destroyed === true) {
      live.delete(id);
      continue;
    }
    if (typeof res.hasRef === "function" && !res.hasRef()) continue;
    out.push(r.type);
  }
  return out;
}

/** Forgets what was attributed to `owner` (after it was reported). */
export function forget(owner: string): void {
  for (const [id, r] of live) if (r.owner === owner) live.delete(id);
}
