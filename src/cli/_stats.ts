import { command, constant, flag, map, message, object, optional } from "@optique/core";
import { dbOption, withStore } from "./_store_access.ts";
import { formatTime, printable } from "./_display.ts";
import type { Runner } from "./_runner.ts";

/** `vcc stats`: store-wide compaction counts and the sessions in a compression cooldown. */
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
        `sessions with a compression cooldown: ${stats.cooldowns.length}`,
        ...stats.cooldowns.map((cooldown) =>
          `  ${cooldown.sessionId}  until ${formatTime(cooldown.until)}${
            cooldown.active ? " (active)" : ""
          }  error: ${printable(cooldown.error ?? "-")}`
        ),
      ];
      out.stdout(`${lines.join("\n")}\n`);
      return 0;
    },
  ),
  {
    description:
      message`Count rows, compacted rows, rotated sessions and compression cooldowns in the store`,
    footer: message`Example: vcc stats --db ~/.hermes/state.db --json`,
  },
);
