/**
 * Reading the lines of a long output: the whole lines of its head and tail, its lines from the end
 * back, how many it has, and the lines that hold a mark.
 *
 * @module
 */

/**
 * `text` whole when it is at most `head + tail` characters long, else the whole lines within its
 * first `head` and its last `tail` characters, joined by a line break (a line cut by either bound
 * is left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headAndTail } from "./text_lines.ts";
 * assert.equal(headAndTail("one\ntwo\nthree\nfour\nfive", 5, 6), "one\nfive");
 * assert.equal(headAndTail("short", 5, 6), "short");
 * ```
 */
export function headAndTail(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  const first = text.slice(0, head);
  const last = text.slice(-tail);
  const firstEnd = first.lastIndexOf("\n");
  const lastStart = last.indexOf("\n");
  return `${firstEnd === -1 ? "" : first.slice(0, firstEnd)}\n${
    lastStart === -1 ? "" : last.slice(lastStart + 1)
  }`;
}

/**
 * The lines of `text` from its last back to the one `from` falls in (that one from `from` on),
 * read one at a time: a caller looking for a line near the end reads no further.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linesFromEnd } from "./text_lines.ts";
 * assert.deepEqual([...linesFromEnd("a\nbb\n\nccc")], ["ccc", "", "bb", "a"]);
 * assert.deepEqual([...linesFromEnd("a\nbb\nccc", 3)], ["ccc", "b"]);
 * ```
 */
export function* linesFromEnd(text: string, from = 0): Generator<string> {
  let end = text.length;
  for (;;) {
    const newline = end > from ? text.lastIndexOf("\n", end - 1) : -1;
    const start = newline < from ? from : newline + 1;
    yield text.slice(start, end);
    if (start === from) return;
    end = start - 1;
  }
}

/**
 * How many lines `text` has, counted no further than `most`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineCount } from "./text_lines.ts";
 * assert.equal(lineCount("a\nb\nc"), 3);
 * assert.equal(lineCount("a\nb\nc\nd", 2), 2);
 * assert.equal(lineCount(""), 1);
 * ```
 */
export function lineCount(text: string, most = Infinity): number {
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1 && count < most; at = text.indexOf("\n", at + 1)) {
    count++;
  }
  return count;
}

/**
 * Where the lines of `text` that hold a match of `mark` start, ascending, each line once: one pass
 * of the global `mark` from `from` (a match lies within one line: the line its last character is
 * on holds it; the line of a match found past `from` is read whole).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineAt, markedLines } from "./text_lines.ts";
 * const text = "ok\nFAIL a FAIL b\nok\nFAIL c";
 * assert.deepEqual(markedLines(text, /FAIL/g), [3, 20]);
 * assert.deepEqual(markedLines(text, /b/g, 14).map((start) => lineAt(text, start)), ["FAIL a FAIL b"]);
 * ```
 */
export function markedLines(text: string, mark: RegExp, from = 0): number[] {
  const starts: number[] = [];
  mark.lastIndex = from;
  while (mark.test(text)) {
    const last = mark.lastIndex - 1;
    starts.push(text.lastIndexOf("\n", last) + 1);
    const end = text.indexOf("\n", last);
    mark.lastIndex = end === -1 ? text.length : end + 1;
  }
  return starts;
}

/** The line of `text` that starts at `start`, without its line break. */
export function lineAt(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? text.length : end);
}
