import { type Analysis, eventMoment, eventRefs, outcomeRef } from "../analysis.ts";
import type { ToolEvent } from "../events.ts";
import {
  describeState,
  isBlocked,
  isFailure,
  type OutcomeState,
  stateOf,
} from "../outcome_words.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import type { Change, SectionSpec } from "../section.ts";
import {
  apartEntries,
  CALL_NAME_GROUPS,
  callKey,
  type CallName,
  callName,
  callNamePattern,
  readCallName,
  renderCallName,
  shownSubject,
} from "./call_label.ts";
import { addRun, joinRuns, parseRuns, renderRuns, type Run, RUN_WORDS } from "./runs.ts";

/** A distinct command with the history of its outcomes. */
export interface CommandEntry {
  /** The row of its first call. */
  readonly callRef?: Ref;
  readonly name: CallName;
  readonly runs: readonly Run[];
}

const LINE = new RegExp(`^- (?:(${REF_PATTERN}) )?${callNamePattern(false)} — (.+)$`);

// Commands that succeeded once (exit 0, no error printed) share lines that state that once.
const ONCE: OutcomeState = { kind: "succeeded", exitCode: 0 };
const ONCE_EACH = `- ${describeState(ONCE)} once each: `;
const PART_SEPARATOR = "; ";
// The share of the line width a fingerprinted command's part shows.
const FINGERPRINTED_PART_SHARE = 0.7;
// A part cites the run's result, the row that shows the success (and, beside it, the call).
const PART = new RegExp(`^(${REF_PATTERN}) ${callNamePattern(false)}(?:${PART_SEPARATOR}|$)`);

/**
 * The width a command's text is shown at: narrower for one that shares lines and is named by its
 * fingerprint, whose identity does not rest on the words shown; the same in a shared line and
 * alone, so what tells it apart is what its line shows.
 */
function subjectWidth(entry: CommandEntry, width: number): number {
  return entry.name.fingerprint === undefined || !COMMANDS.shared?.test(entry)
    ? width
    : Math.round(width * FINGERPRINTED_PART_SHARE);
}

/** The one run of a command that succeeded once, cleanly; undefined for any other history. */
function onlyCleanRun(entry: CommandEntry): Run | undefined {
  const [run, ...more] = entry.runs;
  return more.length === 0 && run !== undefined && "state" in run && run.count === 1 &&
      run.ref !== undefined && describeState(run.state) === describeState(ONCE)
    ? run
    : undefined;
}

/**
 * Commands Run: one entry per distinct command (terminal, execute_code, process), first-seen
 * order, with the sequence of its outcomes: ``- [#3] `pytest -q` — failed (exit 1) [#4], then
 * succeeded (exit 0) [#9]``. Commands that succeeded once, cleanly, share lines that state it once,
 * each citing its result (``- succeeded (exit 0) once each: [#6] `ls`; [#8] `cat a```). Identity
 * is the full command, never its shown text.
 */
export const COMMANDS: SectionSpec<CommandEntry> = {
  heading: "## Commands Run",
  noun: "commands",
  pinned: 0,
  widths: { narrow: 60, wide: 160 },
  ownWords: `${RUN_WORDS} ${ONCE_EACH}`,
  changes(analysis: Analysis): Change<CommandEntry>[] {
    return analysis.groups.filter((group) => group.command).map((group) => {
      const first = group.events[0] as ToolEvent;
      const runs: Run[] = [];
      for (const event of group.events) {
        addRun(runs, stateOf(event.outcome), outcomeRef(event));
      }
      const entry: CommandEntry = {
        callRef: eventRefs(first).call,
        name: callName(group, false),
        // A job ran once: what is read of it after its end is no run of it.
        runs: joinRuns([], runs, false, group.job !== undefined),
      };
      return { key: callKey(entry.name), entry, addIfNew: true, at: eventMoment(first) };
    });
  },
  key: (entry) => callKey(entry.name),
  merge: (earlier, later, older) => ({
    ...(older ? later : earlier),
    runs: joinRuns(earlier.runs, later.runs, older, earlier.name.job !== undefined),
  }),
  render(entry, width, view) {
    const ref = entry.callRef ? `${renderRef(entry.callRef)} ` : "";
    return `- ${ref}${renderCallName(entry.name, subjectWidth(entry, width), view)} — ${
      renderRuns(entry.runs)
    }`;
  },
  parse(line, view) {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const runs = parseRuns(match[2 + CALL_NAME_GROUPS] as string);
    if (!runs) return undefined;
    const callRef = match[1] === undefined ? undefined : parsePreviousRef(match[1]);
    return { ...(callRef ? { callRef } : {}), name: readCallName(match, 2, view), runs };
  },
  // Failures and refusals are kept first.
  keepRank: (entry) =>
    entry.runs.some((run) => "state" in run && (isFailure(run.state) || isBlocked(run.state)))
      ? 0
      : 1,
  shows: (entry, width, view) => shownSubject(entry.name, subjectWidth(entry, width), view),
  apart: apartEntries,
  shared: {
    test: (entry) => entry.name.job === undefined && onlyCleanRun(entry) !== undefined,
    most: 10,
    opening: ONCE_EACH,
    separator: PART_SEPARATOR,
    part(entry, width, view) {
      const run = onlyCleanRun(entry) as Extract<Run, { count: number }>;
      return `${renderRef(run.ref as Ref)} ${
        renderCallName(entry.name, subjectWidth(entry, width), view)
      }`;
    },
    parse(line, view) {
      if (!line.startsWith(ONCE_EACH)) return undefined;
      const entries: CommandEntry[] = [];
      let rest = line.slice(ONCE_EACH.length);
      while (rest !== "") {
        const match = PART.exec(rest);
        const ref = match && parsePreviousRef(match[1] as string);
        if (!match || !ref) return undefined;
        entries.push({
          name: readCallName(match, 2, view),
          runs: [{ state: ONCE, ref, count: 1 }],
        });
        rest = rest.slice(match[0].length);
      }
      return entries.length > 0 ? entries : undefined;
    },
  },
};
