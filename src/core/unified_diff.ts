/**
 * Reading the unified diffs an output holds (`git diff`, `git show`, `diff -u`, a patch printed
 * with `cat`): where each hunk's body lies, read as its header counts it, and each file's name,
 * its `index` line's blobs and the lines its hunks add and remove.
 *
 * @module
 */

/** One file of a diff: its name, the blobs its `index` line names, what its hunks add and remove. */
export interface DiffFile {
  /** The file's name after the change (before it, for a file the diff removes). */
  readonly path: string;
  /** The blobs before and after (`3a8593e..c1ece72`), when an `index` line names them. */
  readonly blobs?: string;
  readonly added: number;
  readonly removed: number;
}

/** What a text holds wherever a diff has a hunk. */
export const HUNK_START = "@@ -";
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/gm;
const GIT_START = "diff --git ";
// git's combined diff of a merge (`diff --cc`, `@@@` hunks), whose lines are not counted here.
const COMBINED = /^diff --(?:cc|combined) /;
const COMBINED_HUNK = "@@@ -";
const GIT_HEADER = /^diff --git (?:"?a\/)?(\S+?)"? (?:"?b\/)?(\S+?)"?$/;
const OLD_NAME = /^--- (?:a\/)?(\S+)/;
const NEW_NAME = /^\+\+\+ (?:b\/)?(\S+)/;
const INDEX = /^index ([0-9a-f]{7,}\.\.[0-9a-f]{7,})\b/;
const NO_FILE = "/dev/null";

/** One hunk: where its body lies in the text, and what it adds and removes. */
interface Hunk {
  /** Where its header starts. */
  readonly header: number;
  /** Where its body starts and ends (the start of the line after it). */
  readonly from: number;
  readonly to: number;
  readonly added: number;
  readonly removed: number;
}

/**
 * The hunks of `text`, each body read as its header counts it: a line of context (` `, or empty
 * where a tool dropped its space) takes one line of both sides, a removed one (`-`) of the first,
 * an added one (`+`) of the second, a `\ No newline` note none.
 */
function hunks(text: string): Hunk[] {
  const found: Hunk[] = [];
  if (!text.includes(HUNK_START)) return found;
  HUNK_HEADER.lastIndex = 0;
  for (let header = HUNK_HEADER.exec(text); header; header = HUNK_HEADER.exec(text)) {
    let before = Number(header[1] ?? 1);
    let after = Number(header[2] ?? 1);
    let added = 0;
    let removed = 0;
    const lineEnd = text.indexOf("\n", header.index);
    const from = lineEnd === -1 ? text.length : lineEnd + 1;
    let at = from;
    while (at < text.length && (before > 0 || after > 0)) {
      const mark = text[at];
      if (mark === "+") {
        after--;
        added++;
      } else if (mark === "-") {
        before--;
        removed++;
      } else if (mark === " " || mark === "\n") {
        before--;
        after--;
      } else if (mark !== "\\") break;
      const end = text.indexOf("\n", at);
      at = end === -1 ? text.length : end + 1;
    }
    found.push({ header: header.index, from, to: at, added, removed });
    HUNK_HEADER.lastIndex = Math.max(HUNK_HEADER.lastIndex, at);
  }
  return found;
}

/**
 * Where the bodies of the diff hunks of `text` lie: from the line after each header to the start
 * of the line after its last (ascending, apart).
 */
export function hunkBodies(text: string): [number, number][] {
  return hunks(text).map((hunk) => [hunk.from, hunk.to]);
}

/**
 * The files of the diffs `text` holds, in order, each with its name, its `index` line's blobs and
 * the lines its hunks add and remove; not the files of a merge's combined diff (`diff --cc`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diffFiles } from "./unified_diff.ts";
 * const diff = "diff --git a/x.py b/x.py\nindex 3a8593e..c1ece72 100644\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n b = 3";
 * assert.deepEqual(diffFiles(diff), [{ path: "x.py", blobs: "3a8593e..c1ece72", added: 1, removed: 1 }]);
 * ```
 */
export function diffFiles(text: string): DiffFile[] {
  if (!text.includes(HUNK_START) && !text.includes(GIT_START)) return [];
  const found = hunks(text);
  const files: DiffFile[] = [];
  let hunk = 0;
  // The file being read, and whether a hunk of it was read (a name after that is another file's).
  let file: { path: string; blobs?: string; added: number; removed: number } | undefined;
  let hunked = false;
  // Whether the lines read are a combined diff's (its headers, then its hunks), up to the next
  // file's header.
  let combined: false | "headers" | "hunks" = false;
  // The headers before each hunk name its file; a new name starts a new file.
  let lineStart = 0;
  const close = () => {
    if (file !== undefined && file.path !== "") files.push(file);
    file = undefined;
    hunked = false;
  };
  while (lineStart < text.length) {
    const next = found[hunk];
    if (next !== undefined && lineStart >= next.header) {
      file ??= { path: "", added: 0, removed: 0 };
      file.added += next.added;
      file.removed += next.removed;
      hunked = true;
      lineStart = next.to;
      hunk++;
      continue;
    }
    const end = text.indexOf("\n", lineStart);
    const line = text.slice(lineStart, end === -1 ? text.length : end);
    lineStart = end === -1 ? text.length : end + 1;
    if (COMBINED.test(line)) {
      close();
      combined = "headers";
      continue;
    }
    const git = GIT_HEADER.exec(line);
    if (git) {
      close();
      combined = false;
      file = {
        path: git[2] === NO_FILE ? git[1] as string : git[2] as string,
        added: 0,
        removed: 0,
      };
      continue;
    }
    // A combined diff's file is named, counted and given blobs by none of its lines; a file's name
    // after its hunks starts another diff.
    if (combined === "hunks" && OLD_NAME.test(line)) combined = false;
    if (combined !== false) {
      if (line.startsWith(COMBINED_HUNK)) combined = "hunks";
      continue;
    }
    const index = INDEX.exec(line);
    if (index) {
      file ??= { path: "", added: 0, removed: 0 };
      file.blobs = index[1] as string;
      continue;
    }
    const old = OLD_NAME.exec(line);
    if (old) {
      if (hunked) close();
      file ??= { path: "", added: 0, removed: 0 };
      if (file.path === "" && old[1] !== NO_FILE) file.path = old[1] as string;
      continue;
    }
    const named = NEW_NAME.exec(line);
    if (named && file !== undefined && named[1] !== NO_FILE) file.path = named[1] as string;
  }
  close();
  return files;
}
