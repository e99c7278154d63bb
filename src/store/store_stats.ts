import { type CompactionHold, compactionHolds } from "./compaction_holds.ts";
import type { SessionInfo } from "./sessions.ts";

/** A session whose compaction Hermes holds back, or is about to. */
export interface HeldSession {
  readonly sessionId: string;
  readonly holds: readonly CompactionHold[];
}

/** Store-wide compaction counts. */
export interface StoreStats {
  readonly sessions: number;
  readonly rows: number;
  readonly compactedRows: number;
  /** Sessions in place of which compaction started a child (`end_reason = 'compression'`). */
  readonly rotatedSessions: number;
  /** Sessions with at least one in-place compaction or rotation. */
  readonly compactedSessions: number;
  /** Sessions with an active hold, newest first. */
  readonly held: readonly HeldSession[];
  /** Sessions with only ended holds or warnings, newest first. */
  readonly noted: readonly HeldSession[];
}

/** Sums the sessions' counts; `now` (epoch seconds) decides which holds are active. */
export function storeStats(sessions: readonly SessionInfo[], now: number): StoreStats {
  const withHolds = [...sessions]
    .sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0))
    .map((session) => ({ sessionId: session.id, holds: compactionHolds(session.compaction, now) }))
    .filter((session) => session.holds.length > 0);
  const isHeld = (session: HeldSession) =>
    session.holds.some((hold) => hold.active && hold.blocks !== null);
  return {
    sessions: sessions.length,
    rows: sum(sessions, (session) => session.rows),
    compactedRows: sum(sessions, (session) => session.compactedRows),
    rotatedSessions: sessions.filter((session) => session.endReason === "compression").length,
    compactedSessions: sessions.filter((session) => session.compactions > 0).length,
    held: withHolds.filter(isHeld),
    noted: withHolds.filter((session) => !isHeld(session)),
  };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}
