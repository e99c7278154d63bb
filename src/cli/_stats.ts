import { command, constant, flag, map, message, object, optional } from "@optique/core";
import { dbOption, withStore } from "./_store_access.ts";
import { describeHold } from "./_compaction_holds.ts";
import type { Runner } from "./_runner.ts";
import type { HeldSession } from "../store/mod.ts";

/**
 * `vcc stats`: store-wide compaction counts, and the sessions whose compaction Hermes holds back
 * (what, until when, why).
 */
export const statsCommand = command(
  "stats",
  map(
    object({
      kind: constant("stats"),
      db: dbOption,
      json: optional(flag("--json", { description: message`One JSON document instead of text` })),
    }),
    (args): Runner => async (out) => {
      const now = Date.now() / 1000;
      const stats = await withStore(
        args.db,
        (db, store) => store.storeStats(store.listSessions(db), now),
      );
      if (args.json) {
        out.stdout(`${JSON.stringify(stats, null, 2)}\n`);
        return 0;
      }
      const lines = [
        `sessions: ${stats.sessions}`,
        `message rows: ${stats.rows}`,
        `compacted rows: ${stats.compactedRows}`,
        `sessions with a compaction: ${stats.compactedSessions}`,
        `rotated sessions: ${stats.rotatedSessions}`,
        `sessions whose compaction Hermes holds back: ${stats.held.length}`,
        ...stats.held.flatMap(holdLines),
        ...(stats.noted.length > 0
          ? [
            `sessions with compaction notes: ${stats.noted.length}`,
            ...stats.noted.flatMap(holdLines),
          ]
          : []),
      ];
      out.stdout(`${lines.join("\n")}\n`);
      return 0;
    },
  ),
  {
    description:
      message`Count rows, compacted rows and rotated sessions, and show whose compaction Hermes holds back`,
    footer: message`Example: vcc stats --db ~/.hermes/state.db --json`,
  },
);

function holdLines(session: HeldSession): string[] {
  return session.holds.map((hold) => `  ${session.sessionId}  ${describeHold(hold)}`);
}
