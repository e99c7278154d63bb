/**
 * The message rows of a Hermes state.db, read-only, as the bench needs them: the row Hermes
 * first stored for each call and each result of the story (later copies, such as the head 0.22
 * stores again after a compaction, are not originals).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

/** One stored message. */
export interface StoredRow {
  readonly id: number;
  readonly role: string;
  readonly content: string;
  readonly toolCallId: string;
  /** The ids and raw arguments of its tool calls. */
  readonly calls: readonly { readonly id: string; readonly arguments: string }[];
}

function parseCalls(text: unknown): StoredRow["calls"] {
  if (typeof text !== "string" || text === "") return [];
  try {
    const calls = JSON.parse(text);
    if (!Array.isArray(calls)) return [];
    return calls.map((call) => ({
      id: String(call?.id ?? ""),
      arguments: String(call?.function?.arguments ?? ""),
    }));
  } catch {
    return [];
  }
}

/** Every message row of the store at `path`, oldest first. */
export function readStoredRows(path: string): StoredRow[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare(
      "SELECT id, role, content, tool_call_id, tool_calls FROM messages ORDER BY id",
    ).all() as Record<string, unknown>[];
    return rows.map((row) => ({
      id: Number(row.id),
      role: String(row.role ?? ""),
      content: typeof row.content === "string" ? row.content : "",
      toolCallId: String(row.tool_call_id ?? ""),
      calls: parseCalls(row.tool_calls),
    }));
  } finally {
    db.close();
  }
}

/** The first stored result of call `id`. */
export function originalResult(rows: readonly StoredRow[], id: string): StoredRow | undefined {
  return rows.find((row) => row.role === "tool" && row.toolCallId === id);
}

/** The first stored assistant row that made call `id`. */
export function originalCall(rows: readonly StoredRow[], id: string): StoredRow | undefined {
  return rows.find((row) => row.role === "assistant" && row.calls.some((call) => call.id === id));
}
