/**
 * What the user and the assistant state that later steps must honour or may build on: the
 * constraints and decisions in their words, and the assistant's closing statement of a turn (its
 * reply without tool calls: what it found, did or concluded). Read from a row's text by the cue
 * words below, the one place they are described.
 *
 * @module
 */
import type { Row } from "./message.ts";
import { withoutRestatement } from "./requests.ts";
import { sanitizeInline } from "./sanitize.ts";

/** What a statement is. */
export type StatementKind = "constraint" | "decision" | "conclusion";

/** One statement: the row it was made in, who made it, its kind and its words (sanitised). */
export interface Statement {
  readonly row: Row;
  readonly kind: StatementKind;
  readonly text: string;
}

/**
 * Where in a statement's words (a turn's closing reply) its first sentence after the first that
 * states a decision starts: what a line too narrow for the whole reply must still show.
 * `undefined` when no later sentence does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionAt } from "./statements.ts";
 * assert.equal(decisionAt("Fixture 0042 fails. Decision: keep the fixtures."), 20);
 * assert.equal(decisionAt("Decision: keep the fixtures. Then commit."), undefined);
 * ```
 */
export function decisionAt(text: string): number | undefined {
  if (!DECISION_CUES.test(text)) return undefined;
  let offset = 0;
  for (const sentence of text.split(SENTENCE_BREAK)) {
    const start = text.indexOf(sentence, offset);
    offset = start + sentence.length;
    if (start > 0 && DECISION_CUES.test(sentence)) return start;
  }
  return undefined;
}

// Words of the user's that bind later steps: what must or must not be done, what to keep as it is.
const CONSTRAINT_CUES =
  /\b(?:must(?:n't| not)?|never|do not|don't|should(?:n't| not)|avoid|without|keep|leave|not allowed|forbidden|constraint)\b/i;
// Words that settle a choice, or name what a finding is.
const DECISION_CUES =
  /\b(?:decision|decided?|chose|chosen|opt(?:ed)? (?:for|to)|going with|go with|(?:i|we)(?:'ll| will) (?:use|keep|go with|switch to|stick with|leave)|instead of|rather than|switch(?:ed|ing)? to|settled on|the plan is|the fix is|root cause)\b/i;

// Where a text breaks into sentences: after a full stop, question or exclamation mark followed by
// a space (not the stop of an abbreviation: `e.g.`, `i.e.`, `etc.`, `vs.`), at line breaks and
// list bullets.
const SENTENCE_BREAK =
  /(?<=[.!?])(?<!\b(?:e\.g|i\.e|etc|vs|cf|incl|approx|resp|esp)\.)[^\S\n]+(?=\S)|\s*\n+\s*(?:[-*•]\s+)?/;
// A fenced block of code or output: quoted material, whose comments and messages are nobody's
// statement.
const FENCE = String.raw`^[ \t]*(\`{3,}|~{3,})`;
const FENCED_BLOCK = new RegExp(
  String.raw`${FENCE}[^\n]*\n[\s\S]*?(?:^[ \t]*\1[ \t]*$|(?![\s\S]))`,
  "gm",
);
// A fence's line, with the language it names.
const FENCE_LINE = new RegExp(String.raw`${FENCE}\S*`, "gm");
// A sentence that ends by announcing what follows (`So the fix is:`) is read with it, this far.
const ANNOUNCED_CHARS = 200;
const ANNOUNCES = /:\s*$/;
// Sentences shorter than this say too little to stand alone.
const LEAST_SENTENCE_CHARS = 12;
// The longest text read for statements: enough for any reply worth quoting.
const READ_CHARS = 20_000;

/**
 * The statements of a row: for an assistant reply without tool calls (a turn's close), the reply
 * as one conclusion; otherwise each sentence with a decision's cue words, and a user's with a
 * constraint's, as that kind. A user's sentence that one of `shownElsewhere` holds whole (the
 * parts of the request Goal always shows) is not repeated. Rows of other roles state nothing
 * here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statementsOf } from "./statements.ts";
 * const row = { index: 0, ref: { kind: "row", id: 4 }, role: "assistant", toolCalls: [{}],
 *   text: "Reading the config. Decision: keep max_retries at 7.", toolCallId: "", toolName: "",
 *   toolLabel: "", time: undefined } as const;
 * assert.deepEqual(statementsOf(row as never).map((s) => [s.kind, s.text]), [["decision", "Decision: keep max_retries at 7."]]);
 * ```
 */
export function statementsOf(row: Row, shownElsewhere: readonly string[] = []): Statement[] {
  if (row.role === "assistant" && row.toolCalls.length === 0) {
    const text = sanitizeInline(row.text.slice(0, READ_CHARS));
    return text.length >= LEAST_SENTENCE_CHARS ? [{ row, kind: "conclusion", text }] : [];
  }
  if (row.role !== "assistant" && row.role !== "user") return [];
  const raw = row.role === "user" ? withoutRestatement(row.text.trim()) : row.text;
  // A sentence holds a cue only where its text does.
  const read = raw.slice(0, READ_CHARS);
  if (!DECISION_CUES.test(read) && (row.role !== "user" || !CONSTRAINT_CUES.test(read))) return [];
  const statements: Statement[] = [];
  const blocks = fencedBlocks(read);
  let offset = 0;
  for (const sentence of read.split(SENTENCE_BREAK)) {
    const start = raw.indexOf(sentence, offset);
    offset = start + sentence.length;
    if (blocks.some(([from, to]) => start >= from && start < to)) continue;
    const kind = kindOf(sentence, row.role);
    if (kind === undefined) continue;
    const said = ANNOUNCES.test(sentence)
      ? `${sentence} ${announced(read, start + sentence.length)}`
      : sentence;
    const text = sanitizeInline(said);
    if (text.length < LEAST_SENTENCE_CHARS) continue;
    if (row.role === "user" && shownElsewhere.some((shown) => shown.includes(text))) continue;
    statements.push({ row, kind, text });
  }
  return statements;
}

/** Where the fenced blocks of `text` lie: from each block's opening to its closing line. */
function fencedBlocks(text: string): [number, number][] {
  return [...text.matchAll(FENCED_BLOCK)].map((block) => [
    block.index,
    block.index + block[0].length,
  ]);
}

/** What `text` says from `at` on, up to `ANNOUNCED_CHARS`: what a sentence ending in `:` announces. */
function announced(text: string, at: number): string {
  const next = text.slice(at, at + ANNOUNCED_CHARS * 2).replace(FENCE_LINE, "").trim();
  return next.length > ANNOUNCED_CHARS ? `${next.slice(0, ANNOUNCED_CHARS)}…` : next;
}

/**
 * The kind of a sentence by its cue words, decisions first (constraints are the user's);
 * `undefined` for neither.
 */
export function kindOf(sentence: string, role: "user" | "assistant"): StatementKind | undefined {
  if (DECISION_CUES.test(sentence)) return "decision";
  if (role === "user" && CONSTRAINT_CUES.test(sentence)) return "constraint";
  return undefined;
}
