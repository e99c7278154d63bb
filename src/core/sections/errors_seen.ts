import type { Analysis } from "../analysis.ts";
import type { Row } from "../message.ts";
import { cut } from "../excerpt.ts";
import {
  errorFingerprint,
  type ErrorLine,
  errorLines,
  isRelayedFailure,
  testSummaryMessage,
} from "../error_lines.ts";
import type { ToolEvent } from "../events.ts";
import { COMMAND_TOOLS, READ_FILE_TOOL } from "../hermes.ts";
import { momentOf } from "../moment.ts";
import { isFailure } from "../outcome_words.ts";
import { TALLY, withoutRules } from "../output_facts.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Change, SectionSpec } from "../section.ts";
import { isWrittenFile } from "../written_files.ts";

/** One distinct error: how it was first printed, how often, and the row it first appeared in. */
export interface ErrorSeenEntry {
  /** The error line as first printed (sanitised, at most `ERROR_TEXT_CHARS` long). */
  readonly text: string;
  /** How many times an error with its fingerprint was printed. */
  readonly count: number;
  /** Whether some of those lines showed other numbers or ids than the first. */
  readonly varies?: boolean;
  readonly ref?: Ref;
}

// The most of an error line an entry keeps: it is shown whole, and its fingerprint is its key.
const ERROR_TEXT_CHARS = 200;
const FIRST_AT = "first at";
const VARIES = ", numbers vary";
const LINE = new RegExp(
  `^- (.+?)(?: ×(\\d{1,9})(${VARIES})?)? \\(${FIRST_AT} (${REF_PATTERN})\\)$`,
);

/**
 * Whether an event's output is read for error lines: a command's and a read file's (a log read
 * with read_file) whatever their outcome, unless the file is one people write (its lines say what
 * it holds, not what happened); any other tool's only when it failed.
 */
function readsErrors(event: ToolEvent): boolean {
  const { name, args } = event.call;
  if (COMMAND_TOOLS.has(name)) return true;
  if (name === READ_FILE_TOOL) return typeof args.path !== "string" || !isWrittenFile(args.path);
  return isFailure(event.outcome);
}

// How pytest ends a message it cut to fit its summary line.
const CUT_SHORT = "...";

/**
 * For an output whose error lines hold test summary lines: whether another of its error lines is
 * what one of them says a test raised (`E   KeyError: 'k'` beside `FAILED t.py::x - KeyError:
 * 'k'`, in full or as the summary cut it short), one error printed twice, which the summary line,
 * naming the test, stands for. Undefined for an output without summary lines (most).
 */
function summarizedErrors(lines: readonly ErrorLine[]): ((text: string) => boolean) | undefined {
  const whole = new Set<string>();
  const starts: string[] = [];
  for (const line of lines) {
    const message = testSummaryMessage(line.text);
    if (message === undefined) continue;
    if (message.endsWith(CUT_SHORT)) {
      starts.push(errorFingerprint(message.slice(0, -CUT_SHORT.length)));
    } else whole.add(errorFingerprint(message));
  }
  if (whole.size === 0 && starts.length === 0) return undefined;
  return (text) => {
    if (testSummaryMessage(text) !== undefined) return false;
    const key = errorFingerprint(text);
    return whole.has(key) || starts.some((start) => start !== "" && key.startsWith(start));
  };
}

/** An error line as the section shows it, and its fingerprint. */
function shownError(line: string): { text: string; key: string } {
  const text = cut(sanitizeInline(line), ERROR_TEXT_CHARS);
  return { text, key: errorFingerprint(text) };
}

/**
 * Errors Seen: each distinct error the window's outputs printed — lines a log level tags as an
 * error, in any script, exceptions named as raised and programs' reports in their own words
 * (`Error: …`, `fatal: …`) — whatever the command's exit code, with
 * how many times it was printed and the first row it appeared in. Errors are told apart by their
 * fingerprint (numbers, hex runs and uuids masked), so the same error with other ids is one entry;
 * the entry shows the first one, ids and all, and says `numbers vary` when the others differ. A
 * test run's tally is no error line here, and a pruning stub keeps no output, so it adds none. When some must go, a runner's report that a step
 * failed (pnpm's `ELIFECYCLE`, cargo's `could not compile`) goes first: the step's own says more.
 */
export const ERRORS_SEEN: SectionSpec<ErrorSeenEntry> = {
  heading: "## Errors Seen",
  formerHeadings: ["## Error Names Seen"],
  noun: "error lines",
  ownWords: `${FIRST_AT}${VARIES}`,
  pinned: 0,
  widths: { narrow: ERROR_TEXT_CHARS, wide: ERROR_TEXT_CHARS },
  changes(analysis: Analysis): Change<ErrorSeenEntry>[] {
    const seen = new Map<string, { text: string; count: number; varies: boolean; row: Row }>();
    // Outputs print the same line many times: each is read once (`null` for a test run's tally).
    const cleaned = new Map<string, { text: string; key: string } | null>();
    for (const event of analysis.events) {
      const row = event.resultRow;
      const outcome = event.outcome;
      if (!row || outcome.stub || analysis.copies.has(row)) continue;
      if (!readsErrors(event)) continue;
      const lines = outcome.errorLines ?? errorLines(outcome.detail);
      const summarized = summarizedErrors(lines);
      for (const line of lines) {
        if (summarized !== undefined && summarized(line.text)) continue;
        let shown = cleaned.get(line.text);
        if (shown === undefined) {
          // A test run's tally counts what failed (Facts from Outputs keeps it): its numbers are
          // what it says, so no two tallies are one error.
          shown = TALLY.test(withoutRules(line.text)) ? null : shownError(line.text);
          cleaned.set(line.text, shown);
        }
        if (shown === null) continue;
        const known = seen.get(shown.key);
        if (known) {
          known.count++;
          if (shown.text !== known.text) known.varies = true;
        } else if (shown.text !== "") {
          seen.set(shown.key, { text: shown.text, count: 1, varies: false, row });
        }
      }
    }
    return [...seen].map(([key, { text, count, varies, row }]) => ({
      key,
      entry: { text, count, ...(varies ? { varies } : {}), ref: row.ref },
      addIfNew: true,
      at: momentOf(row),
    }));
  },
  key: (entry) => errorFingerprint(entry.text),
  keepRank: (entry) => isRelayedFailure(entry.text) ? 1 : 0,
  // Rows stored again after a compaction were counted by the projection that saw them first.
  merge(earlier, later, older) {
    if (older) return earlier;
    const varies = earlier.varies || later.varies || earlier.text !== later.text;
    return { ...earlier, count: earlier.count + later.count, ...(varies ? { varies } : {}) };
  },
  render(entry) {
    const count = entry.count > 1 ? ` ×${entry.count}${entry.varies ? VARIES : ""}` : "";
    return `- ${entry.text}${count}${entry.ref ? ` (${FIRST_AT} ${renderRef(entry.ref)})` : ""}`;
  },
  parse(line) {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const ref = parsePreviousRef(match[4] as string);
    return {
      text: sanitizeInline(match[1] as string),
      count: Number(match[2] ?? 1),
      ...(match[3] === undefined ? {} : { varies: true }),
      ...(ref ? { ref } : {}),
    };
  },
};
