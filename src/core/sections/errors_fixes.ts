import { type Analysis, attemptOf, eventMoment, outcomeRef } from "../analysis.ts";
import type { CallGroup } from "../calls.ts";
import { commandAsRun, commandIdentity, commandOf } from "../command.ts";
import type { ToolEvent } from "../events.ts";
import { fixAfter } from "../history.ts";
import { isCleanSuccess, isTrouble } from "../outcome_words.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Change, SectionSpec } from "../section.ts";
import { commandSteps, type ShellSegment } from "../shell_words.ts";
import { TERMINAL_TOOL } from "../hermes.ts";
import { apartEntries, callKey, shownSubject } from "./call_label.ts";
import {
  type CallOutcome,
  callOutcome,
  parseCallOutcome,
  renderCallOutcome,
  renderWords,
} from "./call_outcome.ts";

/**
 * A call that failed (or reported an error), and where the identical call later succeeded, or a
 * later command line that ran it among steps joined by `&&` and exited 0.
 */
export interface ErrorEntry extends CallOutcome {
  readonly fixedAt?: Ref;
}

const FIXED = " → fixed at ";
const FIXED_SUFFIX = new RegExp(`${FIXED}(${REF_PATTERN})$`);

/**
 * Errors & Fixes: one entry per call that failed or reported an error — its first trouble with the
 * error's own words — and `→ fixed at [#N]` when the identical call succeeded cleanly after its
 * last trouble (for a background job, a later job of the identical command line), or a later
 * command line proved it did: one that ran the same steps among others joined by `&&`, in the same
 * directory, and succeeded cleanly (`bin/rails db:migrate && git diff --stat` exiting 0 ran the
 * migration). A call that only succeeded here still marks a previous projection's unfixed entry
 * as fixed (not when that success happened before the previous projection's messages).
 */
export const ERRORS_FIXES: SectionSpec<ErrorEntry> = {
  heading: "## Errors & Fixes",
  noun: "errors",
  pinned: 0,
  widths: { narrow: 60, wide: 120 },
  ownWords: FIXED,
  changes(analysis: Analysis): Change<ErrorEntry>[] {
    const changes: Change<ErrorEntry>[] = [];
    const reruns = jobReruns(analysis);
    // Read only when some trouble is not fixed by its own command.
    let chains: ChainedSuccesses | undefined;
    for (const group of analysis.groups) {
      const events = group.events;
      const attempts = events.map(attemptOf);
      const last = events.findLastIndex((event) => isTrouble(event.outcome));
      // A job's trouble is fixed within the runs of its command, its own and later jobs'.
      const runs = reruns.get(group);
      const fix = runs === undefined || last === -1 ? fixAfter(attempts, last) : fixAfter(
        runs.map(attemptOf),
        runs.findLastIndex((run) => group.events.includes(run) && isTrouble(run.outcome)),
      );
      const fixedRef = fix?.ref ??
        (last === -1 || fix !== undefined
          ? undefined
          : chainFix(group, last, chains ??= chainedSuccesses(analysis)));
      const fixedAt = fixedRef ? { fixedAt: fixedRef } : {};
      // Without trouble here, the entry only marks a previous projection's entry fixed.
      const first = last === -1
        ? (fix && events[attempts.indexOf(fix)])
        : events.find((event) => isTrouble(event.outcome));
      if (first === undefined) continue;
      // An entry that only marks another fixed lends that one nothing but its fix.
      const entry: ErrorEntry = { ...callOutcome(group, first, last !== -1), ...fixedAt };
      changes.push({
        key: callKey(entry.name),
        entry,
        addIfNew: last !== -1,
        at: eventMoment(first as ToolEvent),
      });
    }
    return changes;
  },
  key: (entry) => callKey(entry.name),
  shows: (entry, width, view) => `${entry.name.tool} ${shownSubject(entry.name, width, view)}`,
  apart: apartEntries,
  merge(earlier, later, older) {
    if (older) return earlier;
    if (later.fixedAt !== undefined) {
      return earlier.fixedAt !== undefined ? earlier : { ...earlier, fixedAt: later.fixedAt };
    }
    return earlier.fixedAt !== undefined ? later : earlier;
  },
  render(entry, width, view) {
    const fixed = entry.fixedAt ? `${FIXED}${renderRef(entry.fixedAt)}` : "";
    return `${renderCallOutcome(entry, width, view)}${renderWords(entry.words, width * 2)}${fixed}`;
  },
  parse(line, view) {
    const read = parseCallOutcome(line, view);
    if (!read) return undefined;
    let rest = read.rest;
    const fixed = FIXED_SUFFIX.exec(rest);
    if (fixed) rest = rest.slice(0, -fixed[0].length);
    if (rest !== "" && !rest.startsWith(": ")) return undefined;
    const fixedAt = fixed ? parsePreviousRef(fixed[1] as string) : undefined;
    return {
      ...read.entry,
      words: sanitizeInline(rest.slice(2)),
      ...(fixedAt ? { fixedAt } : {}),
    };
  },
  // Errors still open are kept first.
  keepRank: (entry) => entry.fixedAt === undefined ? 0 : 1,
};

/** A command line that succeeded cleanly, read into its steps, with where it stands in the window. */
interface ChainedSuccess {
  readonly at: number;
  /** The directories its leading `cd` steps changed to, and its steps after them. */
  readonly read: ReadCommand;
  readonly ref: Ref;
}

type ReadCommand = NonNullable<ReturnType<typeof commandSteps>>;

/**
 * The window's foreground command lines of several steps that succeeded cleanly (exit 0), each
 * event's place, and how many calls up to each place may have changed the terminal's directory.
 */
interface ChainedSuccesses {
  readonly chains: readonly ChainedSuccess[];
  readonly place: ReadonlyMap<ToolEvent, number>;
  /** `moves[i]`: the calls among the first `i` that may have changed the directory. */
  readonly moves: readonly number[];
}

function chainedSuccesses(analysis: Analysis): ChainedSuccesses {
  const chains: ChainedSuccess[] = [];
  const place = new Map<ToolEvent, number>();
  const moves = [0];
  analysis.events.forEach((event, at) => {
    place.set(event, at);
    moves.push((moves[at] as number) + (changesDirectory(event) ? 1 : 0));
    const outcome = event.outcome;
    if (outcome.kind !== "succeeded" || outcome.exitCode !== 0 || !isCleanSuccess(outcome)) return;
    const command = commandOf(event);
    if (command === undefined || command.text.endsWith("&")) return;
    const read = commandSteps(commandAsRun(command));
    if (read !== undefined && read.steps.length > 1) {
      chains.push({ at, read, ref: outcomeRef(event) });
    }
  });
  return { chains, place, moves };
}

/**
 * Where a later command line proved that the troubled command `group` (its last trouble at
 * `last`) works: the first that succeeded cleanly and ran its steps, in the same directory (no
 * step before them changes it), after steps joined by `&&` or `|` and followed by `&&` more or
 * nothing, with no step after them whose status could hide theirs (`;`, `||`, `&` or a newline).
 */
function chainFix(
  group: CallGroup,
  last: number,
  { chains, place, moves }: ChainedSuccesses,
): Ref | undefined {
  const event = group.events[last] as ToolEvent;
  const command = group.job === undefined ? commandOf(event) : undefined;
  const own = command === undefined ? undefined : commandSteps(commandAsRun(command));
  const after = place.get(event);
  if (own === undefined || after === undefined || chains.length === 0) return undefined;
  const directory = own.cd.join("\u0000");
  // Hermes keeps a terminal's directory from one call to the next: unless the line names where
  // it runs absolutely, no call between may have changed it.
  const pinned = own.cd[0]?.startsWith("/") ?? false;
  const movedBefore = (at: number) => (moves[at] as number) > (moves[after + 1] as number);
  return chains.find((chain) =>
    chain.at > after && chain.read.cd.join("\u0000") === directory &&
    ranWithin(own.steps, chain.read.steps) && (pinned || !movedBefore(chain.at))
  )?.ref;
}

// Steps that change the directory the steps after them run in.
const DIRECTORY_CHANGES: ReadonlySet<string> = new Set(["cd", "pushd", "popd"]);
// What opens a subshell, a group, a negation or a compound command: a step the reader does not
// follow (`(cd docs && make)` runs elsewhere).
const UNFOLLOWED_STEP = /^(?:[({!]|if$|then$|else$|elif$|for$|while$|until$|do$|case$)/;

/** Whether a terminal call's line may change the directory later calls run in. */
function changesDirectory(event: ToolEvent): boolean {
  const command = commandOf(event);
  if (command === undefined || command.tool !== TERMINAL_TOOL) return false;
  const read = commandSteps(commandAsRun(command));
  return read === undefined || read.cd.length > 0 ||
    read.steps.some((step) =>
      DIRECTORY_CHANGES.has(step.words[0] ?? "") || UNFOLLOWED_STEP.test(step.words[0] ?? "")
    );
}

// What may join a line's steps without hiding a failure of theirs from its status.
const PROVING_JOINS: ReadonlySet<string> = new Set(["&&", "|"]);

/** Whether `line`'s exit 0 proves that the steps `own` ran and succeeded within it. */
function ranWithin(own: readonly ShellSegment[], line: readonly ShellSegment[]): boolean {
  if (line.some((step) => UNFOLLOWED_STEP.test(step.words[0] ?? ""))) return false;
  const same = (a: ShellSegment, b: ShellSegment) =>
    a.words.join("\u0000") === b.words.join("\u0000");
  for (let at = 0; at + own.length <= line.length; at++) {
    const before = line.slice(0, at);
    const ran = line.slice(at, at + own.length);
    const rest = line.slice(at + own.length);
    const matches = own.every((step, index) =>
      same(step, ran[index] as ShellSegment) &&
      (index === own.length - 1
        ? ["&&", ""].includes(ran[index]?.then ?? "")
        : ran[index]?.then === step.then)
    );
    if (!matches || (at === 0 && rest.length === 0)) continue;
    const joined = before.every((step, index) =>
      PROVING_JOINS.has(step.then) && (index < at - 1 || step.then === "&&")
    );
    const sameDirectory = before.every((step) => !DIRECTORY_CHANGES.has(step.words[0] ?? ""));
    if (joined && sameDirectory && rest.every((step) => ["&&", "|", ""].includes(step.then))) {
      return true;
    }
  }
  return false;
}

/**
 * The runs of each background job whose command line (and directory) started other jobs too: the
 * events of all those jobs up to each one's end, in the order they happened. A job run again is
 * the same call again.
 */
function jobReruns(analysis: Analysis): Map<CallGroup, ToolEvent[]> {
  const jobsOf = new Map<string, CallGroup[]>();
  for (const group of analysis.groups) {
    const command = group.job === undefined ? undefined : commandOf(group.events[0] as ToolEvent);
    if (command === undefined) continue;
    const identity = commandIdentity(command.tool, command.text, command.workdir);
    jobsOf.set(identity, [...(jobsOf.get(identity) ?? []), group]);
  }
  const reruns = new Map<CallGroup, ToolEvent[]>();
  for (const jobs of jobsOf.values()) {
    if (jobs.length < 2) continue;
    const runs = new Set(jobs.flatMap((job) => job.events));
    // A report after a job's end tells of no run of its own.
    const inOrder = analysis.events.filter((event) =>
      runs.has(event) && !analysis.afterJobEnd.has(event)
    );
    for (const job of jobs) reruns.set(job, inOrder);
  }
  return reruns;
}
