import { type Analysis, eventMoment, eventRefs, outcomeRef } from "../analysis.ts";
import type { ToolEvent } from "../events.ts";
import { isBlocked, isFailure, stateOf } from "../outcome_words.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import type { Change, SectionSpec } from "../section.ts";
import {
  CALL_NAME_GROUPS,
  callKey,
  type CallName,
  callName,
  callNamePattern,
  readCallName,
  renderCallName,
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

/**
 * Commands Run: one entry per distinct command (terminal, execute_code, process), first-seen
 * order, with the sequence of its outcomes: ``- [#3] `pytest -q` — failed (exit 1) [#4], then
 * succeeded (exit 0) [#9]``. Identity is the full command, never its shown text.
 */
export const COMMANDS: SectionSpec<CommandEntry> = {
  heading: "## Commands Run",
  noun: "commands",
  pinned: 0,
  widths: { narrow: 60, wide: 160 },
  ownWords: RUN_WORDS,
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
        runs: joinRuns([], runs, false),
      };
      return { key: callKey(entry.name), entry, addIfNew: true, at: eventMoment(first) };
    });
  },
  key: (entry) => callKey(entry.name),
  merge: (earlier, later, older) => ({
    ...(older ? later : earlier),
    runs: joinRuns(earlier.runs, later.runs, older),
  }),
  render(entry, width, view) {
    const ref = entry.callRef ? `${renderRef(entry.callRef)} ` : "";
    return `- ${ref}${renderCallName(entry.name, width, view)} — ${renderRuns(entry.runs)}`;
  },
  parse(line, view) {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const runs = parseRuns(match[2 + CALL_NAME_GROUPS] as string);
    if (!runs) return undefined;
    const callRef = match[1] === undefined ? undefined : parsePreviousRef(match[1]);
    return { ...(callRef ? { callRef } : {}), name: readCallName(match, 2, view), runs };
  },
  prefer: (entry) =>
    entry.runs.some((run) => "state" in run && (isFailure(run.state) || isBlocked(run.state))),
};
