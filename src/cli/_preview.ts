import {
  command,
  constant,
  flag,
  map,
  message,
  object,
  option,
  optional,
  text,
} from "@optique/core";
import { argument } from "@optique/core/primitives";
import { choice, integer, string } from "@optique/core/valueparser";
import { budgetTokens } from "./_budget_tokens.ts";
import {
  DEFAULT_CONTEXT_TOKENS,
  hermesRules,
  isSummaryRow,
  previewCompaction,
  type PreviewSettings,
  type WindowReading,
} from "../compaction/mod.ts";
import { HERMES_GENERATIONS, type HermesGeneration } from "../core/mod.ts";
import { assertHeaderFits } from "./_header_budget.ts";
import { dbOption, storedSession, withStore } from "./_store_access.ts";
import type { Runner } from "./_runner.ts";
import { showCommand } from "../hermes/self_command.ts";

/** `vcc preview SESSION`: the summary vcc would write if the session compacted now. */
export const previewCommand = command(
  "preview",
  map(
    object({
      kind: constant("preview"),
      session: argument(string({ metavar: "SESSION" }), {
        description: message`Session id (see vcc sessions)`,
      }),
      contextTokens: optional(option("--context-tokens", integer({ min: 1000, metavar: "N" }), {
        description: message`The model's context window in tokens (default ${
          text(String(DEFAULT_CONTEXT_TOKENS))
        })`,
      })),
      hermes: optional(option("--hermes", choice(HERMES_GENERATIONS), {
        description:
          message`Cut as this Hermes generation does (default: told by the store's schema)`,
      })),
      budgetTokens: optional(option("--budget-tokens", budgetTokens, {
        description: message`Fixed projection budget instead of the engine's default rule`,
      })),
      focus: optional(option("--focus", string({ metavar: "TOPIC" }), {
        description: message`Focus topic, as in /compress TOPIC`,
      })),
      db: dbOption,
      json: optional(flag("--json", {
        description: message`The body with its stats and the cut, as JSON`,
      })),
    }),
    (args): Runner => async (out) => {
      const { preview, rows, generation, settings, read } = await withStore(
        args.db,
        (db, store) => {
          const session = storedSession(db, store, args.session);
          const generation: HermesGeneration = args.hermes ?? store.storeGeneration(db);
          const rows = store.readMessages(db, args.session, { activeOnly: true }).map(
            store.toWindowRow,
          );
          const settings: PreviewSettings = {
            contextTokens: args.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
            rules: hermesRules(generation),
            // The session's own compressor stops pinning the head after its first compaction.
            compactedBefore: session.compactions > 0 || session.compactedRows > 0,
            sessionId: args.session,
            ...(args.budgetTokens === undefined ? {} : { budgetTokens: args.budgetTokens }),
            ...(args.focus === undefined ? {} : { focus: args.focus }),
          };
          // The window is read against the store as `vcc serve` reads what Hermes hands it (the
          // outputs Hermes saved to files, the newest stored summary), so the preview is what the
          // plugin would write.
          const reader = new store.StoredWindowReader();
          const source = { path: db.path, sessionId: args.session };
          const read: WindowReading = (messages, options) =>
            store.projectionInput({ messages, options, store: source }, reader, showCommand);
          return {
            preview: previewCompaction(rows, settings, read),
            rows,
            generation,
            settings,
            read,
          };
        },
      );
      if (!preview) {
        out.stderr(
          `vcc: session ${args.session} has nothing to compact (${rows.length} live rows, ` +
            `cut as Hermes ${generation})`,
        );
        if (args.json) out.stdout(`${JSON.stringify({ sessionId: args.session, window: null })}\n`);
        return 0;
      }
      assertHeaderFits(
        preview.projection,
        (budgetTokens) =>
          previewCompaction(rows, { ...settings, budgetTokens }, read)!.projection.body,
      );
      const ids = preview.cut.window.map((row) => row._row_id);
      const cut = {
        hermes: generation,
        liveRows: rows.length,
        headRows: preview.cut.head.length,
        windowRows: preview.cut.window.length,
        tailRows: preview.cut.tail.length,
        firstRowId: ids[0] ?? null,
        lastRowId: ids.at(-1) ?? null,
        windowRowIds: ids,
        tailFirstRowId: preview.cut.tail[0]?._row_id ?? null,
        windowTokens: preview.windowTokens,
        budgetTokens: preview.budgetTokens,
        mergedPrevious: preview.cut.previous !== undefined,
      };
      if (args.json) {
        const report = { sessionId: args.session, cut, ...preview.projection };
        out.stdout(`${JSON.stringify(report, null, 2)}\n`);
        return 0;
      }
      const summaryInTail = !cut.mergedPrevious && preview.cut.tail.some(isSummaryRow);
      out.stderr(
        `preview: rows [#${cut.firstRowId}]..[#${cut.lastRowId}] (${cut.windowRows} of ` +
          `${rows.length} live rows, ~${cut.windowTokens} tokens, cut as Hermes ${generation}) ` +
          `would be summarised into at most ${cut.budgetTokens} tokens; ${cut.tailRows} tail ` +
          `rows stay verbatim` +
          (cut.mergedPrevious ? "; the previous summary is merged" : "") +
          (summaryInTail
            ? "; Hermes passes no previous summary (the newest one is in the protected tail)"
            : ""),
      );
      const body = preview.projection.body;
      out.stdout(body.endsWith("\n") ? body : `${body}\n`);
      return 0;
    },
  ),
  {
    description: message`Print the summary vcc would write if SESSION compacted now`,
    footer:
      message`Follows Hermes's head, tail and pruning rules (0.19 or 0.22, told by the store); writes nothing. Example: vcc preview 20260803_082413_6001150a --context-tokens 64000`,
  },
);
