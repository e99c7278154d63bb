import type { SessionInfo } from "./sessions.ts";

/** A session whose automatic compaction is deferred after a failed summary. */
export interface Cooldown {
  readonly sessionId: string;
  /** Epoch seconds the cooldown lasts until. */
  readonly until: number;
  /** Whether `until` is still in the future at the time of the report. */
  readonly active: boolean;
  /** The error Hermes recorded for the failure. */
  readonly error: string | null;
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
  /** Sessions with a recorded compression cooldown, newest first. */
  readonly cooldowns: readonly Cooldown[];
}

/** Sums the sessions' counts; `now` (epoch seconds) decides which cooldowns are active. */
export function storeStats(sessions: readonly SessionInfo[], now: number): StoreStats {
  return {
    sessions: sessions.length,
    rows: sum(sessions, (session) => session.rows),
    compactedRows: sum(sessions, (session) => session.compactedRows),
    rotatedSessions: sessions.filter((session) => session.endReason === "compression").length,
    compactedSessions: sessions.filter((session) => session.compactions > 0).length,
    cooldowns: sessions
      .filter((session) => session.cooldownUntil > 0)
      .map((session) => ({
        sessionId: session.id,
        until: session.cooldownUntil,
        active: session.cooldownUntil > now,
        error: session.cooldownError,
      }))
      .sort((a, b) => b.until - a.until),
  };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}
