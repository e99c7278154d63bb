import { summaryBody } from "../compaction/mod.ts";
import { MERGED_SUMMARY_DELIMITER } from "../core/mod.ts";

/**
 * The body of the newest summary a stored summary row holds: after the last delimiter when Hermes
 * (0.19) merged summaries into a row after its earlier content, else the row's own; `undefined`
 * when it has none.
 */
export function newestSummaryBody(content: string): string | undefined {
  const merged = content.lastIndexOf(MERGED_SUMMARY_DELIMITER);
  const text = merged === -1 ? content : content.slice(merged + MERGED_SUMMARY_DELIMITER.length);
  const body = summaryBody(text.trimStart());
  return body === "" ? undefined : body;
}
