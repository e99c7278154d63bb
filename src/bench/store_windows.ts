import {
  cutForCompaction,
  hermesRules,
  hermesTokens,
  isSummaryRow,
  type MessageRow,
  projectionBudget,
  replayCompactions,
  summaryBody,
} from "../compaction/mod.ts";
import type { StateDb } from "../store/mod.ts";
import { listSessions, readMessages, storeGeneration, toWindowRow } from "../store/mod.ts";
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
 * `contextTokens` window, by the rules of the Hermes generation the store's schema names. A
 * session Hermes has compacted contributes the window its next compaction would summarise (its
 * live rows, the earlier summaries merged as the previous projection, and every stored row of
 * its lineage citable); any other session is replayed through the threshold (see
 * {@linkcode replayCompactions}), or cut once when it never reaches it. Also collects every
 * distinct stored summary. Call inside {@linkcode StateDb.read}.
 */
export function readStoreSources(db: StateDb, contextTokens: number): StoreSources {
  const sessions = listSessions(db);
  const rules = hermesRules(storeGeneration(db));
  const rowsBySession = new Map<string, MessageRow[]>();
  const liveBySession = new Map<string, MessageRow[]>();
  for (const session of sessions) {
    const stored = readMessages(db, session.id);
    rowsBySession.set(session.id, stored.map(toWindowRow));
    liveBySession.set(session.id, stored.filter((row) => row.active).map(toWindowRow));
  }
  const parents = new Map(sessions.map((session) => [session.id, session.parentSessionId]));
  const windows: ProofWindow[] = [];
  const summaries: StoredSummary[] = [];
  for (const session of sessions) {
    const rows = rowsBySession.get(session.id) ?? [];
    const lineage = lineageRows(session.id, parents, rowsBySession);
    const compacted = session.compactions > 0 || session.compactedRows > 0;
    const settings = { contextTokens, rules, compactedBefore: compacted };
    const cuts = compacted
      ? [cutForCompaction(liveBySession.get(session.id) ?? [], settings)]
      : replayOrCut(rows, settings);
    cuts.forEach((cut, index) => {
      if (!cut || cut.window.length === 0) return;
      const tokens = hermesTokens(cut.window);
      windows.push({
        id: `${session.id}:${index + 1}`,
        rows: cut.window,
        options: {
          sessionId: session.id,
          budgetTokens: projectionBudget(contextTokens, tokens),
          ...(cut.previous === undefined ? {} : { previous: cut.previous }),
        },
        ...(compacted ? { citable: lineage } : {}),
      });
    });
    const seen = new Set<string>();
    for (const row of rows) {
      if (!isSummaryRow(row) || typeof row.content !== "string") continue;
      const body = summaryBody(row.content);
      if (seen.has(body)) continue;
      seen.add(body);
      summaries.push({ id: `${session.id}#${row._row_id}`, body, lineage });
    }
  }
  return { sessions: sessions.length, windows, summaries };
}

/** The windows of a session Hermes never compacted: replayed, or the one a compaction now cuts. */
function replayOrCut(
  rows: readonly MessageRow[],
  settings: Parameters<typeof replayCompactions>[1],
): ({ window: readonly MessageRow[]; previous?: string } | undefined)[] {
  const replayed = replayCompactions(rows, settings);
  return replayed.length > 0 ? replayed : [cutForCompaction(rows, settings)];
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
