/**
 * The categories of Hermes's anchor index, each with a finder that reports exactly the matches
 * Hermes's Python pattern finds, in the same order, but quickly. Finders work on folded text
 * (`_python_text.ts`), where Python's Unicode-aware `\w`, `\d`, `\s` and `\b` are small classes.
 * Where a plain regex scan is slow (it tries every position), a finder first looks for what every
 * match must contain and runs the pattern only there; each such shortcut says why it is exact.
 *
 * @module
 */
import {
  FOLDED_BOUNDARY,
  FOLDED_DIGIT,
  FOLDED_SPACE,
  FOLDED_WORD,
  FOLDED_WORD_END,
  FOLDED_WORD_START,
} from "./_python_text.ts";

/** Receives the folded offsets of one match. */
export type MatchSink = (start: number, end: number) => void;

/** One category of the anchor index. */
export interface AnchorCategory {
  /** The line's label, as Hermes writes it. */
  readonly label: string;
  /** How many values the line lists at most. */
  readonly cap: number;
  /** Calls `found` for every match in folded text, in text order. */
  readonly find: (folded: string, found: MatchSink) => void;
}

/** A lookup table: 1 for each folded character (U+0000–U+0083) the class body matches. */
function charTable(classBody: string): Uint8Array {
  const test = new RegExp(`[${classBody}]`);
  return Uint8Array.from({ length: 0x84 }, (_, c) => test.test(String.fromCharCode(c)) ? 1 : 0);
}

const WORD = charTable(FOLDED_WORD);
const HEX = charTable("0-9a-f");
const isIn = (table: Uint8Array, text: string, at: number): boolean =>
  table[text.charCodeAt(at)] === 1;

/** Every match of `source`, by scanning the whole text. */
function scan(source: string): (folded: string, found: MatchSink) => void {
  const pattern = new RegExp(source, "g");
  return (folded, found) => {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(folded); m !== null; m = pattern.exec(folded)) {
      found(m.index, m.index + m[0].length);
    }
  };
}

/**
 * Python's `\b[0-9a-f]{9,40}\b`. Hex digits are word characters, so a match is a whole maximal
 * run of word characters that are all hex digits, 9 to 40 of them (a longer run has no match:
 * every shorter prefix is followed by a hex digit). Any 9 consecutive positions include one
 * whose index is 8 modulo 9, so probing those finds every run of 9 or more hex digits.
 */
function findCommits(folded: string, found: MatchSink): void {
  const length = folded.length;
  for (let probe = 8; probe < length; probe += 9) {
    if (!isIn(HEX, folded, probe)) continue;
    let start = probe;
    while (start > 0 && isIn(HEX, folded, start - 1)) start--;
    let end = probe + 1;
    while (end < length && isIn(HEX, folded, end)) end++;
    const size = end - start;
    if (
      size >= 9 && size <= 40 && !(start > 0 && isIn(WORD, folded, start - 1)) &&
      !(end < length && isIn(WORD, folded, end))
    ) {
      found(start, end);
    }
    while (probe + 9 < end) probe += 9;
  }
}

const BRANCH_PREFIXES = ["fix", "feat", "docs", "refactor", "chore", "salvage", "ent"];
const BRANCH = new RegExp(
  `${FOLDED_WORD_START}(?:${BRANCH_PREFIXES.join("|")})/[A-Za-z0-9._/\\-]{3,60}`,
  "y",
);

/**
 * Python's `\b(?:fix|feat|docs|refactor|chore|salvage|ent)/[A-Za-z0-9._/-]{3,60}`. A match
 * starts at one of the prefixes followed by `/`, so the pattern only runs, anchored, where a
 * `/` follows a prefix; no prefix ends another, so each `/` has at most one such start, and
 * starts inside an earlier match are skipped as a scan would skip them.
 */
function findBranches(folded: string, found: MatchSink): void {
  let taken = 0;
  for (let slash = folded.indexOf("/"); slash !== -1; slash = folded.indexOf("/", slash + 1)) {
    const prefix = BRANCH_PREFIXES.find((p) =>
      slash >= p.length && folded.startsWith(p, slash - p.length)
    );
    const start = slash - (prefix?.length ?? 0);
    if (prefix === undefined || start < taken) continue;
    BRANCH.lastIndex = start;
    const m = BRANCH.exec(folded);
    if (m !== null) {
      taken = start + m[0].length;
      found(start, taken);
    }
  }
}

const FILE_CHARS = `${FOLDED_WORD}./\\-`;
const FILE_CHAR = charTable(FILE_CHARS);
const FILE = new RegExp(
  `${FOLDED_BOUNDARY}[${FILE_CHARS}]+/[${FOLDED_WORD}.\\-]+\\.` +
    `(?:py|ts|tsx|js|rs|md|yaml|yml|json|toml|sh)${FOLDED_WORD_END}`,
  "g",
);

/**
 * Python's `\b[\w./-]+/[\w.-]+\.(?:py|ts|…|sh)\b`. Every character of a match is one of
 * `[\w./-]` and it holds a `/`, so each match lies inside a maximal run of those characters
 * that holds a `/`. The characters around such a run are not word characters, just like the
 * edges of the run taken on its own, so the pattern finds the same matches in the run alone.
 */
function findFiles(folded: string, found: MatchSink): void {
  let from = 0;
  for (let slash = folded.indexOf("/"); slash !== -1; slash = folded.indexOf("/", from)) {
    let start = slash;
    while (start > from && isIn(FILE_CHAR, folded, start - 1)) start--;
    let end = slash + 1;
    while (end < folded.length && isIn(FILE_CHAR, folded, end)) end++;
    const run = folded.slice(start, end);
    FILE.lastIndex = 0;
    for (let m = FILE.exec(run); m !== null; m = FILE.exec(run)) {
      found(start + m.index, start + m.index + m[0].length);
    }
    from = end;
  }
}

/** Hermes's categories, in its order, with its caps. */
export const ANCHOR_CATEGORIES: readonly AnchorCategory[] = [
  // #\d{3,6}\b
  { label: "PRs/issues", cap: 120, find: scan(`#[${FOLDED_DIGIT}]{3,6}${FOLDED_WORD_END}`) },
  { label: "commits", cap: 40, find: findCommits },
  { label: "branches", cap: 40, find: findBranches },
  { label: "files", cap: 80, find: findFiles },
  {
    // \b(?:[A-Z][a-zA-Z]*Error|Exception|ENOSPC|EACCES|SIGKILL|Traceback)\b[^\n]{0,90}
    label: "errors",
    cap: 40,
    find: scan(
      `${FOLDED_WORD_START}(?:[A-Z][a-zA-Z]*Error|Exception|ENOSPC|EACCES|SIGKILL|Traceback)` +
        `${FOLDED_WORD_END}[^\\n]{0,90}`,
    ),
  },
  // @[A-Za-z0-9-]{3,30}\b
  { label: "handles", cap: 40, find: scan(`@[A-Za-z0-9\\-]{3,30}${FOLDED_BOUNDARY}`) },
  // https?://[^\s)"']{10,110}
  { label: "urls", cap: 30, find: scan(`https?://[^${FOLDED_SPACE})"']{10,110}`) },
];
