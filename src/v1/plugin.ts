/**
 * The legacy v1 face as a plugin of the client: `new WebData({ plugins: [v1] })` gives it `client.v1` (the v1 names and
 * shapes over the same connection, budget and limit). A client without it bundles none of the v1 layer.
 */
import type { ClientPlugin } from "../core/client-state.js";
import type { HttpClient } from "../core/request.js";
import { V1Client } from "./client.js";

/**
 * `client.v1` on a `WebData`: `import { v1 } from "webdata/v1"`, then `new WebData({ plugins: [v1] })`. (`WebDataV1` of
 * `webdata/v1` is the v1 client on its own, and needs no plugin.)
 */
export const v1: ClientPlugin = {
  name: "v1",
  install(http: unknown): void {
    const client = http as HttpClient;
    client.state.v1Face = () => new V1Client(client);
  },
};
