import { cutForCompaction, type MessageRow } from "./cut.ts";
import { HERMES_0_22 } from "./hermes_rules.ts";
import { type CompactionSettings, roughTokens } from "./settings.ts";

/** One compaction found by {@linkcode replayCompactions}. */
export interface ReplayedCompaction {
  /** 1-based number of this compaction in the session. */
  readonly ordinal: number;
  /** The rows the summary step would have received. */
  readonly window: readonly MessageRow[];
  /** Rows kept verbatim after the summary. */
  readonly tail: readonly MessageRow[];
  /** Rough prompt size in tokens when the compaction fired. */
  readonly promptTokens: number;
}

/** Tokens a summary is assumed to occupy in the replayed prompt after each compaction. */
const SUMMARY_TOKENS = 2000;

/**
 * Replays a recorded session through Hermes's threshold: rows are appended to the prompt one by
 * one, and whenever the rough prompt size reaches the compaction threshold the prompt is cut
 * (see {@linkcode cutForCompaction}); the head and tail stay, the window is replaced by a summary
 * of {@linkcode SUMMARY_TOKENS}. Returns every window that would have been summarised.
 */
export function replayCompactions(
  rows: readonly MessageRow[],
  settings: CompactionSettings,
): ReplayedCompaction[] {
  const threshold = (settings.rules ?? HERMES_0_22).threshold(settings.contextTokens);
  const found: ReplayedCompaction[] = [];
  let prompt: MessageRow[] = [];
  let tokens = 0;
  for (const row of rows) {
    prompt.push(row);
    tokens += roughTokens(row);
    if (tokens < threshold) continue;
    const cut = cutForCompaction(prompt, { ...settings, compactedBefore: found.length > 0 });
    if (!cut) continue;
    found.push({
      ordinal: found.length + 1,
      window: cut.window,
      tail: cut.tail,
      promptTokens: tokens,
    });
    prompt = [...cut.head, ...cut.tail];
    tokens = SUMMARY_TOKENS + prompt.reduce((sum, kept) => sum + roughTokens(kept), 0);
  }
  return found;
}
