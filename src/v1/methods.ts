/**
 * The methods of `V1Client`, split by what they return: the drop-in's
 * `FirecrawlAppV1` forwards each of them (`firecrawl/v1.ts`). They are the v1
 * faces of the operations catalogue (`api/operations.ts`), not a list of their
 * own; a test keeps them equal to `V1Client`'s methods and their kinds.
 */
import { v1Methods } from "../api/operations.js";
import type { V1Client } from "./client.js";

type V1Method = Exclude<keyof V1Client, "constructor">;

/** Methods of `V1Client` that return an `APIPromise`. */
export const V1_API_METHODS = v1Methods("APIPromise") as readonly V1Method[];
/** Methods of `V1Client` that return a plain `Promise` (they wait, or return a watcher). */
export const V1_PROMISE_METHODS = v1Methods("Promise") as readonly V1Method[];
