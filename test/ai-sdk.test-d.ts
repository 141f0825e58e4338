/**
 * Type tests: the README's agent-tools snippets compile against the installed
 * `ai` package (the Vercel AI SDK) as written, with no cast: `toAISDKTools`
 * gives a `ToolSet` that `generateText` and `streamText` take. test/ai.test.ts
 * checks that every line of the README's snippets is in this file.
 */
import { generateText, stepCountIs, streamText, type LanguageModel, type ToolSet } from "ai";
import { describe, expectTypeOf, test } from "vitest";
import { WebData } from "webdata";
import { createTools, runOpenAIToolCalls, toAISDKTools, toOpenAITools, type AISDKTool, type OpenAITool, type OpenAIToolCall } from "webdata/ai";

declare const model: LanguageModel;
declare const client: WebData;
declare const site: string;
declare const toolCalls: OpenAIToolCall[];

describe("README: Vercel AI SDK", () => {
  test("generateText({ model, tools: await toAISDKTools(tools) }) type-checks", async () => {
    const tools = createTools(client, { only: ["scrape", "search", "map"], maxChars: 4000 });
    const { text } = await generateText({
      model, // e.g. openai("gpt-5-mini") from @ai-sdk/openai
      tools: await toAISDKTools(tools),
      stopWhen: stepCountIs(8),
      prompt: "What does acme.test sell? Read its pages.",
    });
    expectTypeOf(text).toEqualTypeOf<string>();
  });

  test("streamText takes the same tools", async () => {
    const result = streamText({ model, tools: await toAISDKTools(createTools(client)), prompt: "Summarise https://acme.test" });
    expectTypeOf(await result.text).toEqualTypeOf<string>();
  });

  test("the tools are a ToolSet of typed tools, not any", async () => {
    const set = await toAISDKTools(createTools(client));
    expectTypeOf(set).toMatchTypeOf<ToolSet>();
    expectTypeOf<AISDKTool>().not.toBeAny();
    expectTypeOf(set.scrape!.execute).not.toBeAny();
    // @ts-expect-error: not a ToolSet member (no inputSchema)
    const bad: ToolSet = { scrape: { description: "x" } };
    void bad;
  });
});

describe("README: OpenAI", () => {
  test("the snippet type-checks, strict mode too", async () => {
    const tools = createTools(client, {
      only: ["scrape", "search", "map"],
      fixed: { onlyMainContent: true, allowedDomains: [new URL(site).hostname] }, // the model cannot change these
      maxChars: 4000, // a longer result is cut, with a note naming the call that reads on
    });
    const definitions = toOpenAITools(tools); // -> openai.chat.completions.create({ model, messages, tools: definitions })
    const strictDefinitions = toOpenAITools(tools, { strict: true }); // strict mode (structured outputs)
    const toolMessages = await runOpenAIToolCalls(tools, toolCalls); // never throws: errors are messages the model can act on
    expectTypeOf(definitions).toEqualTypeOf<OpenAITool[]>();
    expectTypeOf(strictDefinitions[0]!.function.strict).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(toolMessages[0]!.content).toEqualTypeOf<string>();
  });
});
