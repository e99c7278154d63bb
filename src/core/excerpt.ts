import { sanitizeInline } from "./sanitize.ts";

/** Longest raw prefix worth sanitising for an excerpt of `limit` characters. */
function rawWindow(limit: number): number {
  return limit * 4 + 256;
}

/**
 * A sanitised, single-line excerpt of `text` of at most `limit` characters, cut at a word
 * boundary and marked with `…` when shortened.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { excerpt } from "./excerpt.ts";
 * assert.equal(excerpt("one two three four", 12), "one two…");
 * ```
 */
export function excerpt(text: string, limit: number): string {
  // A short prefix is cleaned first: most text loses little to cleaning, and then it is enough.
  const first = limit * 2 + SLACK * 2;
  if (text.length > first) {
    const clean = sanitizeInline(text.slice(0, first));
    if (clean.length >= limit + SLACK) return cut(clean, limit);
  }
  if (text.length <= rawWindow(limit)) return cut(sanitizeInline(text), limit);
  // Only a prefix was cleaned: its last word may be cut, so the excerpt always ends before it.
  const clean = sanitizeInline(text.slice(0, rawWindow(limit)));
  return cut(clean, Math.min(limit, clean.length - 1));
}

// Characters of clean text past the limit that show a prefix cleaned as the whole text would be.
const SLACK = 64;

/** Shortens already-clean single-line text to at most `limit` characters at a word boundary. */
export function cut(clean: string, limit: number): string {
  if (clean.length <= limit) return clean;
  if (limit <= 1) return "";
  const head = clean.slice(0, limit - 1);
  const space = head.lastIndexOf(" ");
  const body = space > 0 ? head.slice(0, space) : head;
  // A cut right after a gap (` … `) shows one mark, not two.
  return `${dropSplitSurrogate(body).trimEnd().replace(/\s*…$/, "")}…`;
}

function dropSplitSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/** What joins the start and the end a line cut in its middle shows. */
export const MIDDLE_GAP = " … ";

/**
 * Shortens already-clean single-line text to at most `limit` characters by cutting out its middle:
 * its start and its end stay, joined by ` … `, both at word boundaries where there are any. A
 * command's end often tells it apart (`| grep -i error`, the file it writes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutMiddle } from "./excerpt.ts";
 * assert.equal(
 *   cutMiddle("cd /repo && python -m pytest tests -q | grep -i error", 40),
 *   "cd /repo && python -m … grep -i error",
 * );
 * ```
 */
export function cutMiddle(clean: string, limit: number): string {
  if (clean.length <= limit) return clean;
  const tailRoom = Math.floor((limit - 3) * 0.4);
  if (tailRoom < 8) return cut(clean, limit);
  // The tail starts at a word: after the first space within its room, else the last before it.
  const tailFrom = clean.length - tailRoom;
  const after = clean.indexOf(" ", tailFrom);
  const start = after !== -1 && after < clean.length - 1 ? after : clean.lastIndexOf(" ", tailFrom);
  const tail = start <= 0 ? "" : clean.slice(start + 1);
  const headRoom = limit - 3 - tail.length;
  if (tail === "" || headRoom < tailRoom / 2) return cut(clean, limit);
  let head = clean.slice(0, headRoom);
  if (clean[headRoom] !== " ") {
    const lastSpace = head.lastIndexOf(" ");
    if (lastSpace > 0) head = head.slice(0, lastSpace);
  }
  return joinGaps(`${dropSplitSurrogate(head.trimEnd())}${MIDDLE_GAP}${tail}`);
}

/**
 * `text` with each run of gaps (`…` separated by spaces) as one: shortening a line that was
 * shortened before (a previous summary's) leaves no `… …`.
 */
export function joinGaps(text: string): string {
  return text.includes("…") ? text.replace(/…(?: +…)+/g, "…") : text;
}
