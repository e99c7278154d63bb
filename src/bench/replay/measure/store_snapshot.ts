/**
 * What state.db holds at a moment, read-only: a digest of each message row's columns, so two
 * snapshots tell which rows Hermes wrote anew and which it rewrote. Only the columns that carry a
 * message and its state are compared (role, content, calls, ids, times, the active, compacted
 * and summary flags, reasoning); Hermes's display bookkeeping, which its triggers maintain, is
 * not a message.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";

/** The compared columns, where the store has them. */
const COLUMNS = [
  "session_id",
  "role",
  "content",
  "tool_call_id",
  "tool_calls",
  "tool_name",
  "timestamp",
  "finish_reason",
  "reasoning",
  "reasoning_content",
  "api_content",
  "active",
  "compacted",
  "_compressed_summary",
  "message_uid",
];

/** One row: a digest per compared column. */
export type RowDigest = Readonly<Record<string, string>>;

/** Every message row, by id. */
export type StoreSnapshot = ReadonlyMap<number, RowDigest>;

/** One row that changed between two snapshots, and which columns. */
export interface RewrittenRow {
  readonly id: number;
  readonly columns: readonly string[];
}

function digest(value: unknown): string {
  return createHash("sha1").update(value === null ? "\u0000null" : String(value)).digest("hex")
    .slice(0, 16);
}

/** Reads every message row of the store at `path` (empty when it does not exist yet). */
export function readSnapshot(path: string): StoreSnapshot {
  try {
    Deno.statSync(path);
  } catch {
    return new Map();
  }
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const present = new Set(
      (db.prepare("PRAGMA table_info(messages)").all() as { name: string }[]).map((c) => c.name),
    );
    const columns = COLUMNS.filter((column) => present.has(column));
    const rows = db.prepare(`SELECT id, ${columns.map((c) => `"${c}"`).join(", ")} FROM messages`)
      .all() as Record<string, unknown>[];
    return new Map(rows.map((row) => [
      Number(row.id),
      Object.fromEntries(columns.map((column) => [column, digest(row[column])])),
    ]));
  } finally {
    db.close();
  }
}

/** The rows of `before` that `after` holds with other values (deleted rows count too). */
export function rewrittenRows(before: StoreSnapshot, after: StoreSnapshot): RewrittenRow[] {
  const changed: RewrittenRow[] = [];
  for (const [id, old] of before) {
    const now = after.get(id);
    const columns = now === undefined
      ? ["(deleted)"]
      : Object.keys(old).filter((column) => old[column] !== now[column]);
    if (columns.length > 0) changed.push({ id, columns });
  }
  return changed;
}

/** Whether some row of `before` became inactive or compacted in `after` (Hermes archiving). */
export function archivedRows(before: StoreSnapshot, after: StoreSnapshot): boolean {
  for (const [id, old] of before) {
    const now = after.get(id);
    if (now && (old.active !== now.active || old.compacted !== now.compacted)) return true;
  }
  return false;
}
