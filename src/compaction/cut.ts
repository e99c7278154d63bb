import { contentText } from "../core/mod.ts";
import { HERMES_0_22, type HermesRules } from "./hermes_rules.ts";
import { pruneTranscript } from "./prune.ts";
import {
  type CompactionSettings,
  DEFAULT_PROTECT_FIRST_N,
  DEFAULT_PROTECT_LAST_N,
} from "./settings.ts";
import { handoffRemainder, isSummaryRow, summaryBody } from "./summary_rows.ts";
import { alignBackward, alignForward, lastUserTurn, priceRows, tailStart } from "./tail_cut.ts";

/** A message row as Hermes holds it. */
export type MessageRow = Readonly<Record<string, unknown>>;

/** Where Hermes would cut a transcript: the pinned head, the window to summarise, the tail. */
export interface CompactionCut {
  readonly head: readonly MessageRow[];
  /**
   * The rows handed to the summary step: pruned as Hermes prunes them, summary rows left out
   * (on 0.22, what they carry besides the summary stays, with their `_row_id`).
   */
  readonly window: readonly MessageRow[];
  readonly tail: readonly MessageRow[];
  /** The earlier summaries Hermes passes along with the window, to merge. */
  readonly previous?: string;
}

// The store does not hold the system prompt; Hermes's transcript starts with it.
const SYSTEM_PROMPT: MessageRow = { role: "system", content: "" };

/**
 * Cuts `rows` (a live transcript, oldest first, without the system prompt) where Hermes's
 * `compress` would (`settings.rules`, 0.22 by default): the whole transcript is pruned first;
 * the head keeps `protectFirstN` rows until the session's first compaction; the tail is found by
 * {@linkcode tailStart}; on 0.22 a row before the user's newest turn stays as its bridge. Summary
 * rows leave the window and become `previous`: on 0.19 only the newest before the tail, and the
 * window starts after it; on 0.22 every one in the transcript. Returns undefined when Hermes
 * would find nothing to summarise.
 */
export function cutForCompaction(
  rows: readonly MessageRow[],
  settings: CompactionSettings,
): CompactionCut | undefined {
  const rules = settings.rules ?? HERMES_0_22;
  const protectLastN = settings.protectLastN ?? DEFAULT_PROTECT_LAST_N;
  const compacted = settings.compactedBefore ?? rows.some(isSummaryRow);
  const headSize = 1 + (compacted ? 0 : settings.protectFirstN ?? DEFAULT_PROTECT_FIRST_N);
  const transcript = [SYSTEM_PROMPT, ...rows];
  if (transcript.length <= headSize + 4) return undefined;
  const budget = rules.tailBudget(settings.contextTokens);
  const pruned = pruneTranscript(priceRows(transcript, rules), budget, protectLastN);
  const start = alignForward(pruned, headSize);
  let end = tailStart(
    priceRows(pruned, rules),
    start,
    budget,
    settings.contextTokens,
    protectLastN,
  );
  if (rules.activeTurnExceptions) end = keepBridge(pruned, start, end, rules);
  if (start >= end) return undefined;
  const handoffs = rules.unwrapsHandoffs
    ? unwrapHandoffs(pruned, start, end)
    : newestHandoff(pruned, start, end);
  if (handoffs.window.length === 0) return undefined;
  return {
    head: rows.slice(0, start - 1),
    window: handoffs.window,
    tail: rows.slice(handoffs.tailFrom - 1),
    ...(handoffs.previous === undefined ? {} : { previous: handoffs.previous }),
  };
}

interface HandoffScan {
  readonly window: MessageRow[];
  readonly previous?: string;
  /** Index (in the transcript with its system prompt) where the tail starts. */
  readonly tailFrom: number;
}

/**
 * 0.22 (`_compress_window`): when the tail would start exactly on the user's newest turn, the
 * row before it (its call group, if that is a tool result) stays in the tail too, so the summary
 * is never merged into the user's turn.
 */
function keepBridge(
  rows: readonly MessageRow[],
  start: number,
  end: number,
  rules: HermesRules,
): number {
  const latest = lastUserTurn(rows, 0, rules);
  if (end !== latest) return end;
  const role = rows[latest - 1]?.role;
  const bridge = role === "tool"
    ? alignBackward(rows, latest)
    : role === "assistant"
    ? latest - 1
    : -1;
  return bridge > start ? bridge : end;
}

/**
 * 0.22 (`_scan_window_handoffs`): every summary in the transcript joins `previous`; summary rows
 * up to the newest one leave the window, what they carry besides the summary staying in it; a
 * newest summary inside the tail pulls the window up to it.
 */
function unwrapHandoffs(rows: readonly MessageRow[], start: number, end: number): HandoffScan {
  const hits = rows.flatMap((row, index) => (index > 0 && isSummaryRow(row) ? [index] : []));
  const newest = hits.at(-1);
  if (newest === undefined) return { window: rows.slice(start, end), tailFrom: end };
  const bodies = hits.map((index) => summaryBody(contentText(rows[index]!.content))).filter(
    Boolean,
  );
  const unwrap = (
    index: number,
  ) => (hits.includes(index) ? handoffRemainder(rows[index]!) : rows[index]);
  const window: MessageRow[] = [];
  for (let i = start; i < newest; i++) window.push(...optional(unwrap(i)));
  window.push(...optional(unwrap(newest)), ...rows.slice(newest + 1, end));
  return {
    window,
    ...(bodies.length > 0 ? { previous: bodies.join("\n\n") } : {}),
    tailFrom: newest >= end ? newest + 1 : end,
  };
}

/**
 * 0.19 (`_find_latest_context_summary`): the newest summary before the tail is the previous one
 * and the window starts after it; with none there, no previous summary is passed at all.
 */
function newestHandoff(rows: readonly MessageRow[], start: number, end: number): HandoffScan {
  for (let i = end - 1; i >= 1; i--) {
    if (!isSummaryRow(rows[i]!)) continue;
    const body = summaryBody(contentText(rows[i]!.content));
    return {
      window: rows.slice(Math.max(start, i + 1), end),
      ...(body ? { previous: body } : {}),
      tailFrom: end,
    };
  }
  return { window: rows.slice(start, end), tailFrom: end };
}

function optional<T>(value: T | undefined): T[] {
  return value === undefined ? [] : [value];
}
