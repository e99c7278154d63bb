import type { Analysis } from "../analysis.ts";
import { raisedNames } from "../error_names.ts";
import { cut } from "../excerpt.ts";
import type { Row } from "../message.ts";
import { momentOf } from "../moment.ts";
import { isFailure } from "../outcome_words.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Change, SectionSpec } from "../section.ts";

/** An error name and the row it first appeared in. */
export interface ErrorNameEntry {
  /** An exception class, errno, signal, … or the error line a successful command printed. */
  readonly name: string;
  readonly ref?: Ref;
}

// The most of a printed error line a name keeps.
const NAME_CHARS = 100;
const FIRST_AT = "first at";
const LINE = new RegExp(`^- (.+?)(?: \\(${FIRST_AT} (${REF_PATTERN})\\))?$`);

/**
 * Error Names Seen: each error a failed call's output reports as raised (see `raisedNames`), and
 * each error line a command printed although it exited 0, with the first row it appeared in.
 * Names an output merely mentions (source code, a search hit) are not errors that happened.
 */
export const ERROR_NAMES: SectionSpec<ErrorNameEntry> = {
  heading: "## Error Names Seen",
  noun: "error names",
  pinned: 0,
  widths: { narrow: 60, wide: 100 },
  ownWords: FIRST_AT,
  changes(analysis: Analysis): Change<ErrorNameEntry>[] {
    const changes: Change<ErrorNameEntry>[] = [];
    const seen = new Set<string>();
    const add = (name: string, row: Row) => {
      if (name === "" || seen.has(name)) return;
      seen.add(name);
      changes.push({ key: name, entry: { name, ref: row.ref }, addIfNew: true, at: momentOf(row) });
    };
    for (const event of analysis.events) {
      const row = event.resultRow;
      if (!row || event.outcome.stub) continue;
      if (isFailure(event.outcome)) {
        for (const name of raisedNames(event.outcome.detail)) add(name, row);
      }
      const printed = event.outcome.reportedError;
      if (printed !== undefined) add(cut(sanitizeInline(printed), NAME_CHARS), row);
    }
    return changes;
  },
  key: (entry) => entry.name,
  merge: (earlier, later, older) => (older ? later : earlier),
  // Names are short already (at most 100 characters) and are shown whole: they are their keys.
  render(entry) {
    const first = entry.ref ? ` (${FIRST_AT} ${renderRef(entry.ref)})` : "";
    return `- ${entry.name}${first}`;
  },
  parse(line) {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const ref = match[2] === undefined ? undefined : parsePreviousRef(match[2]);
    return { name: sanitizeInline(match[1] as string), ...(ref ? { ref } : {}) };
  },
};
