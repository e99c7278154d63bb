import { type Analysis, eventRefs } from "../analysis.ts";
import type { CallGroup } from "../calls.ts";
import type { ToolEvent } from "../events.ts";
import { describeOutcome, isFailure, isSuccess } from "../outcome.ts";
import { resultExcerpt } from "../result_excerpt.ts";
import type { Entry } from "../section.ts";
import { callLabel } from "./call_label.ts";

const EXCERPT_CHARS = 220;
const FIXED = " → fixed at ";

/**
 * One entry per call that failed: its first failure with the error's own words, and
 * `→ fixed at [#N]` when the identical call succeeded after its last failure. Calls that only
 * succeeded here still mark a previous projection's unfixed entry as fixed.
 */
export function errorsFixesEntries(analysis: Analysis): Entry[] {
  const entries: Entry[] = [];
  for (const group of analysis.groups) {
    const key = callLabel(group);
    const lastFailure = findLastIndex(group.events, (event) => isFailure(event.outcome));
    const fix = group.events.slice(lastFailure + 1).find((event) => isSuccess(event.outcome));
    const fixedAt = fix ? `${FIXED}${resultRef(fix)}` : "";
    if (lastFailure === -1) {
      if (fixedAt !== "") entries.push({ key, update: (previous) => markFixed(previous, fixedAt) });
      continue;
    }
    const first = group.events.find((event) => isFailure(event.outcome)) as ToolEvent;
    const line = `- ${failureLine(group, first)}${fixedAt}`;
    entries.push({
      key,
      line,
      update: (previous) =>
        fixedAt !== "" ? markFixed(previous, fixedAt) : previous.includes(FIXED) ? line : previous,
    });
  }
  return entries;
}

function failureLine(group: CallGroup, event: ToolEvent): string {
  const refs = eventRefs(event);
  const outcome = `${describeOutcome(event.outcome)}${refs.result === "" ? "" : ` ${refs.result}`}`;
  const words = event.outcome.stub
    ? ""
    : resultExcerpt(event.outcome, group.command, EXCERPT_CHARS);
  return `${refs.call} ${callLabel(group)} — ${outcome}${words === "" ? "" : `: ${words}`}`;
}

function markFixed(previous: string, fixedAt: string): string {
  return previous.includes(FIXED) ? previous : `${previous}${fixedAt}`;
}

function resultRef(event: ToolEvent): string {
  const refs = eventRefs(event);
  return refs.result === "" ? refs.call : refs.result;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (test(items[index] as T)) return index;
  return -1;
}
