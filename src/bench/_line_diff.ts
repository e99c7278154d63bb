/**
 * Line diffs of two texts in the unified format (`@@ -a,b +c,d @@`, then ` `, `-` and `+` lines),
 * so a changed golden output shows what changed instead of only that it changed.
 *
 * @module
 */

/** Longest-common-subsequence tables larger than this many cells are not built. */
const MAX_TABLE_CELLS = 4_000_000;

type Edit = { readonly op: " " | "-" | "+"; readonly line: string };

/**
 * The unified diff from `before` to `after` with `context` unchanged lines around each change;
 * `""` when the texts are equal. The changed middle of two very long texts is shown as all lines
 * removed and all added rather than aligned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unifiedDiff } from "./_line_diff.ts";
 *
 * assert.equal(
 *   unifiedDiff("a\nb\nc\n", "a\nB\nc\n", 1),
 *   "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
 * );
 * assert.equal(unifiedDiff("same", "same"), "");
 * ```
 */
export function unifiedDiff(before: string, after: string, context = 3): string {
  if (before === after) return "";
  const edits = lineEdits(before.split("\n"), after.split("\n"));
  const changed = edits.flatMap((edit, index) => (edit.op === " " ? [] : [index]));
  const hunks: string[] = [];
  let first = 0;
  for (let k = 1; k <= changed.length; k++) {
    if (k < changed.length && changed[k]! - changed[k - 1]! <= 2 * context + 1) continue;
    const start = Math.max(0, changed[first]! - context);
    const end = Math.min(edits.length, changed[k - 1]! + context + 1);
    hunks.push(hunk(edits, start, end));
    first = k;
  }
  return hunks.join("");
}

function hunk(edits: readonly Edit[], start: number, end: number): string {
  const oldStart = 1 + edits.slice(0, start).filter((edit) => edit.op !== "+").length;
  const newStart = 1 + edits.slice(0, start).filter((edit) => edit.op !== "-").length;
  const body = edits.slice(start, end);
  const oldCount = body.filter((edit) => edit.op !== "+").length;
  const newCount = body.filter((edit) => edit.op !== "-").length;
  const lines = body.map((edit) => `${edit.op}${edit.line}\n`).join("");
  return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n${lines}`;
}

/** The edit script from `a` to `b`: common ends kept, the middle aligned on its longest common
 * subsequence. */
function lineEdits(a: readonly string[], b: readonly string[]): Edit[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix && suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) suffix++;
  const keep = (lines: readonly string[]) => lines.map((line): Edit => ({ op: " ", line }));
  const middle = alignMiddle(
    a.slice(prefix, a.length - suffix),
    b.slice(prefix, b.length - suffix),
  );
  return [...keep(a.slice(0, prefix)), ...middle, ...keep(a.slice(a.length - suffix))];
}

function alignMiddle(a: readonly string[], b: readonly string[]): Edit[] {
  const removed = a.map((line): Edit => ({ op: "-", line }));
  const added = b.map((line): Edit => ({ op: "+", line }));
  if ((a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS) return [...removed, ...added];
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i * width + j] = a[i] === b[j]
        ? common[(i + 1) * width + j + 1]! + 1
        : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ op: " ", line: a[i++]! });
      j++;
    } else if (
      i < a.length && (j === b.length || common[(i + 1) * width + j]! >= common[i * width + j + 1]!)
    ) {
      edits.push({ op: "-", line: a[i++]! });
    } else {
      edits.push({ op: "+", line: b[j++]! });
    }
  }
  return edits;
}
