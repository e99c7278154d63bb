import { checkLines, lineCheckable, type RowLookup } from "./check_lines.ts";
import type { LineKind } from "./line_kinds.ts";

/** One invented word planted in a line, and whether the check caught it. */
export interface PlantedWord {
  readonly kind: LineKind;
  /** 0-based line number in the body. */
  readonly index: number;
  readonly caught: boolean;
}

/** An invented word no message contains. */
export const INVENTED_WORD = "zqvccplantedxj";

/**
 * The negative control: for every kind of checkable citing line in `body`, plants
 * {@linkcode INVENTED_WORD} in the middle of the first line of that kind, re-runs the check, and
 * reports whether each planted word was flagged. A check that cannot fail proves nothing; this
 * shows it can.
 */
export function plantAndCheck(body: string, lookup: RowLookup): PlantedWord[] {
  const lines = body.split("\n");
  const targets = new Map<LineKind, number>();
  for (const verdict of checkLines(body, lookup)) {
    if (lineCheckable(verdict) && !targets.has(verdict.kind)) {
      targets.set(verdict.kind, verdict.index);
    }
  }
  for (const index of targets.values()) lines[index] = plant(lines[index]!);
  const verdicts = new Map(checkLines(lines.join("\n"), lookup).map((v) => [v.index, v]));
  return [...targets].map(([kind, index]) => ({
    kind,
    index,
    caught: verdicts.get(index)?.foreignWords.includes(INVENTED_WORD) ?? false,
  }));
}

function plant(line: string): string {
  const middle = line.indexOf(" ", Math.floor(line.length / 2));
  return middle < 0
    ? `${line} ${INVENTED_WORD}`
    : `${line.slice(0, middle)} ${INVENTED_WORD}${line.slice(middle)}`;
}
