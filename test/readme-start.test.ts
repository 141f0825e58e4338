/**
 * The README's first screen is a user's: `npm install webdata`, a five-line scrape (run here against the
 * fake service on loopback, its key and URL from the environment as the snippet says), then where to go
 * next; the contributor's two commands come after, in their own section, and are the ones `.ci/run` runs.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { WebData } from "../src/node.js";
import { createFakeService, serveFake, type ServedFake } from "../src/testing/node.js";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const CONTRIBUTING = "## Working on webdata: quick start";

/** The README from its first `## ` heading up to the contributor's section: what a user reads first. */
const firstScreen = README.slice(README.indexOf("\n## "), README.indexOf(CONTRIBUTING));
const fences = (text: string, lang: string): string[] => [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
/** The commands of a ```sh block, comments dropped. */
const commands = (block: string): string[] => block.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter(Boolean);

describe("the README's first screen", () => {
  it("opens with Install, whose command is npm install webdata; no contributor command before its own section", () => {
    expect(README.indexOf(CONTRIBUTING)).toBeGreaterThan(0);
    expect(firstScreen.trimStart()).toMatch(/^## Install\n/);
    expect(commands(fences(firstScreen, "sh")[0]!)).toEqual(["npm install webdata"]);
    expect(fences(firstScreen, "sh")).toHaveLength(1);
    expect(firstScreen).not.toMatch(/npm run demo|npm test\b/);
  });

  it("then a scrape of five lines, and where to go next, every link of it to a heading of the README or a file", () => {
    const [scrape] = fences(firstScreen, "ts");
    expect(scrape!.trimEnd().split("\n")).toHaveLength(5);
    const next = firstScreen.slice(firstScreen.indexOf("## Where to go next"));
    expect(next.length).toBeGreaterThan(20);
    const anchors = new Set(
      [...README.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replace(/ /g, "-"),
      ),
    );
    const links = [...next.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) {
      if (link.startsWith("#")) expect(anchors, link).toContain(link.slice(1));
      else expect(() => readFileSync(new URL(`../${link}`, import.meta.url)), link).not.toThrow();
    }
  });

  describe("the scrape, run as written", () => {
    let served: ServedFake | undefined;
    const env = { key: process.env.WEBDATA_API_KEY, url: process.env.WEBDATA_API_URL };
    afterEach(async () => {
      for (const [name, value] of [["WEBDATA_API_KEY", env.key], ["WEBDATA_API_URL", env.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await served?.close();
    });

    it("prints the page's markdown, the key and URL taken from the environment", async () => {
      const fake = createFakeService();
      fake.addPage({ url: "https://example.com/", markdown: "# Example Domain\n\nThis domain is for use in documentation examples." });
      served = await serveFake(fake);
      process.env.WEBDATA_API_KEY = fake.apiKey;
      process.env.WEBDATA_API_URL = served.url;
      const [scrape] = fences(firstScreen, "ts");
      expect(scrape).toMatch(/^import \{ WebData \} from "webdata";\n/);
      const body = scrape!.replace(/^import .*\n/gm, "");
      const printed: unknown[] = [];
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
      await new AsyncFunction("WebData", "console", body)(WebData, { log: (...a: unknown[]) => printed.push(...a) });
      expect(printed).toEqual([expect.stringContaining("# Example Domain")]);
      expect(fake.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual(["POST /v2/scrape"]);
    });
  });
});

describe("the contributor's quick start", () => {
  it("is two commands, the demo against the fake then the whole suite, and .ci/run runs exactly them", () => {
    const section = README.slice(README.indexOf(CONTRIBUTING), README.indexOf("\n## ", README.indexOf(CONTRIBUTING) + 1));
    const [block] = fences(section, "sh");
    expect(commands(block!)).toEqual(["npm install && npm run demo", "npm test"]);
    const ci = readFileSync(new URL("../.ci/run", import.meta.url), "utf8");
    const run = commands(ci.slice(ci.indexOf("test ! -e ../shared")).split("\n").slice(1).join("\n"));
    expect(run).toEqual(["npm install", "npm run demo", "npm test"]);
  });
});
