import { type Analysis, eventMoment } from "../analysis.ts";
import { cut } from "../excerpt.ts";
import { type OutputFactKind, outputFacts, pointersOf } from "../output_facts.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, refLabel, renderRef } from "../ref.ts";
import { readRoot, showRoot } from "../root.ts";
import { sanitizeInline } from "../sanitize.ts";
import type { Change, SectionSpec } from "../section.ts";

/** An output fact as the section lists it: the result that states it, the tool, its kind, its line. */
export interface OutputFactEntry {
  readonly ref: Ref;
  readonly tool: string;
  readonly kind: OutputFactKind;
  readonly text: string;
}

// How each kind is named on its line (a pointed line is named by nothing but its words).
const LABELS: Readonly<Record<OutputFactKind, string>> = {
  commit: "commit",
  "git result": "git result",
  hash: "hash",
  saved: "saved",
  diff: "diff",
  tally: "tally",
  report: "reported",
  skill: "skill",
  "failed item": "failed item",
  pointed: "line",
};
const LINE = new RegExp(
  `^- (${REF_PATTERN}) (\\S+) (${Object.values(LABELS).map(RegExp.escape).join("|")}): (.+)$`,
);
// How many leading characters make a fact's identity, with its row.
const KEY_CHARS = 80;

function keyOf(ref: Ref, text: string): string {
  return `${refLabel(ref)} ${text.replace(/…$/, "").slice(0, KEY_CHARS)}`;
}

/**
 * Facts from Outputs: what tool outputs stated that a later step may need and no other section
 * keeps (see `output_facts.ts`), oldest first: ``- [#31] terminal commit: [main 0490c43] retry:
 * restore the last retry``. The words the window's requests point at are looked for in every long
 * output of the window. When some must go, the newer stay.
 */
export const OUTPUT_FACTS: SectionSpec<OutputFactEntry> = {
  heading: "## Facts from Outputs",
  noun: "facts",
  pinned: 0,
  widths: { narrow: 160, wide: 400 },
  ownWords: Object.values(LABELS).join(" "),
  changes(analysis: Analysis): Change<OutputFactEntry>[] {
    const pointers = pointersOf(analysis.window.rows);
    return analysis.events.flatMap((event) => {
      if (event.resultRow === undefined || analysis.copies.has(event.resultRow)) return [];
      // A job's report after its end repeats what the end said.
      if (analysis.afterJobEnd.has(event)) return [];
      const ref = event.resultRow.ref;
      return outputFacts(event, pointers).map(({ kind, text }) => ({
        key: keyOf(ref, text),
        entry: { ref, tool: event.call.label, kind, text },
        addIfNew: true,
        at: eventMoment(event),
      }));
    });
  },
  key: (entry) => keyOf(entry.ref, entry.text),
  merge: (earlier) => earlier,
  render: (entry, width, view) =>
    `- ${renderRef(entry.ref)} ${entry.tool} ${LABELS[entry.kind]}: ${
      cut(showRoot(entry.text, view), width)
    }`,
  parse(line, view) {
    const match = LINE.exec(line);
    const ref = match ? parsePreviousRef(match[1] as string) : undefined;
    const kind = (Object.keys(LABELS) as OutputFactKind[]).find((candidate) =>
      LABELS[candidate] === match?.[3]
    );
    if (!match || !ref || kind === undefined) return undefined;
    return {
      ref,
      tool: sanitizeInline(match[2] as string),
      kind,
      text: readRoot(sanitizeInline(match[4] as string), view),
    };
  },
};
