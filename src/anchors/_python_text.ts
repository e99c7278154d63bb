/**
 * Python's text semantics for code that must give the same bytes as a Python function: the
 * Unicode-aware `\w`, `\d`, `\s` and `\b` of `re` on `str` (JavaScript's `\w` and `\b` are
 * ASCII-only, and its `\p{…}` classes follow the runtime's Unicode version), `str.strip()` and
 * `len()`, which counts code points rather than UTF-16 units. The character tables are pinned to
 * the Python that generated `_python_unicode.ts`.
 *
 * Regexes run on folded text ({@linkcode foldPythonClasses}): every non-ASCII character replaced
 * by one of four placeholders that stand for the classes Python's `re` puts it in. A pattern
 * whose literals and classes are ASCII, with `\w`, `\d`, `\s` and `\b` spelled with the
 * `FOLDED_*` constants, matches folded text exactly where Python's pattern matches the original,
 * and the small classes keep the regexes fast.
 *
 * @module
 */
import { PYTHON_DIGIT_RANGES, PYTHON_SPACE_RANGES, PYTHON_WORD_RANGES } from "./_python_unicode.ts";

// Placeholders in folded text, one per class a non-ASCII character can be in.
const DIGIT = 0x80; // \d, hence \w too
const WORD = 0x81; // \w but not \d
const SPACE = 0x82; // \s
const OTHER = 0x83; // none of them

/** Inside of a class matching, in folded text, what Python's `\w` matches. */
export const FOLDED_WORD = "0-9A-Z_a-z\\x80\\x81";

/** Inside of a class matching, in folded text, what Python's `\d` matches. */
export const FOLDED_DIGIT = "0-9\\x80";

/** Inside of a class matching, in folded text, what Python's `\s` matches. */
export const FOLDED_SPACE = "\\t-\\r\\x1c-\\x20\\x82";

/** Python's `\b` before a character known to be a word character, for folded text. */
export const FOLDED_WORD_START = `(?<![${FOLDED_WORD}])`;

/** Python's `\b` after a character known to be a word character, for folded text. */
export const FOLDED_WORD_END = `(?![${FOLDED_WORD}])`;

/** Python's `\b` anywhere, for folded text: a word character on one side only. */
export const FOLDED_BOUNDARY =
  `(?:(?<=[${FOLDED_WORD}])(?![${FOLDED_WORD}])|(?<![${FOLDED_WORD}])(?=[${FOLDED_WORD}]))`;

function parseRanges(ranges: string): Array<readonly [number, number]> {
  return ranges.trim().split(/\s+/).map((item) => {
    const [first, last] = item.split("-");
    const start = parseInt(first!, 16);
    return [start, last === undefined ? start : parseInt(last, 16)] as const;
  });
}

// The placeholder of every BMP code unit (a lone surrogate is OTHER); digits are filled after
// words because every digit is a word character too.
const BMP = new Uint8Array(0x10000).fill(OTHER);
// Ranges above the BMP per placeholder, sorted and flattened to [start, end, start, end, …].
const ASTRAL_DIGITS: number[] = [];
const ASTRAL_WORDS: number[] = [];
const ASTRAL_SPACES: number[] = [];
for (
  const [ranges, placeholder, astral] of [
    [PYTHON_WORD_RANGES, WORD, ASTRAL_WORDS],
    [PYTHON_DIGIT_RANGES, DIGIT, ASTRAL_DIGITS],
    [PYTHON_SPACE_RANGES, SPACE, ASTRAL_SPACES],
  ] as const
) {
  for (const [start, end] of parseRanges(ranges)) {
    if (start <= 0xffff) BMP.fill(placeholder, start, Math.min(end, 0xffff) + 1);
    if (end > 0xffff) astral.push(Math.max(start, 0x10000), end);
  }
}

function inRanges(flat: readonly number[], codePoint: number): boolean {
  let low = 0;
  let high = flat.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (codePoint < flat[mid * 2]!) high = mid - 1;
    else if (codePoint > flat[mid * 2 + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

function astralPlaceholder(codePoint: number): number {
  if (inRanges(ASTRAL_DIGITS, codePoint)) return DIGIT;
  if (inRanges(ASTRAL_WORDS, codePoint)) return WORD;
  return inRanges(ASTRAL_SPACES, codePoint) ? SPACE : OTHER;
}

/** Text with every non-ASCII character replaced by its class placeholder; see the module doc. */
export interface FoldedText {
  /** ASCII plus U+0080–U+0083, one UTF-16 unit per code point of the original. */
  readonly folded: string;
  /** The offset in the original text of an offset in `folded`. */
  readonly original: (foldedOffset: number) => number;
}

// deno-lint-ignore no-control-regex
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;
const PLACEHOLDER_TEXT = [DIGIT, WORD, SPACE, OTHER].reduce<Record<number, string>>(
  (texts, placeholder) => ({ ...texts, [placeholder]: String.fromCharCode(placeholder) }),
  {},
);
const SAME_OFFSET = (offset: number): number => offset;

/**
 * Folds `text` for matching with Python's semantics: every non-ASCII code point becomes the
 * placeholder of its Python class (U+0080 `\d`, U+0081 other `\w`, U+0082 `\s`, U+0083 none),
 * one unit even for a character outside the BMP, as it counts once for Python's quantifiers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldPythonClasses } from "./_python_text.ts";
 * const { folded, original } = foldPythonClasses("naïve 😀 ٣");
 * assert.equal(folded, "na\x81ve \x83 \x80");
 * assert.equal(original(8), 9); // the emoji before it takes two UTF-16 units
 * ```
 */
export function foldPythonClasses(text: string): FoldedText {
  // Folded offsets of the characters outside the BMP, each one unit shorter than the original.
  const astral: number[] = [];
  const folded = text.replace(NON_ASCII_RUN, (run: string, offset: number) => {
    let out = "";
    for (let i = 0; i < run.length; i++) {
      const unit = run.charCodeAt(i);
      if (isHighSurrogate(unit) && isLowSurrogate(run.charCodeAt(i + 1))) {
        astral.push(offset + i - astral.length);
        const codePoint = ((unit - 0xd800) << 10) + (run.charCodeAt(++i) - 0xdc00) + 0x10000;
        out += PLACEHOLDER_TEXT[astralPlaceholder(codePoint)];
      } else {
        out += PLACEHOLDER_TEXT[BMP[unit]!];
      }
    }
    return out;
  });
  if (astral.length === 0) return { folded, original: SAME_OFFSET };
  return { folded, original: (offset) => offset + countBelow(astral, offset) };
}

/** How many of the sorted `values` are below `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! < limit) low = mid + 1;
    else high = mid;
  }
  return low;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

const SPACE_CLASS = parseRanges(PYTHON_SPACE_RANGES).map(([start, end]) =>
  start === end
    ? `\\u{${start.toString(16)}}`
    : `\\u{${start.toString(16)}}-\\u{${end.toString(16)}}`
).join("");
const STRIP = new RegExp(`^[${SPACE_CLASS}]+|[${SPACE_CLASS}]+$`, "gu");

/**
 * Python's `s.strip()`: removes leading and trailing whitespace as Python defines it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyStrip } from "./_python_text.ts";
 * assert.equal(pyStrip("\x1c a b\u0085"), "a b");
 * assert.equal(pyStrip("\ufeffa"), "\ufeffa"); // U+FEFF is not whitespace in Python
 * ```
 */
export function pyStrip(text: string): string {
  return text.replace(STRIP, "");
}

/**
 * Python's `s.rstrip(chars)` for `chars` of BMP characters: removes every trailing character
 * that is one of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyRstrip } from "./_python_text.ts";
 * assert.equal(pyRstrip("x.py.,;", ".,;:"), "x.py");
 * ```
 */
export function pyRstrip(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

/**
 * Python's `len(s)` for the same text: the number of code points, so a character outside the
 * Basic Multilingual Plane counts once (JavaScript's `length` counts it twice) and a lone
 * surrogate counts once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyLength } from "./_python_text.ts";
 * assert.equal(pyLength("a😀b"), 3);
 * assert.equal("a😀b".length, 4);
 * ```
 */
export function pyLength(text: string): number {
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}
