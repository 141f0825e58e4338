/**
 * `webdata fake`: the fake service of `webdata/testing` served on loopback, so
 * the CLI, the MCP server, the client and `webdata/firecrawl` can be tried
 * with no key and no network. Prints the URL and key to use, and serves until
 * Ctrl-C or SIGTERM (then closes cleanly and exits 0).
 */
import { positiveInt, record, type Command } from "./args.js";
import { plural } from "./terminal.js";

/** What `webdata fake` says when it cannot serve the crawl WebSocket. */
export const NO_WEBSOCKET =
  "No crawl WebSocket: the optional ws package is not installed, so upgrades are answered 501 and watchers (webdata crawl, client.watcher) read jobs by polling. npm install ws to serve it.";

/** `webdata fake`. */
export const FAKE_COMMAND: Command = {
  summary: "serve the built-in fake service here: try the CLI, MCP server or client with no key, no network",
  usage: `Usage: webdata fake [--port <n>] [--any-url]

Serves the fake service of webdata/testing on http://127.0.0.1:<port> until Ctrl-C (or SIGTERM),
and prints the URL and key to use: on stdout, as a line to paste into a shell,
  export WEBDATA_API_URL=http://127.0.0.1:<port> WEBDATA_API_KEY=fc-test-key
(with --json: one line {"type":"fake","url":...,"apiKey":...,"webSocket":...}). The crawl
WebSocket is served when the optional ws package is installed; without it, it says so. Its web is a small fixture site
at https://acme.test (any other address answers as a page that could not be scraped, unless
--any-url); its jobs move on as they are read. Nothing leaves this machine, and no key is needed
to start it.

Options:
  --port <n>                 the port to listen on (default 0: a free one)
  --any-url                  answer any URL with a generated page (an unknown site gets a small
                             generated site: /, /about, /docs, /blog), so code written for the
                             real service, such as the official client's README, runs unchanged`,
  options: { port: { type: "string" }, "any-url": { type: "boolean" } },
  needsClient: false,
  async run(ctx, _positionals, values) {
    const port = positiveInt(values, "port", 0) ?? 0;
    // Loaded only by this command: the CLI's other commands never read the fake.
    const { createFakeService, serveFake, FIXTURE_ORIGIN } = await import("../testing/node.js");
    const anyUrl = values["any-url"] === true;
    const fake = createFakeService({ anyUrl });
    let served: Awaited<ReturnType<typeof serveFake>>;
    try {
      served = await serveFake(fake, { port });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE" || code === "EACCES") throw new Error(`cannot listen on port ${port} (${code}): pass --port <n> (0 picks a free one)`);
      throw err;
    }
    const webSocket = await served.webSocket();
    ctx.out(ctx.json ? record("fake", { url: served.url, apiKey: fake.apiKey, webSocket }) : `export WEBDATA_API_URL=${served.url} WEBDATA_API_KEY=${fake.apiKey}\n`);
    ctx.err(
      [
        `webdata fake service on ${served.url} (key ${fake.apiKey}). Ctrl-C stops it.`,
        `Try, in another terminal, after the export line above:`,
        `  webdata scrape ${anyUrl ? "https://firecrawl.dev" : `${FIXTURE_ORIGIN}/about`}${anyUrl ? " (any URL answers with a generated page: --any-url)" : ""}`,
        `  webdata crawl ${FIXTURE_ORIGIN} --limit 5`,
        `  webdata mcp (an MCP server reading this fake)`,
        `The client or webdata/firecrawl: { apiKey: "${fake.apiKey}", apiUrl: "${served.url}" }.`,
        ...(webSocket ? [] : [NO_WEBSOCKET]),
        "",
      ].join("\n"),
    );
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await served.close();
    ctx.err(`webdata fake service stopped (${plural(fake.requests.length, "request")} served).\n`);
    return 0;
  },
};
