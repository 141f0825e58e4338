/**
 * The v1 `CrawlWatcher` shape over the v2 watcher machinery: an `EventTarget`
 * dispatching `document`, `done` and `error` `CustomEvent`s with v1 `detail`
 * shapes, plus `id`, `status`, `data` and `close()`. The documents, their
 * de-duplication, the transport choice (WebSocket, polling) and the REST
 * confirmation of the end all come from the shared watcher.
 */
import type { Document } from "../api/document.js";
import type { HttpClient } from "../core/request.js";
import type { JobKind, JobState } from "../jobs/types.js";
import type { WatchEvent } from "../jobs/watch-types.js";
import { watch } from "../jobs/watcher.js";
import { after } from "../core/time.js";
import { V1 } from "./shapes.js";

/** `detail` of a v1 `document` event: the document plus the job id. */
export type V1DocumentDetail = Document & { id: string };
/** `detail` of the v1 `done` event. */
export interface V1DoneDetail {
  /** `completed` (or the terminal status). */
  status: JobState;
  /** Every document received. */
  data: Document[];
  /** The job id. */
  id: string;
}
/** `detail` of the v1 `error` event. */
export interface V1ErrorDetail extends Pick<V1DoneDetail, "id"> {
  /** `failed` (or the terminal status). */
  status: JobState;
  /** Every document received before the failure. */
  data: Document[];
  error: string;
}

/** The events of a {@link V1CrawlWatcher}, for typed `addEventListener`. */
export interface V1CrawlWatcherEvents {
  /** One new document. */
  document: CustomEvent<V1DocumentDetail>;
  /** The job finished. */
  done: CustomEvent<V1DoneDetail>;
  /** The job failed or the watch broke. */
  error: CustomEvent<V1ErrorDetail>;
}

/** A v1-compatible watcher of a crawl or batch scrape (what `crawlUrlAndWatch` returned in v1). */
export class V1CrawlWatcher extends EventTarget {
  /** The job id. */
  readonly id: string;
  /** Every document received so far. */
  data: Document[] = [];
  /** `scraping` until the job ends. */
  status: JobState = "scraping";
  readonly #ctl = new AbortController();

  /** @internal Built by `crawlUrlAndWatch` / `batchScrapeUrlsAndWatch`. */
  constructor(id: string, source: (signal: AbortSignal) => AsyncIterable<WatchEvent>) {
    super();
    this.id = id;
    // Start after the caller's current task, so listeners added right after `await ...AndWatch()` see every event.
    after(0, () => void this.#run(source(this.#ctl.signal)));
  }

  /** Typed `addEventListener` for `document`, `done` and `error` (any other name works as on `EventTarget`). */
  override addEventListener<K extends keyof V1CrawlWatcherEvents>(type: K, listener: ((ev: V1CrawlWatcherEvents[K]) => void) | null, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | ((ev: never) => void) | null, options?: boolean | AddEventListenerOptions): void {
    super.addEventListener(type, listener as EventListenerOrEventListenerObject | null, options);
  }

  /** Stops watching (no further events). */
  close(): void {
    this.#ctl.abort();
  }

  #emit<K extends keyof V1CrawlWatcherEvents>(type: K, detail: V1CrawlWatcherEvents[K]["detail"]): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  async #run(events: AsyncIterable<WatchEvent>): Promise<void> {
    try {
      for await (const ev of events) {
        if (this.#ctl.signal.aborted) return;
        if (ev.type === "document") {
          this.data.push(ev.document);
          this.#emit("document", { ...ev.document, id: this.id });
        } else if (ev.type === "status") {
          this.status = ev.status;
        } else if (ev.type === "done") {
          this.status = ev.status;
          if (this.status === "completed") this.#emit("done", { status: this.status, data: this.data, id: this.id });
          else this.#emit("error", { status: this.status, data: this.data, error: ev.error ?? `job ${this.status}`, id: this.id });
          return;
        } else if (ev.fatal) {
          // Non-fatal errors are recovered by the shared watcher (reconnect, polling): v1 code never saw them.
          this.status = "failed";
          this.#emit("error", { status: this.status, data: this.data, error: ev.error.message, id: this.id });
          return;
        }
      }
    } catch (err) {
      if (this.#ctl.signal.aborted) return;
      this.status = "failed";
      this.#emit("error", { status: this.status, data: this.data, error: err instanceof Error ? err.message : String(err), id: this.id });
    }
  }
}

/**
 * A v1 watcher of a job, fed by the shared watcher over the v1 routes
 * (`/v1/crawl/<id>` WebSocket, `/v1/...` status reads): same transports,
 * de-duplication and REST-confirmed end as `client.watcher`.
 */
export function watchV1Job(http: HttpClient, kind: JobKind, id: string): V1CrawlWatcher {
  return new V1CrawlWatcher(id, (signal) => watch(http, kind, id, { signal }, { apiVersion: V1 }));
}
