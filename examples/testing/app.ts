// Your application code: it takes a client, so a test can hand it one that talks to the fake.
import { JobFailedError, type WebData } from "webdata";

/** What `summarise` returns. */
export interface Summary {
  title: string;
  words: number;
}

/** Scrapes a page and summarises it: its title and how many words it has. */
export async function summarise(client: WebData, url: string): Promise<Summary> {
  const doc = await client.scrape(url, { formats: ["markdown"], onlyMainContent: true });
  const words = (doc.markdown ?? "").split(/\s+/).filter(Boolean).length;
  return { title: String(doc.metadata.title ?? url), words };
}

/** Crawls a site and lists its page titles. A crawl that fails is reported, not thrown. */
export async function siteIndex(client: WebData, site: string): Promise<{ titles: string[]; error?: string }> {
  try {
    const job = await client.crawl(site, { limit: 10, scrapeOptions: { formats: ["markdown"] } });
    return { titles: job.data.map((doc) => String(doc.metadata.title)) };
  } catch (err) {
    if (err instanceof JobFailedError) return { titles: [], error: err.serverError ?? err.message };
    throw err;
  }
}
