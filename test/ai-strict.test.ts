/**
 * `webdata/ai` and OpenAI's strict mode: every tool's schema compiles under Ajv
 * strict, and `toOpenAITools(tools, { strict: true })` gives schemas that keep
 * OpenAI's strict-mode rules (checked here by a checker of those rules, itself
 * shown to reject the plain schemas); the arguments a strict-mode model sends
 * (`null` for "not given", a free-form object as a JSON string) run as usual.
 */
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { beforeEach, describe, expect, it } from "vitest";
import { createTools, runOpenAIToolCalls, STRICT_FORMATS, toOpenAITools, toStrictSchema, TOOL_NAMES, type JsonSchemaObject } from "../src/ai/index.js";
import { WebData } from "../src/index.js";
import { createFakeService, fakeTasks, type FakeService } from "../src/testing/node.js";

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

let fake: FakeService;
let client: WebData;


beforeEach(() => {
  fake = createFakeService();
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
});

/** Keywords OpenAI's strict mode accepts (docs: "Supported schemas"); anything else is refused. */
const STRICT_KEYWORDS = new Set(["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "description", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "$ref", "$defs", "title"]);
const PRIMITIVES = new Set(["string", "number", "integer", "boolean", "null"]);

/** OpenAI's strict-mode rules: the violations of `schema`, as `path: problem` lines (none when it is accepted). */
function strictViolations(root: JsonSchemaObject): string[] {
  const out: string[] = [];
  let properties = 0;
  let enumValues = 0;
  let strings = 0;
  if (root.type !== "object" || root.anyOf) out.push("$: the root must be an object, not anyOf");
  const walk = (s: JsonSchemaObject, path: string, depth: number) => {
    if (depth > 10) out.push(`${path}: nested deeper than 10 levels`);
    for (const k of Object.keys(s)) if (!STRICT_KEYWORDS.has(k)) out.push(`${path}: keyword ${k} is not supported`);
    if (typeof s.format === "string" && !STRICT_FORMATS.includes(s.format)) out.push(`${path}: format ${s.format} is not supported`);
    const types = Array.isArray(s.type) ? (s.type as string[]) : s.type === undefined ? [] : [s.type as string];
    if (types.length > 1 && types.some((t) => !PRIMITIVES.has(t))) out.push(`${path}: a type list may only join primitive types and null`);
    if (s.type === undefined && !s.anyOf && !s.enum && s.const === undefined && !s.$ref) out.push(`${path}: no type`);
    if (Array.isArray(s.enum)) {
      enumValues += s.enum.length;
      for (const v of s.enum) if (typeof v === "string") strings += v.length;
    }
    if (typeof s.const === "string") strings += s.const.length;
    if (types.includes("object")) {
      const props = (s.properties ?? {}) as Record<string, JsonSchemaObject>;
      if (!s.properties) out.push(`${path}: an object needs properties`);
      if (s.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const k of Object.keys(props)) {
        properties++;
        strings += k.length;
        if (!required.has(k)) out.push(`${path}.${k}: every property must be required (optional ones nullable)`);
        walk(props[k]!, `${path}.${k}`, depth + 1);
      }
    }
    if (types.includes("array")) {
      if (!s.items || typeof s.items !== "object") out.push(`${path}: an array needs items`);
      else walk(s.items as JsonSchemaObject, `${path}[]`, depth + 1);
    }
    if (Array.isArray(s.anyOf)) (s.anyOf as JsonSchemaObject[]).forEach((b, i) => walk(b, `${path}|${i}`, depth + 1));
  };
  walk(root, "$", 1);
  if (properties > 5000) out.push("$: more than 5000 properties");
  if (enumValues > 1000) out.push("$: more than 1000 enum values");
  if (strings > 120_000) out.push("$: property names and enum values longer than 120000 characters in all");
  return out;
}

function ajvStrict(): Ajv {
  return addFormats(new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }));
}

describe("JSON Schemas under Ajv strict", () => {
  it("every tool's schema, plain and strict-mode, compiles", () => {
    const ajv = ajvStrict();
    const tools = createTools(client);
    expect(tools.definitions.map((d) => d.name)).toEqual([...TOOL_NAMES]);
    for (const d of tools.definitions) {
      expect(() => ajv.compile(d.parameters), d.name).not.toThrow();
      expect(() => ajv.compile(toStrictSchema(d.parameters)), `${d.name} (strict)`).not.toThrow();
    }
  });
});

describe("OpenAI strict mode", () => {
  it("the checker is not vacuous: it refuses the plain schemas", () => {
    const [scrape] = createTools(client, { only: ["scrape"] }).definitions;
    const problems = strictViolations(scrape!.parameters);
    expect(problems).toContain("$.formats: every property must be required (optional ones nullable)");
    expect(strictViolations({ type: "object", properties: { s: { type: "object", propertyNames: { type: "string" }, additionalProperties: {} } }, required: ["s"], additionalProperties: false })).toEqual([
      "$.s: keyword propertyNames is not supported",
      "$.s: an object needs properties",
      "$.s: additionalProperties must be false",
    ]);
    expect(strictViolations({ type: "object", properties: { n: { type: "string", minLength: 1, format: "uri" } }, required: ["n"], additionalProperties: false })).toEqual([
      "$.n: keyword minLength is not supported",
      "$.n: format uri is not supported",
    ]);
  });

  it("toOpenAITools(tools, { strict: true }): every schema keeps the rules, with strict: true on each function", () => {
    const defs = toOpenAITools(createTools(client), { strict: true });
    expect(defs).toHaveLength(TOOL_NAMES.length);
    for (const d of defs) {
      expect(d.function.strict).toBe(true);
      expect(strictViolations(d.function.parameters), d.function.name).toEqual([]);
    }
    // Without the option the schemas are the plain ones.
    expect(toOpenAITools(createTools(client))[0]!.function).not.toHaveProperty("strict");
  });

  it("optional becomes nullable, limits move into the description, free-form objects become JSON strings", () => {
    const tools = createTools(client);
    const strict = (name: string) => toStrictSchema(tools.definitions.find((d) => d.name === name)!.parameters) as { properties: Record<string, JsonSchemaObject>; required: string[] };
    const scrape = strict("scrape");
    expect(scrape.required).toEqual(Object.keys(scrape.properties));
    expect(scrape.properties.url).toEqual({ type: "string", description: "The page (http or https)." });
    expect(scrape.properties.onlyMainContent).toEqual({ type: ["boolean", "null"], description: "Drop headers, navigation and footers (default true)." });
    expect(scrape.properties.formats).toMatchObject({ anyOf: [{ type: "array", minItems: 1, items: { type: "string", enum: expect.arrayContaining(["markdown", "links"]) as unknown } }, { type: "null" }] });
    expect(scrape.properties.waitFor).toMatchObject({ type: ["integer", "null"], minimum: 0, maximum: 60000 });
    const search = strict("search");
    expect(search.properties.query).toEqual({ type: "string", description: "What to search for. (not empty)" });
    const extract = strict("extract");
    expect(extract.properties.schema).toEqual({ type: ["string", "null"], description: "JSON Schema of the result. (a JSON object, written as a JSON string)" });
    const agent = strict("agent");
    expect(agent.properties.prompt).toEqual({ type: "string", description: "The task. (1-10000 characters)" });
    expect(agent.properties.model).toMatchObject({ type: ["string", "null"], enum: ["spark-1-mini", "spark-1-pro", null] });
    const crawl = strict("crawl_start");
    expect(crawl.properties.limit).toMatchObject({ type: ["integer", "null"], minimum: 1, maximum: 50 });
  });

  it("does not change the schema it is given", () => {
    const [scrape] = createTools(client, { only: ["scrape"] }).definitions;
    const before = JSON.stringify(scrape!.parameters);
    toStrictSchema(scrape!.parameters);
    expect(JSON.stringify(scrape!.parameters)).toBe(before);
  });

  it("the arguments a strict-mode model sends run as usual: null is not given, a JSON string schema is parsed", async () => {
    const tools = createTools(client, { pollIntervalMs: 500 });
    const ajv = ajvStrict();
    const strictArgs = {
      scrape: { url: "https://acme.test/about", formats: null, onlyMainContent: null, includeTags: null, excludeTags: null, waitFor: null, maxAge: null, offset: null },
      extract: { urls: ["https://acme.test/about"], prompt: "the founding year", enableWebSearch: null, schema: JSON.stringify({ type: "object", properties: { year: { type: "number" } } }) },
    };
    const defs = toOpenAITools(tools, { strict: true });
    for (const [name, args] of Object.entries(strictArgs)) {
      const validate = ajv.compile(defs.find((d) => d.function.name === name)!.function.parameters);
      expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
    }
    fakeTasks(fake).configure({ pollsToFinish: 0 }); // done at the first status read: no wait
    const [scraped, extracted] = await runOpenAIToolCalls(tools, [
      { id: "c1", type: "function", function: { name: "scrape", arguments: JSON.stringify(strictArgs.scrape) } },
      { id: "c2", type: "function", function: { name: "extract", arguments: JSON.stringify(strictArgs.extract) } },
    ]);
    expect(scraped!.content).toMatch(/^## About Acme/);
    expect(extracted!.content).toMatch(/^extract [0-9a-f-]{36}: completed/);
    const scrapeBody = fake.requests.find((q) => q.pathname === "/v2/scrape")!.body as Record<string, unknown>;
    expect(scrapeBody).toEqual({ url: "https://acme.test/about" });
    const extractBody = fake.requests.find((q) => q.pathname === "/v2/extract")!.body as Record<string, unknown>;
    expect(extractBody.schema).toEqual({ type: "object", properties: { year: { type: "number" } } });
    expect(extractBody).not.toHaveProperty("enableWebSearch");
  });

  it("a null for a required argument is still refused, as a result the model can act on", async () => {
    const r = await createTools(client).call("scrape", { url: null });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^invalid arguments: url: /);
  });
});
