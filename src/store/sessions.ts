import type { CompactionState } from "./compaction_holds.ts";
import { isSummaryRow, summaryBody } from "../compaction/mod.ts";
import {
  LEGACY_SUMMARY_PREFIX,
  MERGED_SUMMARY_DELIMITER,
  SUMMARY_PREFIX_START,
} from "../core/mod.ts";
import { storeGeneration } from "./hermes_generation.ts";
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
  /** What the session's row says about holding its compaction back. */
  readonly compaction: CompactionState;
}

interface MessageCounts {
  readonly rows: number;
  readonly compacted: number;
  summaries: number;
}

/**
 * Every session, oldest first, with row, compacted-row and compaction counts. Sessions that have
 * messages but no `sessions` row are listed too. Call inside {@linkcode StateDb.read}.
 */
export function listSessions(db: StateDb): SessionInfo[] {
  const counts = new Map<string, MessageCounts>();
  const compacted = db.columns("messages").has("compacted") ? "SUM(compacted = 1)" : "0";
  for (
    const row of db.all(
      `SELECT session_id, COUNT(*) AS n, ${compacted} AS c FROM messages GROUP BY session_id`,
    )
  ) {
    counts.set(String(row.session_id), {
      rows: Number(row.n),
      compacted: Number(row.c ?? 0),
      summaries: 0,
    });
  }
  for (const [id, summaries] of compactionCounts(db)) {
    const count = counts.get(id);
    if (count) count.summaries = summaries;
  }
  const generation = storeGeneration(db);
  const s = (column: string, fallback = "NULL") => db.select("sessions", column, fallback);
  const sessions = db.all(
    `SELECT id, ${s("title")}, ${s("source")}, ${s("started_at")}, ${s("ended_at")}, ` +
      `${s("end_reason")}, ${s("parent_session_id")}, ${s("model_config")}, ` +
      `${s("compression_failure_cooldown_until")}, ${s("compression_failure_error")}, ` +
      `${s("compression_fallback_streak")}, ${s("compression_ineffective_count")}, ` +
      `${s("compression_recovery_deadline")}, ${s("compression_overload_streak")} ` +
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
      compaction: {
        generation,
        cooldownUntil: numberOrNull(row.compression_failure_cooldown_until) ?? 0,
        cooldownError: textOrNull(row.compression_failure_error),
        fallbackStreak: numberOrNull(row.compression_fallback_streak) ?? 0,
        ineffectiveCount: db.columns("sessions").has("compression_ineffective_count")
          ? numberOrNull(row.compression_ineffective_count) ?? 0
          : null,
        recoveryDeadline: numberOrNull(row.compression_recovery_deadline) ?? 0,
        overloadStreak: db.columns("sessions").has("compression_overload_streak")
          ? numberOrNull(row.compression_overload_streak) ?? 0
          : null,
        summaryProbeAt: probeAt(row.model_config),
      },
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
      compaction: {
        generation,
        cooldownUntil: 0,
        cooldownError: null,
        fallbackStreak: 0,
        ineffectiveCount: null,
        recoveryDeadline: 0,
        overloadStreak: null,
        summaryProbeAt: 0,
      },
    });
  }
  return sessions.sort((a, b) =>
    (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Compactions per session: the distinct summaries its rows hold. Hermes stores a summary again
 * with the rows it keeps (0.19 copies earlier ones verbatim), so copies count once.
 */
function compactionCounts(db: StateDb): Map<string, number> {
  const flagged = db.columns("messages").has("_compressed_summary")
    ? "COALESCE(_compressed_summary, 0) = 1 OR "
    : "";
  const bodies = new Map<string, Set<string>>();
  const candidates = db.all(
    `SELECT session_id, ${db.select("messages", "content", "NULL", true)}, ` +
      `${db.select("messages", "_compressed_summary", "0")} FROM messages ` +
      `WHERE ${flagged}substr(content, 1, ?) = ? OR substr(content, 1, ?) = ? ` +
      "OR instr(content, ?) > 0",
    SUMMARY_PREFIX_START.length,
    SUMMARY_PREFIX_START,
    LEGACY_SUMMARY_PREFIX.length,
    LEGACY_SUMMARY_PREFIX,
    MERGED_SUMMARY_DELIMITER,
  );
  for (const row of candidates) {
    if (!isSummaryRow(row) || typeof row.content !== "string") continue;
    const id = String(row.session_id);
    const seen = bodies.get(id) ?? new Set<string>();
    seen.add(summaryBody(row.content));
    bodies.set(id, seen);
  }
  return new Map([...bodies].map(([id, seen]) => [id, seen.size]));
}

/** The session `id`, or undefined when the store has neither a session row nor messages for it. */
export function findSession(db: StateDb, id: string): SessionInfo | undefined {
  return listSessions(db).find((session) => session.id === id);
}

/** `_fallback_probe_at` in a session's `model_config` JSON, 0 when absent or unreadable. */
function probeAt(modelConfig: unknown): number {
  if (typeof modelConfig !== "string") return 0;
  try {
    const config: unknown = JSON.parse(modelConfig);
    const at = (config as { _fallback_probe_at?: unknown } | null)?._fallback_probe_at;
    return typeof at === "number" && Number.isFinite(at) ? at : 0;
  } catch {
    return 0;
  }
}

function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
