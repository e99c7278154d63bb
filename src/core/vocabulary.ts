/**
 * The projector's own words. Everything else in a line that cites a message is quoted from that
 * message, which is what the faithfulness proofs check.
 *
 * @module
 */

const LABELS = `
Historical Task Snapshot Goal Blocked Errors Fixes Error Names Seen Relevant Files Commands Run
Detailed Session Log oldest first user assistant system tool succeeded failed exit ran no code ok
error blocked pending approval timed out interrupted started in background still running output
cleared result then more fixed at later success first read written modified patched searched
deleted workdir referenced ERROR BLOCKED PENDING APPROVAL TIMED OUT INTERRUPTED unsaved older
omitted the full history is session store requests entries error names files commands log lines
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
 * import { wordsOf } from "./vocabulary.ts";
 * wordsOf("pytest -q → exit 1"); // ["pytest", "q", "exit", "1"]
 * ```
 */
export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}
