import { type Analysis, eventRefs } from "../analysis.ts";
import { inlineCode } from "../command.ts";
import type { ToolEvent } from "../events.ts";
import { describeOutcome } from "../outcome.ts";
import type { Entry } from "../section.ts";

// A long history shows its first outcome and its latest ones.
const HEAD_RUNS = 1;
const TAIL_RUNS = 4;

interface Run {
  readonly state: string;
  readonly ref: string;
  count: number;
}

/**
 * One entry per distinct command (terminal, execute_code, process), first-seen order, with the
 * sequence of its outcomes: `- [#3] \`pytest -q\` — failed (exit 1) [#4], then succeeded (exit 0) [#9]`.
 */
export function commandEntries(analysis: Analysis): Entry[] {
  return analysis.groups.filter((group) => group.command).map((group) => {
    const first = group.events[0] as ToolEvent;
    const runs = outcomeRuns(group.events);
    return {
      key: group.subject,
      line: `- ${eventRefs(first).call} ${inlineCode(group.subject)} — ${renderRuns(runs)}`,
      update: (previous: string) => `${previous}, then ${renderRuns(runs)}`,
    };
  });
}

function outcomeRuns(events: readonly ToolEvent[]): Run[] {
  const runs: Run[] = [];
  for (const event of events) {
    const state = describeOutcome(event.outcome);
    const last = runs.at(-1);
    if (last && last.state === state) last.count++;
    else {
      const refs = eventRefs(event);
      runs.push({ state, ref: refs.result === "" ? refs.call : refs.result, count: 1 });
    }
  }
  return runs;
}

function renderRuns(runs: readonly Run[]): string {
  const shown = runs.length > HEAD_RUNS + TAIL_RUNS + 1
    ? [...runs.slice(0, HEAD_RUNS), undefined, ...runs.slice(-TAIL_RUNS)]
    : runs;
  const skipped = runs.length - HEAD_RUNS - TAIL_RUNS;
  return shown
    .map((run) =>
      run ? `${run.state}${run.count > 1 ? ` ×${run.count}` : ""} ${run.ref}` : `… ${skipped} more`
    )
    .join(", then ");
}

const NOT_CLEAN = / — .*(?:failed \(|blocked|pending approval|timed out|interrupted)/;

/** Whether a Commands Run line records a failure or refusal; such lines are kept before others. */
export function needsAttention(line: string): boolean {
  return NOT_CLEAN.test(line);
}
