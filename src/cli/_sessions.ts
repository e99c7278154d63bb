import { command, constant, flag, map, message, object, optional } from "@optique/core";
import { dbOption, withStore } from "./_store_access.ts";
import { holdCell } from "./_compaction_holds.ts";
import { formatTable, formatTime, printable } from "./_display.ts";
import type { Runner } from "./_runner.ts";

/** `vcc sessions`: every session with its rows, compacted rows and compactions. */
export const sessionsCommand = command(
  "sessions",
  map(
    object({
      kind: constant("sessions"),
      db: dbOption,
      json: optional(
        flag("--json", { description: message`One JSON document instead of a table` }),
      ),
    }),
    (args): Runner => async (out) => {
      const now = Date.now() / 1000;
      const sessions = await withStore(
        args.db,
        (db, store) =>
          store.listSessions(db).map((session) => ({
            ...session,
            holds: store.compactionHolds(session.compaction, now),
          })),
      );
      if (args.json) {
        out.stdout(`${JSON.stringify({ sessions }, null, 2)}\n`);
        return 0;
      }
      out.stdout(formatTable([
        ["ID", "STARTED", "ROWS", "COMPACTED", "COMPACTIONS", "HELD BACK", "TITLE"],
        ...sessions.map((session) => [
          session.id,
          formatTime(session.startedAt),
          String(session.rows),
          String(session.compactedRows),
          String(session.compactions),
          holdCell(session.holds),
          printable(session.title ?? "-"),
        ]),
      ]));
      return 0;
    },
  ),
  {
    description:
      message`List the sessions in Hermes's store with their compaction counts and holds (details: vcc stats)`,
    footer: message`Example: vcc sessions --db ~/.hermes/state.db`,
  },
);
