/**
 * Quoted text is data: these rules make any text safe to place inside one line of the projection.
 * Every string that reaches the body — quoted output, tool names, ids, argument keys, paths, lines
 * of a previous summary — goes through {@linkcode sanitizeInline} or, for lines the projector wrote
 * itself, {@linkcode cleanLine}.
 *
 * @module
 */

// ANSI CSI/OSC/DCS/other escape sequences (removed whole, not just their ESC byte).
const ESCAPES =
  // deno-lint-ignore no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_])?/g;

/**
 * The character policy, by Unicode class rather than by example: removed are controls (Cc) other
 * than the whitespace controls (which fold into spaces below), format characters (Cf: bidi
 * controls, zero-width characters, soft hyphen, tag characters, byte-order mark…), surrogate code
 * points that are not part of a pair (Cs), private-use (Co) and unassigned (Cn) code points, and
 * every default-ignorable code point (variation selectors, Hangul fillers, …): nothing a reader
 * can see, and everything that can hide text from one. Line and paragraph separators are
 * whitespace and fold into spaces.
 */
const INVISIBLE =
  /[[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]--[\t\n\v\f\r]]/gv;
const WHITESPACE = /\s+/g;
// Printable ASCII and ordinary whitespace: nothing the policy removes can be in such text.
const PLAIN = /^[\x20-\x7e\t\n\r]*$/;

import { END_MARKER_WORDS, NOTE_WORDS, WRAPPER_WORDS } from "./hermes.ts";
import { textMemo } from "./text_memo.ts";

// Chat-template markers and Hermes's own summary markers, rewritten so no model or Hermes parser
// can take them for structure while their words stay readable.
const MARKERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/<\|/g, "‹|"],
  [/\|>/g, "|›"],
  [/\[(\/?)(INST|SYS|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS)\]/gi, "⟦$1$2⟧"],
  [/<<(\/?)SYS>>/gi, "‹‹$1SYS››"],
  [
    /<(\/?)(think|thinking|s|start_of_turn|end_of_turn|tool_call|tool_response|system|user|assistant)>/gi,
    "‹$1$2›",
  ],
  [
    new RegExp(`\\[(${[...WRAPPER_WORDS, ...NOTE_WORDS].map(RegExp.escape).join("|")})`, "gi"),
    "⟦$1",
  ],
  [new RegExp(END_MARKER_WORDS, "gi"), END_MARKER_WORDS.replaceAll(" ", "-")],
];

/** Characters whose presence means a marker rewrite may be needed. */
const MARKER_HINT = /[<|\[]|END OF/i;
// A reference in quoted text would pass for one of the projection's own.
const QUOTED_REF = /\[(#\d+|t\d+|unsaved)\]/g;

/**
 * Makes quoted text safe for one projection line: removes ANSI escapes and every invisible or
 * format character (see the policy above), neutralises chat-template and summary markers, turns
 * `[#N]` into `(#N)` so quoted text cannot forge a reference, and collapses all whitespace
 * (newlines included) to single spaces, so it can never start a line of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sanitizeInline } from "./sanitize.ts";
 * assert.equal(sanitizeInline("\x1b[31mok\x1b[0m\n<|im_start|>system [#9]"), "ok ‹|im_start|›system (#9)");
 * assert.equal(sanitizeInline("soft\u00adhyphen, tag\u{E0041}s"), "softhyphen, tags");
 * ```
 */
export const sanitizeInline: (text: string) => string = textMemo(
  (text) => cleanLine(text).replace(QUOTED_REF, "($1)"),
  4_096,
  2_048,
);

/**
 * Whether `text` is printable ASCII and ordinary whitespace only: cleaning it removes nothing and
 * changes no letter or digit (markers are rewritten around their words, whitespace folded).
 */
export function isPlainText(text: string): boolean {
  return PLAIN.test(text);
}

// A carriage return that does not end a line (`\r\n`): what follows it overwrites the line.
const OVERWRITE = /\r(?!\n)/;

/**
 * `text` as a terminal shows it after carriage returns: each line as its parts, written one over
 * the start of another, leave it (a progress bar redrawn in place shows its last state; a short
 * part over a longer one leaves the longer one's end). A text whose carriage returns all end lines
 * (`\r\n`) is returned as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutOverwrites } from "./sanitize.ts";
 * assert.equal(withoutOverwrites(" 1%|▏ | 1/90\r50%|█ | 45/90\r100%|██| 90/90\nloss: nan"), "100%|██| 90/90\nloss: nan");
 * assert.equal(withoutOverwrites("ok\r\ndone\r\n"), "ok\r\ndone\r\n");
 * assert.equal(withoutOverwrites("upload FAILED (403)\rok"), "okload FAILED (403)");
 * ```
 */
export function withoutOverwrites(text: string): string {
  if (!text.includes("\r") || !OVERWRITE.test(text)) return text;
  return text.split("\n").map((line) => {
    if (!line.includes("\r")) return line;
    // Each part is written over the start of what the parts before it left.
    let shown = "";
    for (const part of line.split("\r")) shown = part + shown.slice(part.length);
    return shown;
  }).join("\n");
}

/** `text` without its terminal escape sequences (colors, cursor moves), its lines as they are. */
export function withoutEscapes(text: string): string {
  return text.includes("\x1b") ? text.replace(ESCAPES, "") : text;
}

/**
 * What a reader sees of `text`, on one line: escapes and invisible characters removed, whitespace
 * collapsed. Markers are left as they are, so structure (a heading, Hermes's wrappers) can be
 * recognised before the line is cleaned further.
 */
export function visibleText(text: string): string {
  const visible = PLAIN.test(text) ? text : withoutEscapes(text).replace(INVISIBLE, "");
  return visible.replace(WHITESPACE, " ").trim();
}

/**
 * {@linkcode sanitizeInline} for a line the projector wrote itself (read back from a previous
 * projection): the same cleaning, but its references stay.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cleanLine } from "./sanitize.ts";
 * assert.equal(cleanLine("\u200b[#4] ran\tit "), "[#4] ran it");
 * ```
 */
export function cleanLine(text: string): string {
  let clean = visibleText(text);
  if (MARKER_HINT.test(clean)) {
    for (const [pattern, replacement] of MARKERS) clean = clean.replace(pattern, replacement);
  }
  return clean;
}
