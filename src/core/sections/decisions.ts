import type { Analysis } from "../analysis.ts";
import { cut, cutMiddle, MIDDLE_GAP } from "../excerpt.ts";
import { momentOf } from "../moment.ts";
import { parsePreviousRef, type Ref, REF_PATTERN, renderRef } from "../ref.ts";
import { isUserRequest, requestOf } from "../requests.ts";
import { readRoot, showRoot } from "../root.ts";
import { sanitizeInline } from "../sanitize.ts";
import { type Change, LEAST_PINNED_WIDTH, type SectionSpec } from "../section.ts";
import { decisionAt, kindOf, type StatementKind, statementsOf } from "../statements.ts";
import { SNAPSHOT } from "./snapshot.ts";

/** A statement as the section lists it: where and by whom it was made, its kind and words. */
export interface DecisionEntry {
  readonly ref: Ref;
  readonly role: "user" | "assistant";
  readonly kind: StatementKind;
  readonly text: string;
  /** For a closing reply: where a later sentence of it states a decision (see `decisionAt`). */
  readonly decisionAt?: number;
}

// A line too narrow for a closing reply gives its decision at least this share.
const DECISION_SHARE = 0.6;

/**
 * `text` in at most `width` characters: cut at its end, unless that cuts away the decision a
 * later sentence states (from `at` on); then its start and that decision, each cut to its share.
 */
function shownStatement(text: string, width: number, at: number): string {
  if (text.length <= width || at < width * DECISION_SHARE) {
    return cut(text, width);
  }
  const decision = text.slice(at);
  const decisionRoom = Math.min(decision.length, Math.round(width * DECISION_SHARE));
  const start = cut(text.slice(0, at).trimEnd(), width - decisionRoom - 1);
  const shownStart = start.endsWith("…") ? start : `${start} …`;
  return `${shownStart} ${cut(decision, width - shownStart.length - 1)}`;
}

const LINE = new RegExp(`^(${REF_PATTERN}) (user|assistant): (.+)$`);
// How many leading characters make a statement's identity: one said again is the same statement.
const KEY_CHARS = 80;

function keyOf(text: string): string {
  return text.replace(/…$/, "").slice(0, KEY_CHARS).toLowerCase();
}

/**
 * Decisions & Conclusions: the constraints and decisions the user and the assistant stated, and
 * the assistant's closing statement of each turn, oldest first (see `statements.ts`): ``[#12]
 * assistant: Decision: keep max_retries at 7.``. A statement made again is listed once, at its
 * first row; the user's words that Goal shows at its narrowest, or the Historical Task Snapshot
 * of the latest request at its narrowest, are not repeated here. When some must go, the user's
 * statements stay first, then the newest closing reply (where the work stood), then the
 * assistant's decisions, then the newer statements.
 */
export const DECISIONS: SectionSpec<DecisionEntry> = {
  heading: "## Decisions & Conclusions",
  noun: "statements",
  pinned: 0,
  widths: { narrow: 160, wide: 400, newest: 1200 },
  ownWords: "user assistant",
  changes(analysis: Analysis): Change<DecisionEntry>[] {
    const rows = analysis.window.rows;
    const latest = rows.findLast((row) => isUserRequest(row));
    return rows.flatMap((row) => {
      if (analysis.copies.has(row)) return [];
      if (row.role === "user" && !isUserRequest(row)) return [];
      if (row.role !== "user" && row.role !== "assistant") return [];
      const role = row.role;
      // What Goal shows of a request however narrow (its start and its end) is not repeated, nor
      // what the Historical Task Snapshot shows of the latest (its start).
      const request = role === "user" ? requestOf(row).text : "";
      const shown = role === "user"
        ? [
          ...cutMiddle(request, LEAST_PINNED_WIDTH).split(MIDDLE_GAP),
          ...(row === latest ? cutMiddle(request, SNAPSHOT.widths.narrow).split(MIDDLE_GAP) : []),
        ]
        : [];
      return statementsOf(row, shown).map(({ kind, text }) => ({
        key: keyOf(text),
        entry: { ref: row.ref, role, kind, text, ...decisionOf(kind, text) },
        addIfNew: true,
        at: momentOf(row),
      }));
    });
  },
  key: (entry) => keyOf(entry.text),
  merge: (earlier) => earlier,
  render(entry, width, view) {
    const at = entry.decisionAt;
    const line = `${renderRef(entry.ref)} ${entry.role}: `;
    if (at === undefined) return `${line}${cut(showRoot(entry.text, view), width)}`;
    // The root is shown short in each part, so the decision's place is found again after it.
    const head = showRoot(entry.text.slice(0, at), view);
    const text = `${head}${showRoot(entry.text.slice(at), view)}`;
    return `${line}${shownStatement(text, width, head.length)}`;
  },
  parse(line, view) {
    const match = LINE.exec(line);
    const ref = match && parsePreviousRef(match[1] as string);
    if (!match || !ref) return undefined;
    const text = readRoot(sanitizeInline(match[3] as string), view);
    const role = match[2] as DecisionEntry["role"];
    const kind = kindOf(text, role) ?? "conclusion";
    return { ref, role, kind, text, ...decisionOf(kind, text) };
  },
  // The latest turn's closing reply says where the work stood when the window ends.
  standing: (entry) => entry.kind === "conclusion",
  // What the user stated binds every later step; then where the work stood at the window's end;
  // then the assistant's decisions; then the rest.
  keepRank: (entry, standing) =>
    entry.role === "user" ? 0 : standing ? 1 : entry.kind === "decision" ? 2 : 3,
};

/** Where a closing reply's decision is, for its entry. */
function decisionOf(kind: StatementKind, text: string): { decisionAt?: number } {
  const at = kind === "conclusion" ? decisionAt(text) : undefined;
  return at === undefined ? {} : { decisionAt: at };
}
