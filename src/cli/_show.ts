import { command, constant, flag, map, message, object, option, optional } from "@optique/core";
import { argument } from "@optique/core/primitives";
import { integer, string } from "@optique/core/valueparser";
import type { ScrollView, StoredMessage } from "../store/mod.ts";
import { UsageError } from "./_errors.ts";
import { dbOption, storedSession, withStore } from "./_store_access.ts";
import { formatTime, printable } from "./_display.ts";
import type { Runner } from "./_runner.ts";

/** `vcc show SESSION --around N`: the rows around `[#N]`, as `session_search` shows them. */
export const showCommand = command(
  "show",
  map(
    object({
      kind: constant("show"),
      session: argument(string({ metavar: "SESSION" }), {
        description: message`Session id (see vcc sessions)`,
      }),
      around: option("--around", integer({ min: 0, metavar: "N" }), {
        description: message`The row id a [#N] reference names`,
      }),
      window: optional(option("--window", integer({ min: 1, max: 20, metavar: "K" }), {
        description: message`Rows to show on each side, 1 to 20 (default 5)`,
      })),
      db: dbOption,
      json: optional(flag("--json", {
        description: message`JSON in the shape of session_search's scroll mode`,
      })),
    }),
    (args): Runner => async (out) => {
      const view = await withStore(args.db, (db, store) => {
        storedSession(db, store, args.session);
        const found = store.scrollAround(db, args.session, args.around, args.window);
        if (!found) throw new UsageError(`session ${args.session} has no row ${args.around}`);
        return found;
      });
      out.stdout(args.json ? `${JSON.stringify(scrollJson(view), null, 2)}\n` : scrollText(view));
      return 0;
    },
  ),
  {
    description: message`Show the stored rows around one [#N] reference`,
    footer: message`Example: vcc show 20260803_082413_6001150a --around 1005 --window 3`,
  },
);

function scrollJson(view: ScrollView): Record<string, unknown> {
  return {
    session_id: view.sessionId,
    around_message_id: view.aroundId,
    messages: view.messages.map((row) => ({
      id: row.id,
      role: row.role,
      content: row.content,
      timestamp: row.timestamp,
      ...(row.toolName === null ? {} : { tool_name: row.toolName }),
      ...(row.toolCalls === null ? {} : { tool_calls: row.toolCalls }),
      ...(row.toolCallId === null ? {} : { tool_call_id: row.toolCallId }),
      active: row.active,
      compacted: row.compacted,
      ...(row.id === view.aroundId ? { anchor: true } : {}),
    })),
    messages_before: view.messagesBefore,
    messages_after: view.messagesAfter,
  };
}

function scrollText(view: ScrollView): string {
  const lines = [`session ${view.sessionId}, rows around [#${view.aroundId}]`];
  if (view.messagesBefore > 0) lines.push(`(${view.messagesBefore} earlier rows not shown)`);
  for (const row of view.messages) lines.push(...rowText(row, row.id === view.aroundId));
  if (view.messagesAfter > 0) lines.push(`(${view.messagesAfter} later rows not shown)`);
  return `${lines.join("\n")}\n`;
}

function rowText(row: StoredMessage, anchor: boolean): string[] {
  const state = row.summary ? " summary" : row.compacted ? " archived" : "";
  const tool = row.toolName === null ? "" : ` ${row.toolName}`;
  const head = `${anchor ? ">" : " "}[#${row.id}] ${row.role}${tool}${state}  ${
    formatTime(row.timestamp)
  }`;
  const body = [row.content ?? "", row.toolCalls === null ? "" : `tool_calls: ${row.toolCalls}`]
    .filter((text) => text !== "")
    .join("\n");
  return [head, ...printable(body).split("\n").map((line) => `    ${line}`)];
}
