/**
 * The anchor index Hermes appends to a compaction summary: exact identifiers (issue numbers,
 * commits, branches, files, errors, handles, URLs) harvested from the compacted turns, most
 * frequent first. Built here so the plugin can skip Hermes's slower builder, and it must give
 * the same bytes as `_build_anchor_index` of Hermes's `agent.context_compressor` for the same
 * turns; the plugin checks that before it relies on it.
 *
 * @module
 */
import { ANCHOR_INDEX_HEADING as HEADING } from "../core/mod.ts";
import { ANCHOR_CATEGORIES, type AnchorCategory } from "./_patterns.ts";
import { type FoldedText, foldPythonClasses, pyLength, pyRstrip, pyStrip } from "./_python_text.ts";

/** The most code points the category lines take together; the first line past it ends them. */
const BUDGET_CHARS = 7_000;

const FOOTER = "(Exact identifiers from the compacted region — use these verbatim, " +
  "and as session_search query anchors to recover their full context.)";

/** Values never listed, compared lower-cased: the session owner, who is in every transcript. */
const NOISE: ReadonlySet<string> = new Set(["@teknium", "@teknium1"]);

/** Characters stripped from the end of every value. */
const TRAILING_PUNCTUATION = ".,;:";

/**
 * Builds Hermes's anchor index for the turns being compacted: for each category, the values its
 * pattern finds in the turns' string contents, most frequent first (ties: the most recently seen
 * first), capped per category, a repeated value written `value(xN)`. Category lines stop at the
 * first one that would take the lines past 7,000 characters. Returns `""` when nothing is found,
 * else the section starting with two newlines, as Hermes appends it to the summary.
 *
 * Only a turn whose `content` is a non-empty string is read; list and multimodal contents are
 * skipped, as Hermes skips them. The result is byte-identical to Hermes's
 * `_build_anchor_index(turns)` run on a Python whose Unicode database is the one
 * `_python_unicode.ts` was generated from (`PYTHON_UNICODE_VERSION`, 14.0.0: Python 3.11); a
 * newer Python classifies the characters added since then differently.
 *
 * @throws {TypeError} When `turns` is not an array or one of its rows is not an object (Hermes's
 * builder raises on such rows too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildAnchorIndex } from "./mod.ts";
 * const index = buildAnchorIndex([
 *   { role: "user", content: "Fix #1234 in src/app/main.py, see https://example.com/issues/1234" },
 *   { role: "tool", content: "ValueError: bad input in src/app/main.py" },
 * ]);
 * assert.equal(
 *   index,
 *   "\n\n## Anchor Index (mechanically extracted, exact)\n" +
 *     "PRs/issues: #1234\n" +
 *     "files: src/app/main.py(x2)\n" +
 *     "errors: ValueError: bad input in src/app/main.py\n" +
 *     "urls: https://example.com/issues/1234\n" +
 *     "(Exact identifiers from the compacted region — use these verbatim, " +
 *     "and as session_search query anchors to recover their full context.)",
 * );
 * ```
 */
export function buildAnchorIndex(turns: unknown): string {
  const text = joinedContent(turns);
  if (!text) return "";
  const folded = foldPythonClasses(text);
  const lines: string[] = [];
  let used = 0;
  for (const category of ANCHOR_CATEGORIES) {
    const line = categoryLine(category, text, folded);
    if (line === undefined) continue;
    const size = pyLength(line);
    if (used + size > BUDGET_CHARS) break;
    lines.push(line);
    used += size;
  }
  if (lines.length === 0) return "";
  return `\n\n${HEADING}\n${lines.join("\n")}\n${FOOTER}`;
}

/** The string contents of the turns joined by newlines; non-string and empty contents skipped. */
function joinedContent(turns: unknown): string {
  if (!Array.isArray(turns)) {
    throw new TypeError(`Turns must be an array of message objects, not ${describe(turns)}`);
  }
  const parts: string[] = [];
  for (let i = 0; i < turns.length; i++) {
    const row: unknown = turns[i];
    if (typeof row !== "object" || row === null || Array.isArray(row)) {
      throw new TypeError(`Turn ${i} must be a message object, not ${describe(row)}`);
    }
    const content = (row as { readonly content?: unknown }).content;
    if (typeof content === "string" && content !== "") parts.push(content);
  }
  return parts.join("\n");
}

function describe(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

interface Tally {
  count: number;
  /** Index of the last match of this value among all the category's matches. */
  last: number;
}

/** One category's line, or `undefined` when its pattern finds nothing worth listing. */
function categoryLine(
  category: AnchorCategory,
  text: string,
  folded: FoldedText,
): string | undefined {
  const tallies = new Map<string, Tally>();
  let index = 0;
  const { original } = folded;
  category.find(folded.folded, (start, end) => {
    const match = text.slice(original(start), original(end));
    const value = pyRstrip(pyStrip(match), TRAILING_PUNCTUATION);
    // Every match counts towards the recency index, a skipped one too.
    const n = index++;
    if (NOISE.has(value.toLowerCase())) return;
    const tally = tallies.get(value);
    if (tally === undefined) tallies.set(value, { count: 1, last: n });
    else {
      tally.count++;
      tally.last = n;
    }
  });
  if (tallies.size === 0) return undefined;
  const ranked = [...tallies].sort(([, a], [, b]) => b.count - a.count || b.last - a.last)
    .slice(0, category.cap);
  return `${category.label}: ${
    ranked.map(([value, { count }]) => count > 1 ? `${value}(x${count})` : value).join(", ")
  }`;
}
