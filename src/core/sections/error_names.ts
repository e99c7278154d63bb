import { type Analysis, refOf } from "../analysis.ts";
import { COMMAND_TOOLS } from "../events.ts";
import { errorNames } from "../error_names.ts";
import { isBlocked, isFailure } from "../outcome.ts";
import type { Entry } from "../section.ts";

/**
 * Each error name that appeared in the output of a command or of any failed call, with the first
 * row it appeared in. File contents that merely mention an exception class are not counted.
 */
export function errorNameEntries(analysis: Analysis): Entry[] {
  const firstSeen = new Map<string, string>();
  for (const event of analysis.events) {
    const row = event.resultRow;
    if (!row || event.outcome.stub) continue;
    const failed = isFailure(event.outcome) || isBlocked(event.outcome);
    if (!failed && !COMMAND_TOOLS.has(event.call.name)) continue;
    for (const name of errorNames(event.outcome.detail, failed)) {
      if (!firstSeen.has(name)) firstSeen.set(name, refOf(row));
    }
  }
  return [...firstSeen].map(([name, ref]) => ({ key: name, line: `- ${name} (first at ${ref})` }));
}
