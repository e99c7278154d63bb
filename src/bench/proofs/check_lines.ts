import {
  isHeader,
  LABEL_TOKENS,
  LABEL_WORDS,
  refLabel,
  RESTATEMENT_HEADER,
  SNAPSHOT_GROUNDING_WORDS,
  windowRef,
  wordsOf,
} from "../../core/mod.ts";
import { classifyLines, type LineKind } from "./line_kinds.ts";
import { rowWords } from "./row_words.ts";

/** The verdict on one projection line that cites messages. */
export interface LineVerdict {
  /** 0-based line number in the body. */
  readonly index: number;
  readonly kind: LineKind;
  /** The references on the line, without brackets (`#12`, `t3`, `unsaved`). */
  readonly refs: readonly string[];
  /** References that name no row of the source. */
  readonly unresolved: readonly string[];
  /**
   * References that name no stored row by design, which make the line not checkable: `[unsaved]`,
   * and `[tN]` (a window position) where the source knows rows by id only, as a stored summary's
   * session does.
   */
  readonly uncheckable: readonly string[];
  /** Words of the line found neither in the cited rows nor among the projector's labels. */
  readonly foreignWords: readonly string[];
}

/** Whether a verdict found nothing wrong (a line that cannot be checked is not wrong). */
export function lineHolds(verdict: LineVerdict): boolean {
  return verdict.unresolved.length === 0 && verdict.foreignWords.length === 0;
}

/** Whether the line could be checked: all its references name source rows or positions. */
export function lineCheckable(verdict: LineVerdict): boolean {
  return verdict.uncheckable.length === 0;
}

const REF = /\[(#\d+|t\d+|unsaved)\]/g;
// Hermes's words on the task snapshot line it writes in place of vcc's (0.19, 0.22), the marker
// it quotes before a request it restated (0.22), and the marks it leaves where it cut the quote:
// labels, not quotes.
const HERMES_SNAPSHOT_LABEL = new RegExp(RegExp.escape(SNAPSHOT_GROUNDING_WORDS), "g");
const HERMES_RESTATEMENT = new RegExp(
  `[[⟦]${RegExp.escape(RESTATEMENT_HEADER.slice(1, -1))}[\\]⟧]`,
  "g",
);
const HERMES_ELISION = /\s?\.\.\.\[truncated\]|⟪HERMES-CONTEXT-COMPRESSION:[^⟫]*⟫/g;
// A word an excerpt cut short: directly followed by the ellipsis that marks the cut.
const CUT_WORD = /([\p{L}\p{N}_]+)…/gu;
// A word directly after `…` is the end of a word shortened inside.
const WORD_END = /…([\p{L}\p{N}_]+)/gu;

/** Looks up the words of a source row by its reference label. */
export interface RowLookup {
  (ref: string): ReadonlySet<string> | undefined;
  /** Whether some rows are known by window position only (`[tN]`), as in a window never stored. */
  readonly positional: boolean;
}

/**
 * A {@linkcode RowLookup} over a window: rows by `_row_id`, else by position; a result row also
 * says what the call it answers said.
 */
export function windowLookup(rows: readonly unknown[]): RowLookup {
  const refs = new Map<string, number>();
  rows.forEach((row, index) => refs.set(refLabel(windowRef(row, index)), index));
  // A result says what its call said: the calls by their ids, as the rows that made them.
  const calls = new Map<string, unknown>();
  for (const row of rows) {
    for (const call of callsOf(row)) {
      if (typeof call.id === "string" && !calls.has(call.id)) {
        calls.set(call.id, { tool_calls: [call] });
      }
    }
  }
  const cache = new Map<number, Set<string>>();
  const lookup = (ref: string) => {
    const index = refs.get(ref);
    if (index === undefined) return undefined;
    let words = cache.get(index);
    if (!words) {
      const row = rows[index];
      const callId = (row as { tool_call_id?: unknown } | null)?.tool_call_id;
      const call = typeof callId === "string" ? calls.get(callId) : undefined;
      words = rowWords(row);
      for (const word of call === undefined ? [] : rowWords(call)) words.add(word);
      cache.set(index, words);
    }
    return words;
  };
  return Object.assign(lookup, { positional: [...refs.keys()].some((ref) => ref.startsWith("t")) });
}

/** The tool calls a row made, as far as they are objects. */
function callsOf(row: unknown): Record<string, unknown>[] {
  const calls = (row as { tool_calls?: unknown } | null)?.tool_calls;
  return Array.isArray(calls)
    ? calls.filter((call): call is Record<string, unknown> =>
      call !== null && typeof call === "object"
    )
    : [];
}

/**
 * Checks every line of `body` that carries a reference: each reference must name a source row,
 * and each word of the line that is not one of the projector's label words (or a number in a
 * label: `×3`, `4 more`), nor Hermes's own words on the task snapshot line it grounds, must
 * occur among the words of the rows the line cites (any of them). A word directly followed by
 * `…` (or by Hermes's elision mark) was cut short; it passes when it begins a word of a cited
 * row, and one directly after `…` (a word shortened inside) when it ends one. A line citing `[unsaved]`, or a window position where the source knows rows by id only, is
 * not checkable: its words are not checked. A bag-of-words check: it shows that lines quote their
 * sources, not that they are complete.
 */
export function checkLines(body: string, lookup: RowLookup): LineVerdict[] {
  const verdicts: LineVerdict[] = [];
  for (const line of classifyLines(body)) {
    // The header explains the reference forms; it cites nothing.
    if (isHeader(line.text)) continue;
    const refs = [...line.text.matchAll(REF)].map((match) => match[1]!);
    if (refs.length === 0) continue;
    const sources = refs.map((ref) => ({
      ref,
      words: ref === "unsaved" ? undefined : lookup(ref),
    }));
    const missing = sources.filter((source) => !source.words).map((source) => source.ref);
    const uncheckable = missing.filter((ref) =>
      ref === "unsaved" || (ref.startsWith("t") && !lookup.positional)
    );
    const text = line.kind === "snapshot"
      ? line.text.replace(HERMES_SNAPSHOT_LABEL, " ").replace(HERMES_RESTATEMENT, " ")
        .replace(HERMES_ELISION, "…")
      : line.text;
    const cut = new Set([...text.matchAll(CUT_WORD)].map((match) => match[1]!));
    const ends = new Set([...text.matchAll(WORD_END)].map((match) => match[1]!));
    const foreign = uncheckable.length > 0
      ? []
      : wordsOf(text.replace(REF, " ").replace(LABEL_TOKENS, " ")).filter((word) =>
        !LABEL_WORDS.has(word) && !sources.some((source) => source.words?.has(word)) &&
        !(cut.has(word) && sources.some((source) => hasPart(source.words, word, "start"))) &&
        !(ends.has(word) && sources.some((source) => hasPart(source.words, word, "end")))
      );
    verdicts.push({
      index: line.index,
      kind: line.kind,
      refs,
      unresolved: missing.filter((ref) => !uncheckable.includes(ref)),
      uncheckable,
      foreignWords: [...new Set(foreign)],
    });
  }
  return verdicts;
}

/** Whether some word of `words` starts (or ends) with `part`. */
function hasPart(
  words: ReadonlySet<string> | undefined,
  part: string,
  where: "start" | "end",
): boolean {
  for (const word of words ?? []) {
    if (where === "start" ? word.startsWith(part) : word.endsWith(part)) return true;
  }
  return false;
}
