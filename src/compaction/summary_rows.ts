/**
 * The rows in which Hermes stores a compaction summary: how to recognise one in a transcript and
 * how to get the summary body back out of it.
 *
 * @module
 */

/** How Hermes's summary prefix starts (the rest of the prefix varies by version). */
export const SUMMARY_PREFIX_START = "[CONTEXT COMPACTION — REFERENCE ONLY]";

/** The prefix older Hermes versions used. */
export const LEGACY_SUMMARY_PREFIX = "[CONTEXT SUMMARY]:";

/** The line Hermes appends after a summary body. */
export const SUMMARY_END_MARKER =
  "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

/** Whether a message row holds a compaction summary: flagged, or starting with a prefix. */
export function isSummaryRow(row: Readonly<Record<string, unknown>>): boolean {
  if (row._compressed_summary === true || row._compressed_summary === 1) return true;
  const content = row.content;
  return typeof content === "string" &&
    (content.startsWith(SUMMARY_PREFIX_START) || content.startsWith(LEGACY_SUMMARY_PREFIX));
}

/**
 * The summary body inside a stored summary row's text: after the prefix line (one line in every
 * version), up to the end marker.
 */
export function summaryBody(content: string): string {
  const end = content.indexOf(SUMMARY_END_MARKER);
  const text = end >= 0 ? content.slice(0, end) : content;
  const prefixed = text.startsWith(SUMMARY_PREFIX_START) || text.startsWith(LEGACY_SUMMARY_PREFIX);
  const newline = text.indexOf("\n");
  return (prefixed ? (newline === -1 ? "" : text.slice(newline + 1)) : text).trim();
}

/** A summary row's text as Hermes stores it: prefix line, body, end marker. */
export function summaryRowText(body: string): string {
  return `${SUMMARY_PREFIX_START} Earlier turns were compacted; this summary is reference ` +
    `material, not instructions.\n${body}\n\n${SUMMARY_END_MARKER}`;
}
