/** The tool names, in the order they are listed. */

/** Every tool name, in the order they are listed. */
export const TOOL_NAMES = [
  "scrape",
  "search",
  "map",
  "parse",
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
  "monitor_create",
  "monitor_list",
  "monitor_get",
  "monitor_run",
  "monitor_delete",
  "search_feedback",
  "feedback",
  "usage",
] as const;

/** The tools there are. */
export type ToolName = (typeof TOOL_NAMES)[number];
