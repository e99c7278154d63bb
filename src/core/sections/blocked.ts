import { type Analysis, eventRefs } from "../analysis.ts";
import type { ToolEvent } from "../events.ts";
import { describeOutcome, isBlocked, isFailure, isSuccess } from "../outcome.ts";
import { resultExcerpt } from "../result_excerpt.ts";
import type { Entry } from "../section.ts";
import { callLabel } from "./call_label.ts";

const EXCERPT_CHARS = 160;

/**
 * What is still in the way: calls whose latest outcome was refused or awaits approval, and calls
 * that failed and never succeeded afterwards. A call that succeeds here leaves the Blocked list
 * of a previous projection.
 */
export function blockedEntries(analysis: Analysis): Entry[] {
  const entries: Entry[] = [];
  for (const group of analysis.groups) {
    const key = callLabel(group);
    const decisive = group.events.filter((event) =>
      isSuccess(event.outcome) || isFailure(event.outcome) || isBlocked(event.outcome)
    );
    const last = decisive.at(-1);
    if (!last) continue;
    if (isSuccess(last.outcome)) {
      entries.push({ key, update: () => null });
      continue;
    }
    const line = `- ${blockedLine(key, last, group.command)}`;
    entries.push({ key, line, update: () => line });
  }
  return entries;
}

function blockedLine(label: string, event: ToolEvent, command: boolean): string {
  const refs = eventRefs(event);
  const result = refs.result === "" ? "" : ` ${refs.result}`;
  const state = describeOutcome(event.outcome);
  if (isBlocked(event.outcome)) {
    const words = event.outcome.stub ? "" : resultExcerpt(event.outcome, command, EXCERPT_CHARS);
    return `${refs.call} ${label} — ${state}${result}${words === "" ? "" : `: ${words}`}`;
  }
  return `${refs.call} ${label} — ${state}${result}, no later success`;
}
