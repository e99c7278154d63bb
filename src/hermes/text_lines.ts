/**
 * Lines of a text as offsets, with each line's own terminator (`\r\n`, `\n` or a lone `\r`), so an
 * edit can add or remove whole lines and leave every other line end as it was.
 *
 * @module
 */

/** One line: where it starts, where its content ends, and where its terminator ends. */
export interface Line {
  readonly start: number;
  readonly contentEnd: number;
  /** Equal to `contentEnd` on a last line without a terminator. */
  readonly end: number;
}

function isBreak(char: string | undefined): boolean {
  return char === "\n" || char === "\r";
}

/** The line holding `offset` (a terminator belongs to the line it ends). */
export function lineAt(text: string, offset: number): Line {
  let start = Math.min(Math.max(offset, 0), text.length);
  if (text[start] === "\n" && text[start - 1] === "\r") start--;
  let contentEnd = start;
  while (start > 0 && !isBreak(text[start - 1])) start--;
  while (contentEnd < text.length && !isBreak(text[contentEnd])) contentEnd++;
  const end = text.startsWith("\r\n", contentEnd)
    ? contentEnd + 2
    : contentEnd + (contentEnd < text.length ? 1 : 0);
  return { start, contentEnd, end };
}

/** The 1-based number of the line holding `offset`. */
export function lineNumber(text: string, offset: number): number {
  let count = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) count++;
  }
  return count;
}

/** The terminator of `line`: `""` for a last line without one. */
export function terminator(text: string, line: Line): string {
  return text.slice(line.contentEnd, line.end);
}

/**
 * `text` with `lines` added after `anchor`, each ended like `anchor` (or, when `anchor` is the
 * last line and has no terminator, like the text's first line), so {@linkcode removeLines} gives
 * the text back exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { insertLinesAfter, lineAt } from "./text_lines.ts";
 * assert.equal(
 *   insertLinesAfter("a: 1\r\nb: 2\n", lineAt("a: 1\r\nb: 2\n", 0), ["c: 3"]),
 *   "a: 1\r\nc: 3\r\nb: 2\n",
 * );
 * ```
 */
export function insertLinesAfter(text: string, anchor: Line, lines: readonly string[]): string {
  const eol = terminator(text, anchor) || terminator(text, lineAt(text, 0)) || "\n";
  const added = lines.map((line) => `${eol}${line}`).join("");
  return text.slice(0, anchor.contentEnd) + added + text.slice(anchor.contentEnd);
}

/** `text` with `lines` put before everything else, ended like its first line (or with `\n`). */
export function insertLinesFirst(text: string, lines: readonly string[]): string {
  const eol = terminator(text, lineAt(text, 0)) || "\n";
  return lines.map((line) => `${line}${eol}`).join("") + text;
}

/**
 * `text` without the lines from `first` to `last`, with their terminators; when `last` has none,
 * the terminator before `first` goes instead, so the text keeps its last line ending as it was.
 */
export function removeLines(text: string, first: Line, last: Line): string {
  if (last.end > last.contentEnd || first.start === 0) {
    return text.slice(0, first.start) + text.slice(last.end);
  }
  return text.slice(0, lineAt(text, first.start - 1).contentEnd) + text.slice(last.end);
}
