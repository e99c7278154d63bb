import { LABEL_TOKENS, LABEL_WORDS, refLabel, windowRef, wordsOf } from "../../core/mod.ts";
import { classifyLines, type LineKind } from "./line_kinds.ts";
import { rowWords } from "./row_words.ts";

/** The verdict on one projection line that cites messages. */
export interface LineVerdict {
  /** 0-based line number in the body. */
  readonly index: number;
  readonly kind: LineKind;
  /** The references on the line, without brackets (`#12`, `t3`). */
  readonly refs: readonly string[];
  /** References that name no row of the source. */
  readonly unresolved: readonly string[];
  /** Words of the line found neither in the cited rows nor among the projector's labels. */
  readonly foreignWords: readonly string[];
}

/** Whether a verdict found nothing wrong. */
export function lineHolds(verdict: LineVerdict): boolean {
  return verdict.unresolved.length === 0 && verdict.foreignWords.length === 0;
}

const REF = /\[(#\d+|t\d+)\]/g;
// A word an excerpt cut short: directly followed by the ellipsis that marks the cut.
const CUT_WORD = /([\p{L}\p{N}_]+)…/gu;

/** Looks up the words of a source row by its reference label. */
export type RowLookup = (ref: string) => ReadonlySet<string> | undefined;

/** A {@linkcode RowLookup} over a window: rows by `_row_id`, else by position. */
export function windowLookup(rows: readonly unknown[]): RowLookup {
  const refs = new Map<string, number>();
  rows.forEach((row, index) => refs.set(refLabel(windowRef(row, index)), index));
  const cache = new Map<number, Set<string>>();
  return (ref) => {
    const index = refs.get(ref);
    if (index === undefined) return undefined;
    let words = cache.get(index);
    if (!words) cache.set(index, words = rowWords(rows[index]));
    return words;
  };
}

/**
 * Checks every line of `body` that carries a reference: each reference must name a source row,
 * and each word of the line that is not one of the projector's label words (or a number in a
 * label: `×3`, `4 more`) must occur among the words of the rows the line cites (any of them).
 * A word directly followed by `…` was cut short by the excerpt; it passes when it begins a word
 * of a cited row. A bag-of-words check: it shows that lines quote
 * their sources, not that they are complete.
 */
export function checkLines(body: string, lookup: RowLookup): LineVerdict[] {
  const verdicts: LineVerdict[] = [];
  for (const line of classifyLines(body)) {
    const refs = [...line.text.matchAll(REF)].map((match) => match[1]!);
    if (refs.length === 0) continue;
    const sources = refs.map((ref) => ({ ref, words: lookup(ref) }));
    const unresolved = sources.filter((source) => !source.words).map((source) => source.ref);
    const cut = new Set([...line.text.matchAll(CUT_WORD)].map((match) => match[1]!));
    const foreign = wordsOf(line.text.replace(REF, " ").replace(LABEL_TOKENS, " ")).filter((
      word,
    ) =>
      !LABEL_WORDS.has(word) && !sources.some((source) => source.words?.has(word)) &&
      !(cut.has(word) && sources.some((source) => hasPrefix(source.words, word)))
    );
    verdicts.push({
      index: line.index,
      kind: line.kind,
      refs,
      unresolved,
      foreignWords: [...new Set(foreign)],
    });
  }
  return verdicts;
}

function hasPrefix(words: ReadonlySet<string> | undefined, prefix: string): boolean {
  for (const word of words ?? []) if (word.startsWith(prefix)) return true;
  return false;
}
