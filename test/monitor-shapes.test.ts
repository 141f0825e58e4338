/**
 * The monitor and feedback answers as the service's server builds them
 * (test/fixtures/server-shapes/monitor.json, written field for field from its
 * serializers: no recording of these routes exists) are read by the `WebData`
 * methods into the documented results, and the fake service answers with the
 * same fields.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InvalidResponseError, WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";

type Shapes = Record<"create" | "run" | "checkDetail" | "delete" | "feedback", { data?: Record<string, unknown> } & Record<string, unknown>>;
const SHAPES = JSON.parse(readFileSync(new URL("./fixtures/server-shapes/monitor.json", import.meta.url), "utf8")) as Shapes;
const MONITOR = SHAPES.create.data!.id as string;
const CHECK = SHAPES.run.id as string;

/** A client whose `fetch` answers each route with the server's shape. */
function serverClient(answer: (method: string, path: string) => unknown): WebData {
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    return new Response(JSON.stringify(answer(req.method, new URL(req.url).pathname)), { status: 200, headers: { "content-type": "application/json" } });
  };
  return new WebData({ apiKey: "fc-test", apiUrl: "https://api.example.test", fetch, logLevel: "off" });
}

describe("monitor answers in the server's shapes", () => {
  const client = serverClient((method, path) => {
    if (method === "POST" && path === "/v2/monitor") return SHAPES.create;
    if (method === "GET" && path === `/v2/monitor/${MONITOR}`) return SHAPES.create;
    if (method === "GET" && path === "/v2/monitor") return { success: true, data: [SHAPES.create.data] };
    if (method === "PATCH") return SHAPES.create;
    if (method === "DELETE") return SHAPES.delete;
    if (path.endsWith("/run")) return SHAPES.run;
    if (path.endsWith("/checks")) return { success: true, data: [SHAPES.run.data] };
    if (path.includes("/checks/")) return SHAPES.checkDetail;
    if (path === "/v2/feedback") return SHAPES.feedback;
    return { success: false, error: "unexpected" };
  });

  it("each method returns the answer's `data` (delete: true; feedback: the record, without success)", async () => {
    const monitor = await client.createMonitor({ name: "Pricing pages", schedule: { text: "every 30 minutes" }, targets: [{ type: "scrape", urls: ["https://example.com/pricing"] }] });
    expect(monitor).toEqual(SHAPES.create.data);
    expect(monitor.schedule.cron).toBe("*/30 * * * *");
    expect(await client.getMonitor(MONITOR)).toEqual(SHAPES.create.data);
    expect(await client.updateMonitor(MONITOR, { name: "x" })).toEqual(SHAPES.create.data);
    expect(await client.listMonitors()).toEqual([SHAPES.create.data]);
    expect(await client.deleteMonitor(MONITOR)).toBe(true);
    const run = await client.runMonitor(MONITOR);
    expect(run).toEqual(SHAPES.run.data);
    expect(await client.listMonitorChecks(MONITOR)).toEqual([SHAPES.run.data]);
    const detail = await client.getMonitorCheck(MONITOR, CHECK);
    expect(detail).toEqual(SHAPES.checkDetail.data);
    expect(detail.pages[0]?.diff?.text).toContain("+Pro: $12");
    expect(new URL(detail.next!).searchParams.get("skip")).toBe("1");
    const fb = await client.feedback({ endpoint: "scrape", jobId: CHECK, rating: "bad", note: "wrong price" });
    const { success: _s, ...record } = SHAPES.feedback;
    expect(fb).toEqual(record);
    expect("success" in fb).toBe(false);
  });

  it("an answer without `data` is an InvalidResponseError, not an undefined result", async () => {
    const broken = serverClient(() => ({ success: true }));
    await expect(broken.getMonitor(MONITOR)).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(broken.listMonitors()).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(broken.runMonitor(MONITOR)).rejects.toBeInstanceOf(InvalidResponseError);
  });
});

describe("the fake's monitor answers carry the server's fields", () => {
  const keys = (o: unknown) => Object.keys(o as object).sort();
  it("monitor, check, check detail and page have the keys of the server's serializers (the optional extras aside)", async () => {
    const fake = createFakeService();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const monitor = await client.createMonitor({ name: "p", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: ["https://acme.test/products"] }] });
    const optional = ["emailRecipientSubscriptions", "unchangedPagesFree"];
    expect(keys(monitor)).toEqual(keys(SHAPES.create.data).filter((k) => !optional.includes(k)));
    const run = await client.runMonitor(monitor.id);
    expect(keys(run)).toEqual(keys(SHAPES.run.data));
    const detail = await client.getMonitorCheck(monitor.id, run.id);
    expect(keys(detail).filter((k) => k !== "next")).toEqual(keys(SHAPES.checkDetail.data).filter((k) => k !== "next"));
    expect(keys(detail.pages[0])).toEqual(keys((SHAPES.checkDetail.data!.pages as unknown[])[0]));
  });
});
