/**
 * Agent signup: an agent provisions its own API key for a human sponsor
 * (usable at once, limited until the sponsor confirms the e-mail), then
 * scrapes with it.
 *
 *   npm run build && npx tsx examples/agent-signup.ts   # set SPONSOR_EMAIL against the service
 */
import { SignupError } from "webdata";
import { runIfMain, type Connection } from "./connect.js";

/** Signs up, then scrapes with the new key. */
export async function main({ client, site }: Connection): Promise<{ status: string; title: string }> {
  const email = process.env.SPONSOR_EMAIL ?? "owner@example.com";
  let signup;
  try {
    signup = await client.agentSignup({ email, agent_name: "examples/agent-signup", accept_terms: true });
  } catch (err) {
    if (err instanceof SignupError && err.reason === "pending") console.log(`${email} already has a pending key: ask them to confirm it`);
    throw err;
  }
  console.log(`key for ${email}: ${signup.sponsor_status}, ${signup.credits_remaining} of ${signup.credit_limit} credits until confirmed`);
  const agent = signup.createClient(); // same options, the new key
  const doc = await agent.scrape(`${site}/about`, { formats: ["markdown"] });
  console.log(`first scrape with the new key: "${String(doc.metadata.title)}"`);
  return { status: signup.sponsor_status, title: String(doc.metadata.title) };
}

runIfMain(import.meta.url, main);
