import { SUMMARY_PREFIX_START, summaryBody } from "../compaction/mod.ts";
import type { StateDb } from "./state_db.ts";

// Hermes 0.19 merges a summary into a tail row after its earlier content and this delimiter.
const MERGED_SUMMARY = "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]";

/**
 * The body of the newest compaction summary stored for session `sessionId`, when it has one: a row
 * Hermes flagged as a summary, or whose text holds its summary prefix (a standalone summary row, or
 * a tail row Hermes merged one into). A row repeating an earlier row's text is a copy Hermes stored
 * again after a compaction (0.19 stores its earlier summary again after the newer one), not a newer
 * summary. Call inside {@linkcode StateDb.read}.
 */
export function latestSummary(db: StateDb, sessionId: string): string | undefined {
  const columns = db.columns("messages");
  if (!columns.has("content")) return undefined;
  const flagged = columns.has("_compressed_summary") ? "_compressed_summary = 1 OR " : "";
  const row = db.get(
    `SELECT ${
      db.select("messages", "content", "NULL", true)
    } FROM messages AS m WHERE session_id = ? AND (${flagged}instr(content, ?) > 0) ` +
      "AND NOT EXISTS (SELECT 1 FROM messages AS earlier WHERE earlier.session_id = m.session_id " +
      "AND earlier.id < m.id AND earlier.content = m.content) ORDER BY id DESC LIMIT 1",
    sessionId,
    SUMMARY_PREFIX_START,
  );
  if (typeof row?.content !== "string") return undefined;
  const merged = row.content.lastIndexOf(MERGED_SUMMARY);
  const text = merged === -1 ? row.content : row.content.slice(merged + MERGED_SUMMARY.length);
  const body = summaryBody(text.trimStart());
  return body === "" ? undefined : body;
}
