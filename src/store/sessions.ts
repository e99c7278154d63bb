import type { StateDb } from "./state_db.ts";

/** One session of the store with its compaction counts. */
export interface SessionInfo {
  readonly id: string;
  readonly title: string | null;
  readonly source: string | null;
  /** Epoch seconds, as Hermes records them. */
  readonly startedAt: number | null;
  readonly endedAt: number | null;
  readonly endReason: string | null;
  readonly parentSessionId: string | null;
  /** Message rows stored for this session, archived ones included. */
  readonly rows: number;
  /** Rows an in-place compaction archived (`compacted = 1`). */
  readonly compactedRows: number;
  /** Summary rows written by in-place compactions, plus one if the session rotated. */
  readonly compactions: number;
  /** Epoch seconds until which automatic compaction is deferred after a failure (0: none). */
  readonly cooldownUntil: number;
  readonly cooldownError: string | null;
}

interface MessageCounts {
  rows: number;
  compacted: number;
  summaries: number;
}

/**
 * Every session, oldest first, with row, compacted-row and compaction counts. Sessions that have
 * messages but no `sessions` row are listed too. Call inside {@linkcode StateDb.read}.
 */
export function listSessions(db: StateDb): SessionInfo[] {
  const counts = new Map<string, MessageCounts>();
  const compacted = db.columns("messages").has("compacted") ? "SUM(compacted = 1)" : "0";
  // Hermes flags its summary rows; stores from before the flag existed are read by prefix.
  const summaries = db.columns("messages").has("_compressed_summary")
    ? "SUM(COALESCE(_compressed_summary, 0) = 1)"
    : `SUM(substr(content, 1, 40) LIKE '[CONTEXT COMPACTION%' ` +
      `OR substr(content, 1, 20) LIKE '[CONTEXT SUMMARY]:%')`;
  for (
    const row of db.all(
      `SELECT session_id, COUNT(*) AS n, ${compacted} AS c, ${summaries} AS s ` +
        `FROM messages GROUP BY session_id`,
    )
  ) {
    counts.set(String(row.session_id), {
      rows: Number(row.n),
      compacted: Number(row.c ?? 0),
      summaries: Number(row.s ?? 0),
    });
  }
  const s = (column: string, fallback = "NULL") => db.select("sessions", column, fallback);
  const sessions = db.all(
    `SELECT id, ${s("title")}, ${s("source")}, ${s("started_at")}, ${s("ended_at")}, ` +
      `${s("end_reason")}, ${s("parent_session_id")}, ` +
      `${s("compression_failure_cooldown_until", "0")}, ${s("compression_failure_error")} ` +
      `FROM sessions`,
  ).map((row): SessionInfo => {
    const id = String(row.id);
    const count = counts.get(id) ?? { rows: 0, compacted: 0, summaries: 0 };
    counts.delete(id);
    return {
      id,
      title: textOrNull(row.title),
      source: textOrNull(row.source),
      startedAt: numberOrNull(row.started_at),
      endedAt: numberOrNull(row.ended_at),
      endReason: textOrNull(row.end_reason),
      parentSessionId: textOrNull(row.parent_session_id),
      rows: count.rows,
      compactedRows: count.compacted,
      compactions: count.summaries + (row.end_reason === "compression" ? 1 : 0),
      cooldownUntil: numberOrNull(row.compression_failure_cooldown_until) ?? 0,
      cooldownError: textOrNull(row.compression_failure_error),
    };
  });
  for (const [id, count] of counts) {
    sessions.push({
      id,
      title: null,
      source: null,
      startedAt: null,
      endedAt: null,
      endReason: null,
      parentSessionId: null,
      rows: count.rows,
      compactedRows: count.compacted,
      compactions: count.summaries,
      cooldownUntil: 0,
      cooldownError: null,
    });
  }
  return sessions.sort((a, b) =>
    (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** The session `id`, or undefined when the store has neither a session row nor messages for it. */
export function findSession(db: StateDb, id: string): SessionInfo | undefined {
  return listSessions(db).find((session) => session.id === id);
}

function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
