/**
 * The rows in which Hermes stores a compaction summary (a "handoff"): how to recognise one in a
 * transcript, how to get the summary body back out of it, and what else the row carries.
 *
 * Observed shapes (live Hermes, see `tests/hermes_live`):
 * - standalone: prefix line, body, end marker. Hermes 0.22 flags it with `_compressed_summary`
 *   (role `user`) and may append, after the end marker, the user's unfinished request restated
 *   (`[STILL IN PROGRESS — …]`); Hermes 0.19 has no flag column.
 * - merged into a tail row (Hermes 0.19, role `assistant`): `[PRIOR CONTEXT — …]`, the row's own
 *   earlier content, `[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]`, then prefix, body and
 *   end marker.
 *
 * @module
 */
import {
  contentText,
  LEGACY_SUMMARY_PREFIX,
  MERGED_PRIOR_HEADER,
  MERGED_SUMMARY_DELIMITER,
  SUMMARY_END_MARKER,
  SUMMARY_PREFIX_START,
} from "../core/mod.ts";

/** How a row holds a summary: the whole row, or merged after the row's earlier content. */
export type HandoffKind = "standalone" | "merged";

/**
 * How `row` holds a compaction summary, or undefined when it holds none: flagged, starting with
 * a summary prefix, or carrying one right after the merge delimiter (Hermes's own test).
 */
export function handoffKind(row: Readonly<Record<string, unknown>>): HandoffKind | undefined {
  const text = contentText(row.content).trimStart();
  const delimiter = text.indexOf(MERGED_SUMMARY_DELIMITER);
  if (delimiter >= 0) {
    const after = text.slice(delimiter + MERGED_SUMMARY_DELIMITER.length).trimStart();
    if (startsWithPrefix(after)) return "merged";
  } else if (startsWithPrefix(text)) return "standalone";
  return row._compressed_summary === true || row._compressed_summary === 1
    ? "standalone"
    : undefined;
}

/** Whether a message row holds a compaction summary (see {@linkcode handoffKind}). */
export function isSummaryRow(row: Readonly<Record<string, unknown>>): boolean {
  return handoffKind(row) !== undefined;
}

/**
 * The summary body inside a stored summary row's text: after the merge delimiter if any, after
 * the prefix line (one line in every version), up to the end marker.
 */
export function summaryBody(content: string): string {
  let text = content.trim();
  const delimiter = text.indexOf(MERGED_SUMMARY_DELIMITER);
  if (delimiter >= 0) text = text.slice(delimiter + MERGED_SUMMARY_DELIMITER.length).trim();
  if (startsWithPrefix(text)) {
    const newline = text.indexOf("\n");
    text = newline === -1 ? "" : text.slice(newline + 1);
  }
  const end = text.indexOf(SUMMARY_END_MARKER);
  return (end >= 0 ? text.slice(0, end) : text).trim();
}

/**
 * What a summary row carries besides the summary, as Hermes hands it to the summary step (its
 * `_strip_context_summary_handoff_message`): a merged row's earlier content, or the text after a
 * standalone row's end marker (the restated unfinished request), each as a row with the summary
 * row's role and ids but no summary flag. Undefined when there is nothing else.
 */
export function handoffRemainder(
  row: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  if (typeof row.content !== "string") return undefined;
  const content = row.content;
  let rest = "";
  const delimiter = content.indexOf(MERGED_SUMMARY_DELIMITER);
  if (delimiter >= 0) {
    rest = content.slice(0, delimiter).trim();
    if (rest.startsWith(MERGED_PRIOR_HEADER)) {
      rest = rest.slice(MERGED_PRIOR_HEADER.length).trimStart();
    }
  } else {
    const end = content.indexOf(SUMMARY_END_MARKER);
    if (end >= 0) rest = content.slice(end + SUMMARY_END_MARKER.length).trimStart();
  }
  if (rest === "") return undefined;
  const { _compressed_summary: _, ...kept } = row;
  return { ...kept, content: rest };
}

/** A summary row's text as Hermes stores it: prefix line, body, end marker. */
export function summaryRowText(body: string): string {
  return `${SUMMARY_PREFIX_START} Earlier turns were compacted; this summary is reference ` +
    `material, not instructions.\n${body}\n\n${SUMMARY_END_MARKER}`;
}

function startsWithPrefix(text: string): boolean {
  return text.startsWith(SUMMARY_PREFIX_START) || text.startsWith(LEGACY_SUMMARY_PREFIX);
}
