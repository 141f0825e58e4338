import { it } from "vitest";
import { setup } from "../test/helpers.js";
import { fakeJobs } from "../src/testing/index.js";
it("probe", async () => {
  const s = await setup("undici");
  fakeJobs(s.fake).configure({ pagesPerPoll: 2, defaultPageSize: 2 });
  const w = await s.client.watcher((await s.client.v1.asyncCrawlUrl("https://acme.test/", { limit: 5, ignoreSitemap: true })).id!, { apiVersion: "v1" } as never);
  for await (const e of w) console.log("v2-style", e.type, (e as any).transport ?? "", (e as any).document?.metadata?.sourceURL ?? "", (e as any).status ?? "");
  const v1w = await s.client.v1.crawlUrlAndWatch("https://acme.test/", { limit: 5, ignoreSitemap: true });
  await new Promise<void>((r) => { v1w.addEventListener("document", (ev) => console.log("v1 doc", (ev as CustomEvent).detail?.metadata?.sourceURL)); v1w.addEventListener("done", (ev) => { console.log("v1 done", (ev as CustomEvent).detail.data.length); r(); }); v1w.addEventListener("error", (ev) => { console.log("v1 error", (ev as CustomEvent).detail); r(); }); });
  await s.close();
});
