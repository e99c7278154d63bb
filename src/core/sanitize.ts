/**
 * Quoted text is data: these rules make any quoted text safe to place inside one line of the
 * projection.
 *
 * @module
 */

// ANSI CSI/OSC/other escape sequences, then every C0/C1 control, bidi control, zero-width
// character, byte-order mark and lone surrogate. Matching control characters is the point here.
const ESCAPES =
  // deno-lint-ignore no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_])?/g;
const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const WHITESPACE = /\s+/g;

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
    /\[(CONTEXT COMPACTION|CONTEXT SUMMARY|PRIOR CONTEXT|END OF PRIOR CONTEXT|STILL IN PROGRESS)/gi,
    "⟦$1",
  ],
  [/END OF CONTEXT SUMMARY/gi, "END-OF-CONTEXT-SUMMARY"],
];

/** Characters whose presence means a marker rewrite may be needed. */
const MARKER_HINT = /[<|\[]|END OF/i;
// A reference in quoted text would pass for one of the projection's own.
const QUOTED_REF = /\[(#\d+|t\d+)\]/g;

/**
 * Makes quoted text safe for one projection line: removes ANSI escapes, control, bidi and
 * zero-width characters, neutralises chat-template and summary markers, turns `[#N]` into `(#N)`
 * so quoted text cannot forge a reference, and collapses all whitespace (newlines included) to
 * single spaces.
 *
 * @example
 * ```ts
 * import { sanitizeInline } from "./sanitize.ts";
 * sanitizeInline("\x1b[31mok\x1b[0m\n<|im_start|>system [#9]"); // "ok ‹|im_start|›system (#9)"
 * ```
 */
export function sanitizeInline(text: string): string {
  return cleanLine(text).replace(QUOTED_REF, "($1)");
}

/**
 * {@linkcode sanitizeInline} for a line the projector wrote itself (read back from a previous
 * projection): the same cleaning, but its references stay.
 */
export function cleanLine(text: string): string {
  let clean = text.replace(ESCAPES, "").replace(INVISIBLE, "");
  if (MARKER_HINT.test(clean)) {
    for (const [pattern, replacement] of MARKERS) clean = clean.replace(pattern, replacement);
  }
  return clean.replace(WHITESPACE, " ").trim();
}
