/**
 * After merging, the outcome history of each command in Commands Run is the one record of what
 * happened to it across every compaction; Blocked and Errors & Fixes agree with it. A command
 * Hermes stored again after a compaction can bring an old failure into a window whose later
 * success is only in the previous projection: the history, ordered by when things happened, shows
 * the success last, so the failure is not blocking and is marked fixed.
 *
 * @module
 */
import { COMMAND_TOOLS } from "../hermes.ts";
import { isBlocked, isFailure, isSuccess } from "../outcome.ts";
import type { StatedOutcome } from "../outcome_words.ts";
import { type Ref, sameRow } from "../ref.ts";
import type { SectionContent } from "../section.ts";
import type { BlockedEntry } from "./blocked.ts";
import type { CallName } from "./call_label.ts";
import type { CommandEntry } from "./commands.ts";
import type { ErrorEntry } from "./errors_fixes.ts";
import type { Run } from "./runs.ts";

/** The same command as Commands Run names it: by fingerprint, else by its shown text. */
function commandKey(name: CallName): string {
  return name.fingerprint !== undefined ? `id ${name.fingerprint}` : `cmd ${name.subject}`;
}

/** Blocked and Errors & Fixes, made to agree with the command histories of Commands Run. */
export function reconcile(
  commands: SectionContent<CommandEntry>,
  blocked: SectionContent<BlockedEntry>,
  errors: SectionContent<ErrorEntry>,
): { blocked: SectionContent<BlockedEntry>; errors: SectionContent<ErrorEntry> } {
  const histories = new Map<string, readonly Run[]>();
  for (const entry of commands.entries) histories.set(commandKey(entry.name), entry.runs);
  const historyOf = (name: CallName) =>
    COMMAND_TOOLS.has(name.tool) ? histories.get(commandKey(name)) : undefined;
  return {
    blocked: {
      ...blocked,
      entries: blocked.entries.filter((entry) => {
        const runs = historyOf(entry.name);
        const last = runs && lastDecisive(runs);
        return last === undefined || !isSuccess(last.state);
      }),
    },
    errors: {
      ...errors,
      entries: errors.entries.map((entry) => {
        const runs = historyOf(entry.name);
        if (entry.fixedAt !== undefined || runs === undefined) return entry;
        const fixedAt = fixAfter(runs, entry.resultRef ?? entry.callRef);
        return fixedAt === undefined ? entry : { ...entry, fixedAt };
      }),
    },
  };
}

type StatedRun = Extract<Run, { count: number }>;

function lastDecisive(runs: readonly Run[]): StatedRun | undefined {
  for (let index = runs.length - 1; index >= 0; index--) {
    const run = runs[index] as Run;
    if ("state" in run && decisive(run.state)) return run;
  }
  return undefined;
}

function decisive(state: StatedOutcome): boolean {
  return isSuccess(state) || isFailure(state) || isBlocked(state);
}

/**
 * Where a history shows the command fixed after the failure at `failure`: the first clean success
 * after its last trouble, when the history ends in success. When the failure's run is not shown
 * (counted among the runs left out), only a final success on a later row counts.
 */
function fixAfter(runs: readonly Run[], failure: Ref | undefined): Ref | undefined {
  const last = lastDecisive(runs);
  if (last === undefined || !isCleanSuccessState(last.state) || failure === undefined) {
    return undefined;
  }
  const at = runs.findIndex((run) => "state" in run && run.ref && sameRow(run.ref, failure));
  if (at === -1) {
    return failure.kind === "row" && last.ref?.kind === "row" && last.ref.id > failure.id
      ? last.ref
      : undefined;
  }
  let fix: Ref | undefined;
  for (const run of runs.slice(at + 1)) {
    if (!("state" in run)) continue;
    if (isFailure(run.state) || run.state.printedError) fix = undefined;
    else if (isCleanSuccessState(run.state) && fix === undefined) fix = run.ref;
  }
  return fix;
}

function isCleanSuccessState(state: StatedOutcome): boolean {
  return isSuccess(state) && !state.printedError;
}
