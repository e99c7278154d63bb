/**
 * After merging, the outcome history of each command in Commands Run is the one record of what
 * happened to it across every compaction; Blocked and Errors & Fixes agree with it. A command
 * Hermes stored again after a compaction can bring an old failure into a window whose later
 * success is only in the previous projection: the history, ordered by when things happened, shows
 * the success last, so the failure is not blocking and is marked fixed.
 *
 * @module
 */
import { type Attempt, fixAfter, gotPast, lastDecisive } from "../history.ts";
import { isCleanSuccess } from "../outcome_words.ts";
import { type Ref, sameRow } from "../ref.ts";
import type { SectionContent } from "../section.ts";
import type { BlockedEntry } from "./blocked.ts";
import { callKey, type CallName, isCommandName } from "./call_label.ts";
import type { CommandEntry } from "./commands.ts";
import type { ErrorEntry } from "./errors_fixes.ts";
import type { Run } from "./runs.ts";

/** Blocked and Errors & Fixes, made to agree with the command histories of Commands Run. */
export function reconcile(
  commands: SectionContent<CommandEntry>,
  blocked: SectionContent<BlockedEntry>,
  errors: SectionContent<ErrorEntry>,
): { blocked: SectionContent<BlockedEntry>; errors: SectionContent<ErrorEntry> } {
  const histories = new Map<string, Attempt[]>();
  for (const entry of commands.entries) histories.set(callKey(entry.name), attempts(entry.runs));
  const historyOf = (name: CallName) =>
    isCommandName(name) ? histories.get(callKey(name)) : undefined;
  return {
    blocked: {
      ...blocked,
      entries: blocked.entries.filter((entry) => {
        const history = historyOf(entry.name);
        return history === undefined || !gotPast(history);
      }),
    },
    errors: {
      ...errors,
      entries: errors.entries.map((entry) => {
        const history = historyOf(entry.name);
        if (entry.fixedAt !== undefined || history === undefined) return entry;
        const fixedAt = fixOf(history, entry.resultRef ?? entry.callRef);
        return fixedAt === undefined ? entry : { ...entry, fixedAt };
      }),
    },
  };
}

/** The stated runs of a history, as attempts (runs left out say nothing). */
function attempts(runs: readonly Run[]): Attempt[] {
  return runs.flatMap((run) => ("state" in run ? [run] : []));
}

/**
 * Where a history shows the command fixed after the failure at `failure` (see `fixAfter`). When
 * the failure's run is not shown (counted among the runs left out), only a final clean success on
 * a later row counts.
 */
function fixOf(history: readonly Attempt[], failure: Ref | undefined): Ref | undefined {
  if (failure === undefined) return undefined;
  const at = history.findIndex((attempt) => attempt.ref && sameRow(attempt.ref, failure));
  if (at !== -1) return fixAfter(history, at)?.ref;
  const last = lastDecisive(history);
  return last?.ref?.kind === "row" && failure.kind === "row" && last.ref.id > failure.id &&
      isCleanSuccess(last.state)
    ? last.ref
    : undefined;
}
