import type { MessageRow } from "./cut.ts";
import { type HermesRules, TAIL_MESSAGE_FLOOR_CAP } from "./hermes_rules.ts";
import { messageTokens } from "./message_tokens.ts";
import { isTextOnly, isUserTurn, lastAssistantReply } from "./turns.ts";

/** A transcript as Hermes's tail walk sees it: its rows and what each costs. */
export interface PricedRows {
  readonly rows: readonly MessageRow[];
  readonly rules: HermesRules;
  readonly tokens: readonly number[];
}

/** Prices every row of `rows` once. */
export function priceRows(rows: readonly MessageRow[], rules: HermesRules): PricedRows {
  const newest = rows.findLastIndex((row) => row.role === "assistant");
  const tokens = rows.map((row, index) =>
    messageTokens(row, rules, rules.chargesAllReasoning || index === newest)
  );
  return { rows, rules, tokens };
}

/**
 * Hermes's `_walk_tail_budget`: rows are taken newest first until the next one would pass
 * `ceiling` (once `floor` rows are taken). Returns the first taken index, or the index of the row
 * that broke the budget when `cutAtBreak`, and the tokens taken.
 */
export function walkTail(
  priced: PricedRows,
  from: number,
  ceiling: number,
  floor: number,
  cutAtBreak: boolean,
): [cut: number, taken: number] {
  const n = priced.rows.length;
  let taken = 0;
  let cut = n;
  for (let i = n - 1; i >= from; i--) {
    const cost = priced.tokens[i]!;
    if (taken + cost > ceiling && n - i >= floor) return [cutAtBreak ? i : cut, taken];
    taken += cost;
    cut = i;
  }
  return [cut, taken];
}

/**
 * Where Hermes's protected tail starts (`_find_tail_cut_by_tokens`), for a transcript whose
 * compressible part starts at `headEnd`: a walk within the soft ceiling that keeps at least the
 * message floor, never splitting a tool call from its results, and reaching back to keep the
 * user's last turn and the last visible assistant reply. On 0.22 an active turn larger than the
 * ceiling may be cut inside, and the user anchor may then ride the summary instead.
 */
export function tailStart(
  priced: PricedRows,
  headEnd: number,
  budget: number,
  contextTokens: number,
  protectLastN: number,
): number {
  const { rows, rules } = priced;
  const n = rows.length;
  const available = Math.max(0, n - headEnd - 1);
  const floor = available > 1
    ? Math.min(
      Math.max(3, Math.min(protectLastN, TAIL_MESSAGE_FLOOR_CAP)),
      Math.max(3, available - 2),
      available,
    )
    : 0;
  const ceiling = rules.softCeiling(budget, contextTokens);
  // An empty message costs 10 tokens: the 0.22 walk keeps its floor only when the ceiling
  // cannot hold that many empty rows.
  const walkFloor = rules.floorlessWalk && ceiling >= floor * 10 ? 0 : floor;
  let [cut, taken] = walkTail(priced, headEnd, ceiling, walkFloor, false);
  if (cut <= headEnd && taken > 0 && taken <= ceiling) {
    [cut] = walkTail(priced, headEnd, budget, floor, true);
  }
  const fallback = n - floor;
  cut = Math.min(cut, rules.floorlessWalk ? n - Math.max(walkFloor, 1) : fallback);
  if (cut <= headEnd) cut = Math.max(fallback, headEnd + 1);
  cut = alignBackward(rows, cut);
  const lastUser = lastUserTurn(rows, headEnd, rules);
  const userAnchored = keepUserTurn(rows, cut, headEnd, lastUser);
  let split = false;
  if (
    rules.activeTurnExceptions && userAnchored < cut &&
    isTextOnly(rows[lastUser]?.content) &&
    priced.tokens[lastUser]! <= ceiling &&
    hasToolCalls(rows, lastUser, cut) &&
    walkTail(priced, userAnchored, ceiling, 0, false)[0] > userAnchored
  ) {
    split = true;
  } else cut = userAnchored;
  if (!split) {
    const reply = lastAssistantReply(rows, headEnd, rules);
    let anchored = cut;
    if (reply >= 0 && reply < cut) anchored = Math.max(alignBackward(rows, reply), headEnd + 1);
    const overCeiling = rules.activeTurnExceptions && anchored < cut &&
      hasToolCalls(rows, anchored, cut) && sum(priced.tokens, anchored, cut) > ceiling;
    if (!overCeiling) cut = anchored;
  }
  return Math.min(n, alignForward(rows, Math.max(cut, headEnd + 1)));
}

/** The index of the user's last turn at or after `from`, or -1. */
export function lastUserTurn(
  rows: readonly MessageRow[],
  from: number,
  rules: HermesRules,
): number {
  for (let i = rows.length - 1; i >= from; i--) if (isUserTurn(rows[i]!, rules)) return i;
  return -1;
}

/** Moves a boundary past tool results, so a window never starts on one. */
export function alignForward(rows: readonly MessageRow[], index: number): number {
  while (index < rows.length && rows[index]?.role === "tool") index++;
  return index;
}

/** Moves a tail boundary that would split a tool call from its results back before the call. */
export function alignBackward(rows: readonly MessageRow[], index: number): number {
  if (index <= 0 || index >= rows.length) return index;
  let check = index - 1;
  while (check >= 0 && rows[check]?.role === "tool") check--;
  const row = rows[check];
  return check >= 0 && row?.role === "assistant" && isNonEmptyArray(row.tool_calls) ? check : index;
}

/** Hermes's `_ensure_last_user_message_in_tail`. */
function keepUserTurn(
  rows: readonly MessageRow[],
  cut: number,
  headEnd: number,
  lastUser: number,
): number {
  if (lastUser < 0 || lastUser >= cut) return cut;
  if (lastUser > headEnd) return lastUser;
  // The user turn opens the compressible part: summarise the whole exchange instead of
  // leaving the request without its answer.
  return Math.max(turnEnd(rows, lastUser), headEnd + 1);
}

function turnEnd(rows: readonly MessageRow[], user: number): number {
  let index = user + 1;
  if (index >= rows.length || rows[index]?.role !== "assistant") return index;
  index++;
  while (index < rows.length && rows[index]?.role === "tool") index++;
  return index;
}

function hasToolCalls(rows: readonly MessageRow[], from: number, to: number): boolean {
  for (let i = Math.max(0, from); i < to; i++) {
    if (isNonEmptyArray(rows[i]?.tool_calls)) return true;
  }
  return false;
}

function sum(values: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i++) total += values[i]!;
  return total;
}

function isNonEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
