/** The tool names, in the order they are listed. */

/** Every tool name, in the order they are listed. */
export const TOOL_NAMES = [
  "scrape",
  "search",
  "map",
  "crawl_start",
  "crawl_status",
  "crawl_wait",
  "crawl_cancel",
  "batch_scrape",
  "batch_status",
  "extract",
  "extract_status",
  "agent",
  "agent_status",
  "agent_cancel",
  "interact",
  "interact_stop",
  "browser_create",
  "browser_execute",
  "browser_list",
  "browser_delete",
  "search_feedback",
  "usage",
] as const;

/** The tools there are. */
export type ToolName = (typeof TOOL_NAMES)[number];
