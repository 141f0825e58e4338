/**
 * Type tests: `runAnthropicToolUses` takes the content blocks as Anthropic's SDK
 * and its documentation write them: a fresh array literal with `tool_use` blocks
 * (`id`, `name`, `input`) beside text blocks, and blocks carrying fields the
 * SDK added later (`caller`, `toolset_name`), with no cast.
 */
import { describe, expectTypeOf, test } from "vitest";
import { WebData } from "webdata";
import { createTools, runAnthropicToolUses, type AnthropicToolResult } from "webdata/ai";

declare const client: WebData;

/** The shape of `@anthropic-ai/sdk` 1.x's `ToolUseBlock` (an interface: no index signature). */
interface SdkToolUseBlock {
  id: string;
  caller: { type: "direct" };
  input: unknown;
  name: string;
  type: "tool_use";
  toolset_name?: string | null;
}
/** The shape of its `TextBlock`. */
interface SdkTextBlock {
  citations: unknown[] | null;
  text: string;
  type: "text";
}

describe("runAnthropicToolUses", () => {
  test("takes a literal tool_use block with its id, name and input", async () => {
    const tools = createTools(client, { only: ["search"] });
    const results = await runAnthropicToolUses(tools, [
      { type: "text", text: "Let me search." },
      { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "search", input: { query: "widgets" } },
    ]);
    expectTypeOf(results).toEqualTypeOf<AnthropicToolResult[]>();
  });

  test("takes a message's content as the SDK types it", async () => {
    const tools = createTools(client, { only: ["search"] });
    const content: (SdkToolUseBlock | SdkTextBlock)[] = [];
    expectTypeOf(await runAnthropicToolUses(tools, content)).toEqualTypeOf<AnthropicToolResult[]>();
  });
});
