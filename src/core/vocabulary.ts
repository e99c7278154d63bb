/**
 * The projector's own words. Everything else in a line that cites a message is quoted from that
 * message, which is what the faithfulness proofs check.
 *
 * @module
 */
import { DIFF_COUNTS } from "./output_facts.ts";
import { OUTCOME_WORDS } from "./outcome_words.ts";
import { renderRef, UNSAVED } from "./ref.ts";
import { FINGERPRINT_WORD, JOB_WORD } from "./sections/call_label.ts";
import { SECTION_DESCRIPTIONS } from "./sections/table.ts";

const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The words of `text` as the proofs compare them: runs of letters, digits and underscores.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wordsOf } from "./vocabulary.ts";
 * assert.deepEqual(wordsOf("pytest -q → exit 1"), ["pytest", "q", "exit", "1"]);
 * ```
 */
export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Words the projector writes itself (outcome words, each section's own words, references that
 * name nothing stored, fingerprints); compared case-sensitively.
 */
export const LABEL_WORDS: ReadonlySet<string> = new Set(
  wordsOf(
    [
      ...OUTCOME_WORDS,
      ...SECTION_DESCRIPTIONS.map((section) => section.ownWords),
      renderRef(UNSAVED),
      FINGERPRINT_WORD,
      JOB_WORD,
    ].join(" "),
  ),
);

/**
 * Tokens the projector writes that are not words of a cited message: repeat counts (`×3`), runs
 * left out (`4 more`), call fingerprints (`(id 1a2b3c4d)`), the process ids that name
 * background jobs (`(job proc_1a2b)`, from the row that started the job) and the lines a diff's
 * file adds and removes (`+3 -2`).
 */
export const LABEL_TOKENS: RegExp = new RegExp(
  [
    String.raw`×\d+|\b\d+(?= more\b)|\(id [0-9a-f]{8}\)|\(job [\w.-]{1,64}\)`,
    DIFF_COUNTS.source,
  ].join("|"),
  "gm",
);
