/**
 * Faithfulness proofs: every projection line that cites messages is checked against the rows it
 * cites (bag of words), references must resolve, and a negative control plants an invented word
 * in every kind of line to show the check can fail.
 *
 * @module
 */
export {
  checkLines,
  lineCheckable,
  lineHolds,
  type LineVerdict,
  type RowLookup,
  windowLookup,
} from "./check_lines.ts";
export { classifyLines, LINE_KINDS, type LineKind, type SectionLine } from "./line_kinds.ts";
export { INVENTED_WORD, plantAndCheck, type PlantedWord } from "./negative_control.ts";
export {
  type BodyProof,
  type FailedLine,
  type ProofTotals,
  type ProofWindow,
  proveBody,
  proveWindow,
  totalProofs,
} from "./prove.ts";
export { rowWords } from "./row_words.ts";
