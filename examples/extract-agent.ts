/**
 * Extract and agent jobs: structured data from pages (extract) or from a
 * prompt that browses by itself (agent), typed by a zod schema.
 *
 *   npm run build && npx tsx examples/extract-agent.ts
 */
import * as z from "zod";
import { runIfMain, type Connection } from "./connect.js";

const Company = z.object({ name: z.string(), founded: z.number().int() });

/** Runs an extract job and an agent job and waits for both. */
export async function main({ client, site, pollIntervalMs }: Connection): Promise<{ extracted: string; agentStatus: string }> {
  const extracted = await client.extract({ urls: [`${site}/about`], prompt: "The company's name and founding year", schema: Company, pollIntervalMs });
  console.log(`extract ${extracted.status}: ${extracted.data?.name}, founded ${extracted.data?.founded}`);

  // `agent` starts and waits; `startAgent` + `getAgentStatus(id)` do it in two steps.
  const agent = await client.agent("Find the price of the gadget", { urls: [`${site}/products`], schema: z.object({ price: z.string() }), pollIntervalMs });
  console.log(`agent   ${agent.status}: price ${agent.data?.price}`);
  return { extracted: extracted.data?.name ?? "", agentStatus: agent.status };
}

runIfMain(import.meta.url, main);
