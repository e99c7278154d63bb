/**
 * After merging, the outcome history of each command in Commands Run is the one record of what
 * happened to it across every compaction; Blocked and Errors & Fixes agree with it. A command
 * Hermes stored again after a compaction can bring an old failure into a window whose later
 * success is only in the previous projection: the history, ordered by when things happened, shows
 * the success last, so the failure is not blocking and is marked fixed. A failure an earlier
 * projection listed in Blocked leaves it, by Blocked's rules over these histories, once its work
 * got done (another command at the same work, as `commandWork` names it, succeeded) or, never
 * retried, the agent moved on (a command, or anything in this window, succeeded cleanly after it).
 *
 * @module
 */
import { type Attempt, fixAfter, gotPast, isStuck, lastDecisive, untilJobEnd } from "../history.ts";
import { isBlocked, isCleanSuccess } from "../outcome_words.ts";
import { GAP } from "../command_display.ts";
import { commandWork } from "../shell_words.ts";
import { type Ref, sameRow } from "../ref.ts";
import type { SectionContent } from "../section.ts";
import type { BlockedEntry } from "./blocked.ts";
import { callKey, type CallName, isCommandName } from "./call_label.ts";
import type { CommandEntry } from "./commands.ts";
import type { ErrorEntry } from "./errors_fixes.ts";
import type { Run } from "./runs.ts";

/**
 * Blocked and Errors & Fixes, made to agree with the command histories of Commands Run;
 * `lastCleanSuccess` is the row of the window's last clean success of any call.
 */
export function reconcile(
  commands: SectionContent<CommandEntry>,
  blocked: SectionContent<BlockedEntry>,
  errors: SectionContent<ErrorEntry>,
  lastCleanSuccess?: Ref,
): { blocked: SectionContent<BlockedEntry>; errors: SectionContent<ErrorEntry> } {
  const histories = new Map<string, Attempt[]>();
  // The piece of work of each subject, read once.
  const subjectWorks = new Map<string, { work: string; items: Items }>();
  const workOfName = (name: CallName) => {
    let read = subjectWorks.get(name.subject);
    if (read === undefined) {
      read = workOf(name);
      subjectWorks.set(name.subject, read);
    }
    return read;
  };
  // Each command's piece of work, with its history; those of one work compared by their items.
  const works = new Map<string, { readonly items: Items; readonly history: Attempt[] }[]>();
  for (const entry of commands.entries) {
    const history = attempts(entry.runs, entry.name.job !== undefined);
    histories.set(callKey(entry.name), history);
    const { work, items } = workOfName(entry.name);
    const same = works.get(work);
    if (same) same.push({ items, history });
    else works.set(work, [{ items, history }]);
  }
  // Every attempt at the same work as `name`, in the order they happened.
  const familyOf = (name: CallName) => {
    const { work, items } = workOfName(name);
    return (works.get(work) ?? []).filter((other) => sameItems(items, other.items))
      .flatMap((other) => other.history).sort((a, b) => order(a.ref) - order(b.ref));
  };
  // Where the last clean success of a command, or of anything in the window, stands.
  let lastClean = order(lastCleanSuccess);
  for (const history of histories.values()) {
    for (const attempt of history) {
      if (isCleanSuccess(attempt.state)) lastClean = Math.max(lastClean, order(attempt.ref));
    }
  }
  const succeededAfter = (ref: Ref | undefined) => lastClean > order(ref);
  const historyOf = (name: CallName) =>
    isCommandName(name) ? histories.get(callKey(name)) : undefined;
  return {
    blocked: {
      ...blocked,
      entries: blocked.entries.filter((entry) => {
        const history = historyOf(entry.name);
        if (history === undefined) return true;
        if (gotPast(history)) return false;
        if (isBlocked(entry.state)) return true;
        const family = familyOf(entry.name);
        return isStuck(
          history,
          family.length > 0 ? family : history,
          succeededAfter(lastDecisive(history)?.ref),
        );
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

/**
 * The options naming an item that a command's line shows (`--region=south`), by option, and
 * whether the line shows them all (it is not shortened: a shortened one may have left some out).
 */
interface Items {
  readonly shown: ReadonlyMap<string, string>;
  readonly all: boolean;
}

/**
 * The piece of work a command belongs to (see `commandWork`), read from its line as a command's
 * key, which Commands Run's lines (no tool named) and Blocked's share; a shortened line's items
 * are those it shows whole.
 */
function workOf(name: CallName): { work: string; items: Items } {
  // A shortened display keeps its program and subject first; a step left out before them is a
  // `cd`. One that lost them is a piece of work of its own.
  const read = commandWork(name.subject.replace(LEADING_GAP, ""));
  const all = !name.subject.includes(GAP);
  if (read === undefined || read.work.includes(GAP)) {
    return { work: name.subject, items: { shown: new Map(), all } };
  }
  const shown = new Map(
    read.items.filter((item) => !item.includes(GAP)).map((item) => {
      const at = item.indexOf("=");
      return [item.slice(0, at), item.slice(at + 1)] as const;
    }),
  );
  return { work: read.work, items: { shown, all } };
}

/**
 * Whether two commands of one piece of work may be at the same item: no option names another
 * item in one than in the other, and one line that shows all its options has each the other
 * shows.
 */
function sameItems(a: Items, b: Items): boolean {
  for (const [first, second] of [[a, b], [b, a]] as const) {
    for (const [option, value] of first.shown) {
      const other = second.shown.get(option);
      if (other === undefined ? second.all : other !== value) return false;
    }
  }
  return true;
}

const LEADING_GAP = new RegExp(`^${GAP} (?:&&|;) `);

// Where a row stands in time: stored rows by id; rows never saved after them all (they are the
// newest), an earlier window's first, then the window's in their order.
const UNSAVED_AFTER = 2 ** 50;

function order(ref: Ref | undefined): number {
  if (ref === undefined) return -1;
  switch (ref.kind) {
    case "row":
      return ref.id;
    case "position":
      return UNSAVED_AFTER + ref.n;
    case "unsaved":
      return UNSAVED_AFTER;
  }
}

/**
 * The stated runs of a history, as attempts (runs left out say nothing); two stand for a run of
 * more, as many as the rules on retries read, the second at the run's last row. A job's reports of
 * one end are one attempt.
 */
function attempts(runs: readonly Run[], job: boolean): Attempt[] {
  const stated = runs.flatMap((run): Attempt[] =>
    !("state" in run)
      ? []
      : run.count === 1
      ? [run]
      : [run, { state: run.state, ...(run.last ?? run.ref ? { ref: run.last ?? run.ref } : {}) }]
  );
  return job ? untilJobEnd(stated) : stated;
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
