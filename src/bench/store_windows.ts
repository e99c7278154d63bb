import {
  cutForCompaction,
  hermesTokens,
  isSummaryRow,
  type MessageRow,
  projectionBudget,
  replayCompactions,
  summaryBody,
} from "../compaction/mod.ts";
import type { StateDb } from "../store/mod.ts";
import { listSessions, readMessages, toWindowRow } from "../store/mod.ts";
import type { ProofWindow } from "./proofs/mod.ts";

/** A summary stored in the database, with every row of its session lineage. */
export interface StoredSummary {
  /** `<session id>#<row id>` of the summary row. */
  readonly id: string;
  readonly body: string;
  /** Rows of the summary's session and of the sessions it was rotated from. */
  readonly lineage: readonly MessageRow[];
}

/** Windows and stored summaries read from one database. */
export interface StoreSources {
  readonly sessions: number;
  readonly windows: readonly ProofWindow[];
  readonly summaries: readonly StoredSummary[];
}

/**
 * Reads every session of the store and cuts it where Hermes would compact it with a
 * `contextTokens` window (see {@linkcode replayCompactions}); a session that never reaches the
 * threshold contributes the window a compaction now would summarise. Also collects every stored
 * summary row. Call inside {@linkcode StateDb.read}.
 */
export function readStoreSources(db: StateDb, contextTokens: number): StoreSources {
  const sessions = listSessions(db);
  const rowsBySession = new Map<string, MessageRow[]>();
  for (const session of sessions) {
    rowsBySession.set(session.id, readMessages(db, session.id).map(toWindowRow));
  }
  const parents = new Map(sessions.map((session) => [session.id, session.parentSessionId]));
  const windows: ProofWindow[] = [];
  const summaries: StoredSummary[] = [];
  for (const session of sessions) {
    const rows = rowsBySession.get(session.id) ?? [];
    const transcript = rows.filter((row) => !isSummaryRow(row));
    const replayed = replayCompactions(transcript, { contextTokens }).map((found) => found.window);
    const now = replayed.length > 0
      ? []
      : [cutForCompaction(transcript, { contextTokens })?.window];
    [...replayed, ...now].forEach((window, index) => {
      if (!window || window.length === 0) return;
      const tokens = hermesTokens(window);
      windows.push({
        id: `${session.id}:${index + 1}`,
        rows: window,
        options: { sessionId: session.id, budgetTokens: projectionBudget(contextTokens, tokens) },
      });
    });
    const lineage = lineageRows(session.id, parents, rowsBySession);
    for (const row of rows) {
      if (isSummaryRow(row) && typeof row.content === "string") {
        summaries.push({
          id: `${session.id}#${row._row_id}`,
          body: summaryBody(row.content),
          lineage,
        });
      }
    }
  }
  return { sessions: sessions.length, windows, summaries };
}

function lineageRows(
  id: string,
  parents: ReadonlyMap<string, string | null>,
  rowsBySession: ReadonlyMap<string, MessageRow[]>,
): MessageRow[] {
  const rows: MessageRow[] = [];
  const seen = new Set<string>();
  for (let at: string | null | undefined = id; at && !seen.has(at); at = parents.get(at)) {
    seen.add(at);
    rows.unshift(...(rowsBySession.get(at) ?? []));
  }
  return rows;
}
