import { isSummaryRow, summaryBody } from "./summary_rows.ts";
import { type CompactionSettings, roughTokens, tailTokenBudget } from "./settings.ts";

/** A message row as Hermes holds it. */
export type MessageRow = Readonly<Record<string, unknown>>;

/** Where Hermes would cut a transcript: the pinned head, the window to summarise, the tail. */
export interface CompactionCut {
  readonly head: readonly MessageRow[];
  /** The rows handed to the summary step (summary rows removed). */
  readonly window: readonly MessageRow[];
  readonly tail: readonly MessageRow[];
  /** The body of the newest earlier summary in the transcript, to merge. */
  readonly previous?: string;
}

/**
 * Cuts `rows` (a live transcript, oldest first, without the system prompt) the way Hermes's
 * compressor does as far as documented: a head of `protectFirstN` rows until the first
 * compaction, a tail that fits the lean token budget but has at least `protectLastN` rows, the
 * last user and assistant rows and `minTailUserMessages` user rows, never starting on a tool
 * result. Earlier summary rows leave the window and become `previous`. Returns undefined when
 * there is nothing to summarise.
 */
export function cutForCompaction(
  rows: readonly MessageRow[],
  settings: CompactionSettings,
): CompactionCut | undefined {
  const summaries = rows.filter(isSummaryRow);
  const headSize = summaries.length > 0 ? 0 : settings.protectFirstN ?? 3;
  if (rows.length <= headSize + 4) return undefined;
  let start = Math.min(headSize, rows.length);
  while (start < rows.length && rows[start]?.role === "tool") start++;
  const end = Math.max(start, tailStart(rows, settings, start));
  const window = rows.slice(start, end).filter((row) => !isSummaryRow(row));
  if (window.length === 0) return undefined;
  const newest = summaries.at(-1)?.content;
  return {
    head: rows.slice(0, start),
    window,
    tail: rows.slice(end),
    ...(typeof newest === "string" ? { previous: summaryBody(newest) } : {}),
  };
}

/**
 * Where the protected tail begins. The user messages it must keep are those after the head
 * (`headEnd`): a request in the protected head is kept there (live Hermes compacts a session whose
 * only request is its first message).
 */
function tailStart(
  rows: readonly MessageRow[],
  settings: CompactionSettings,
  headEnd: number,
): number {
  const budget = tailTokenBudget(settings.contextTokens);
  let index = rows.length;
  let spent = 0;
  while (index > 0) {
    const cost = roughTokens(rows[index - 1]);
    if (spent + cost > budget) break;
    spent += cost;
    index--;
  }
  index = Math.min(index, Math.max(0, rows.length - (settings.protectLastN ?? 20)));
  index = Math.min(index, lastIndexOfRole(rows, "assistant", index));
  const wanted = Math.max(1, settings.minTailUserMessages ?? 1);
  let users = 0;
  for (let i = rows.length - 1; i >= headEnd && users < wanted; i--) {
    if (rows[i]?.role === "user") {
      users++;
      index = Math.min(index, i);
    }
  }
  while (index > 0 && rows[index]?.role === "tool") index--;
  return index;
}

function lastIndexOfRole(rows: readonly MessageRow[], role: string, fallback: number): number {
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]?.role === role) return i;
  return fallback;
}
