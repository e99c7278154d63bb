import { errorLineOf, isRelayedFailure, isReportAside } from "./error_lines.ts";
import { cut, excerpt } from "./excerpt.ts";
import type { Outcome } from "./outcome.ts";
import { isBlocked, isFailure } from "./outcome_words.ts";
import { outputTally, withoutRules } from "./output_facts.ts";
import { savedPointer } from "./persisted_output.ts";
import { isPlainText, sanitizeInline } from "./sanitize.ts";
import { linesFromEnd } from "./text_lines.ts";

const ERROR_LINE =
  /error|exception|traceback|fail|fatal|panic|merge conflict|denied|not found|no such|refused|cannot|can't|unable|invalid|timed out|killed|abort|blocked|approval/i;
// Long outputs are searched in their head and tail only: errors sit at the end, causes at the start.
const HEAD_CHARS = 4000;
const TAIL_CHARS = 16000;
const MAX_ERROR_LINES = 3;
const TRACEBACK_HEADER = /^Traceback \(most recent call last\):?$/;
// A frame of a stack trace: JavaScript's and Java's (`    at Object.get error [as error]
// (node_modules/zod/lib/types.js:55:31)`, `at com.acme.Orders.total(Orders.java:42)`), Go's call
// and place (`panic({0x9c2a40?, 0xe51c70?})`, `/usr/local/go/src/runtime/panic.go:770 +0x132`):
// where the error passed, never what it was, whatever words its function names hold.
const STACK_FRAME =
  /^\s*at \S.*(?::\d+:\d+\)?|\.java:\d+\))$|^\s*\S+\.go:\d+(?: \+0x[0-9a-f]+)?$|^[\w./*()-]+\((?:.*0x[0-9a-f]+.*|\.\.\.)\)$/;
const JOIN = " … ";
// A line worth quoting from a success has a word in it, is one letter alone (psql's `t` for true),
// or is numbers only (`500` from `curl -w`, a count from `wc -l`, a row of a query's counts,
// `11|48213` or `  18 | 48213`): not only progress dots, rules or a percentage.
// (Numbers are parted by a bar or by spaces, one way only, so a long run of digits is read once.)
const NUMBER = String.raw`[+-]?\d[\d.,:]*`;
const WORDY = new RegExp(
  String.raw`\p{L}{2,}|^\s*\p{L}\s*$|^\s*${NUMBER}(?:\s*\|\s*${NUMBER}|\s+${NUMBER})*\s*$`,
  "u",
);

/**
 * The words of a tool result worth quoting in one line of at most `limit` characters: nothing for
 * a pruning stub (its words are Hermes's, not the result's; the outcome says what it kept); for a
 * failure, the lines that name the error; for a command that reported an error, that line; for a
 * command's success, its last lines (where summaries such as `48 passed` are), or a diff's file
 * headers and index lines; otherwise its first lines. A test run's tally (`2 failed, 140 passed`) leads, so a line cut short still states it;
 * before it, where Hermes saved a result too large to keep (the only way back to it).
 */
export function resultExcerpt(outcome: Outcome, command: boolean, limit: number): string {
  const words = ownWords(outcome, command, limit);
  if (outcome.saved === undefined) return words;
  const pointer = sanitizeInline(savedPointer(outcome.saved));
  return cut(words === "" ? pointer : `${pointer}${JOIN}${words}`, limit);
}

/**
 * Whether {@linkcode resultExcerpt} quotes anything of `outcome`, told without choosing its words
 * where that is cheaper: a failure's error lines are quoted when any line read has words.
 */
export function quotesAnything(outcome: Outcome, command: boolean, limit: number): boolean {
  // A cut to one character or none shows nothing of a longer text.
  if (limit < 2) return resultExcerpt(outcome, command, limit) !== "";
  if (outcome.saved !== undefined) return true;
  if (outcome.stub || outcome.detail.trim() === "") return false;
  if (isFailure(outcome) || isBlocked(outcome)) {
    return (command && tallyLine(outcome) !== undefined) || plainWordsAtEnd(outcome.detail) ||
      searchable(outcome.detail).some((line) => sanitizeInline(line) !== "");
  }
  // A command's success quotes its tally, else its last lines with a word (a diff its heads): a
  // plain last line with a word says so without cleaning it.
  if (command && outcome.reportedError === undefined && !outcome.detail.includes(DIFF_GIT)) {
    return tallyLine(outcome) !== undefined || wordyLineAtEnd(outcome.detail, limit) ||
      ownWords(outcome, command, limit) !== "";
  }
  return ownWords(outcome, command, limit) !== "";
}

/**
 * Whether a text read whole for its error lines ends with a plain line that is not blank (which
 * cleaning leaves as it is): it is then quoted, whatever else the text holds.
 */
function plainWordsAtEnd(text: string): boolean {
  if (text.length > HEAD_CHARS + TAIL_CHARS) return false;
  for (const raw of linesFromEnd(text)) {
    if (raw.trim() !== "") return isPlainText(raw);
  }
  return false;
}

/**
 * Whether one of the lines {@linkcode lastLines} reads holds a word, told from the end as far as
 * those lines are plain (a line that is not ends the look: `false`, cleaning must tell).
 */
function wordyLineAtEnd(text: string, limit: number): boolean {
  for (const raw of linesFromEnd(text, lastLinesStart(text, limit))) {
    if (!isPlainText(raw)) return false;
    if (WORDY.test(raw)) return true;
  }
  return false;
}

/** The words of a result worth quoting, as {@linkcode resultExcerpt} describes them. */
function ownWords(outcome: Outcome, command: boolean, limit: number): string {
  const detail = outcome.detail;
  if (outcome.stub || detail.trim() === "") return "";
  const tally = command ? tallyLine(outcome) : undefined;
  const lead = (words: string) =>
    tally === undefined
      ? words
      : [tally, ...words.split(JOIN).filter((line) => line !== "" && withoutRules(line) !== tally)]
        .join(JOIN);
  if (isFailure(outcome) || isBlocked(outcome)) return cut(lead(errorLines(detail)), limit);
  if (outcome.reportedError !== undefined) return excerpt(outcome.reportedError, limit);
  if (command) return cut(lead(diffHeads(detail) ?? lastLines(detail, limit)), limit);
  return excerpt(detail, limit);
}

// The lines of a diff that say what it changes: each file's header and its index line.
const DIFF_GIT = "diff --git ";
const DIFF_HEAD = new RegExp(`^(?:${DIFF_GIT}|index [0-9a-f]{4,}\\.\\.[0-9a-f]{4,}\\b)`);

/** The file headers and index lines of a diff in `text`; `undefined` when it shows none. */
function diffHeads(text: string): string | undefined {
  if (!text.includes(DIFF_GIT)) return undefined;
  const heads = searchable(text).filter((line) => DIFF_HEAD.test(line)).map(sanitizeInline);
  return heads.some((line) => line.startsWith("diff ")) ? heads.join(JOIN) : undefined;
}

/** The tally of a command's output (sanitised, its rules left out); `undefined` when it has none. */
function tallyLine(outcome: Outcome): string | undefined {
  const raw = outputTally(outcome);
  return raw === undefined ? undefined : withoutRules(sanitizeInline(raw));
}

/** The raw lines of `text` worth searching: all of a short text, the head and tail of a long one. */
function searchable(text: string): string[] {
  return text.length > HEAD_CHARS + TAIL_CHARS
    ? [...text.slice(0, HEAD_CHARS).split("\n").slice(0, -1), ...tail(text, TAIL_CHARS)]
    : text.split("\n");
}

/** The whole lines within the last `chars` characters of `text` (a cut first line is dropped). */
function tail(text: string, chars: number): string[] {
  if (text.length <= chars) return text.split("\n");
  return text.slice(-chars).split("\n").slice(1);
}

function errorLines(text: string): string {
  const lines = searchable(text);
  // A line with an error word, or any error line: a program's report in its own words, which may
  // have none (`patch: **** malformed patch at line 79`), a failed test's mark (`✘`, `●`); no
  // stack frame.
  const matching = [
    ...new Set(
      lines.filter((line) =>
        (ERROR_LINE.test(line) || errorLineOf(line) !== undefined) &&
        !STACK_FRAME.test(line) && !isReportAside(line)
      ),
    ),
  ];
  // A traceback's header says less than the exception line it leads to, a runner's report that a
  // step failed less than the step's own.
  const chosen = lastClean(
    matching,
    (line) => !TRACEBACK_HEADER.test(line) && !isRelayedFailure(errorLineOf(line)?.text ?? line),
  );
  const shown = chosen.length > 0 ? chosen : lastClean(matching, () => true);
  if (shown.length > 0) return shown.join(JOIN);
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = sanitizeInline(lines[index] as string);
    if (line !== "") return line;
  }
  return "";
}

/**
 * The last {@linkcode MAX_ERROR_LINES} of `lines` that `keep` takes, cleaned, distinct and in
 * order; lines are cleaned only once chosen, since most of a long output is never quoted.
 */
function lastClean(lines: readonly string[], keep: (line: string) => boolean): string[] {
  const picked: string[] = [];
  for (let index = lines.length - 1; index >= 0 && picked.length < MAX_ERROR_LINES; index--) {
    const line = sanitizeInline(lines[index] as string);
    if (line !== "" && keep(line) && !picked.includes(line)) picked.unshift(line);
  }
  return picked;
}

/**
 * Where the lines {@linkcode lastLines} reads begin: the first whole line of the last `limit × 8`
 * characters (past the end when none is whole).
 */
function lastLinesStart(text: string, limit: number): number {
  const from = text.length - limit * 8;
  if (from <= 0) return 0;
  const newline = text.indexOf("\n", from);
  return newline === -1 ? text.length + 1 : newline + 1;
}

function lastLines(text: string, limit: number): string {
  const picked: string[] = [];
  let size = 0;
  // From the end, read and cleaned only as far as they are looked at.
  for (const raw of linesFromEnd(text, lastLinesStart(text, limit))) {
    if (picked.length === 3) break;
    const line = sanitizeInline(raw);
    if (!WORDY.test(line)) continue;
    if (picked.length > 0 && size + line.length > limit) break;
    picked.unshift(line);
    size += line.length + JOIN.length;
  }
  return picked.join(JOIN);
}
