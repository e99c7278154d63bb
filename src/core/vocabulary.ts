/**
 * The projector's own words. Everything else in a line that cites a message is quoted from that
 * message, which is what the faithfulness proofs check.
 *
 * @module
 */

const LABELS = `
succeeded failed exit ran no code ok error blocked pending approval timed out interrupted started
in background still running output cleared result match differences found false but printed an
then more fixed at later success first id read written modified patched searched deleted workdir
referenced user assistant system tool ERROR BLOCKED PENDING APPROVAL TIMED OUT INTERRUPTED unsaved
`;

/** Words the projector writes itself (labels, states, operations); compared case-sensitively. */
export const LABEL_WORDS: ReadonlySet<string> = new Set(
  LABELS.split(/\s+/).filter((word) => word !== ""),
);

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
 * Tokens the projector writes that are not words of a cited message: repeat counts (`×3`), runs
 * left out (`4 more`) and call fingerprints (`(id 1a2b3c4d)`).
 */
export const LABEL_TOKENS: RegExp = /×\d+|\b\d+(?= more\b)|\(id [0-9a-f]{8}\)/g;
