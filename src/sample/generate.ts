import { SeededRandom } from "./random.ts";
import { SessionStory } from "./_session_story.ts";
import { WindowBuilder, type WindowRow } from "./window_builder.ts";

/** What {@linkcode generateWindow} makes. */
export interface GenerateWindowOptions {
  /** Same seed, same window, byte for byte. */
  readonly seed: number;
  /** Size of the window in tokens, counted as `JSON.stringify(window).length / 4`. */
  readonly targetTokens: number;
  /** `_row_id` of the first row; rows are numbered consecutively from it. Default 1. */
  readonly rowIdStart?: number;
  /** Epoch seconds of the first row's `timestamp`. Default: derived from the seed. */
  readonly startTime?: number;
}

/** Tokens are counted as characters / 4, like Hermes's rough estimate. */
export const CHARS_PER_TOKEN = 4;

/**
 * Generates a realistic Hermes window: the message rows a compaction would hand to the summary
 * step, as OpenAI-style dicts with `tool_calls`, tool rows, pruning stubs, multimodal content,
 * odd rows and hostile text in tool output, each with a consecutive `_row_id`. Deterministic for
 * a given seed, within about ±10% of `targetTokens`, and fast enough for multi-megabyte windows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateWindow } from "./generate.ts";
 * const rows = generateWindow({ seed: 1, targetTokens: 2000, rowIdStart: 1000 });
 * assert.equal(rows[0]?._row_id, 1000);
 * assert.deepEqual(generateWindow({ seed: 1, targetTokens: 2000, rowIdStart: 1000 }), rows);
 * ```
 */
export function generateWindow(options: GenerateWindowOptions): WindowRow[] {
  const random = new SeededRandom(options.seed);
  const targetChars = Math.max(1, Math.round(options.targetTokens * CHARS_PER_TOKEN));
  const startTime = options.startTime ??
    1_790_000_000 + (Math.abs(Math.trunc(options.seed)) % 1e6) * 60;
  const out = new WindowBuilder(random, targetChars, options.rowIdStart ?? 1, startTime);
  const story = new SessionStory(out);
  story.begin();
  const closing = Math.min(600, targetChars * 0.1);
  const maxOutput = Math.max(200, Math.min(24_000, targetChars * 0.05));
  while (out.remaining > closing) {
    const before = out.mark();
    story.step(Math.min(maxOutput, out.remaining));
    if (out.chars > targetChars * 1.04) {
      out.restore(before);
      break;
    }
  }
  if (out.remaining > 100) story.finish(out.remaining - 100);
  return out.rows;
}
