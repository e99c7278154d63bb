import { project } from "../core/mod.ts";
import { generateWindow } from "../sample/mod.ts";
import { noProgress, type Progress } from "./progress.ts";
import type { ServeClient } from "../bridge/client.ts";

/** Window sizes `vcc bench speed` measures by default, in tokens (the largest is about 10 MB). */
export const SPEED_SIZES: readonly number[] = [
  1_000,
  4_000,
  16_000,
  64_000,
  256_000,
  1_000_000,
  2_500_000,
];

/** The spread of a set of timings in milliseconds. */
export interface Distribution {
  readonly n: number;
  readonly min: number;
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
}

/** Timings for one window size. */
export interface SpeedRow {
  readonly tokens: number;
  /** Mean size of the windows in JSON characters. */
  readonly chars: number;
  readonly inProcess: Distribution;
  /** Round trips through `vcc serve`, request written to response read. */
  readonly serve?: Distribution;
}

/** How much `vcc bench speed` measures. */
export interface SpeedOptions {
  readonly sizes?: readonly number[];
  /** Different generated windows per size (default 5). */
  readonly windows?: number;
  /** Projections of each window (default 3). */
  readonly repeats?: number;
  readonly budgetTokens?: number;
  /** A running server to measure round trips through, if any. */
  readonly serve?: ServeClient;
  readonly progress?: Progress;
}

/**
 * Projects generated windows of each size in process (and through `vcc serve` when a client is
 * given) and returns the distribution of times by size. One small projection warms up first.
 */
export async function measureSpeed(options: SpeedOptions = {}): Promise<SpeedRow[]> {
  const sizes = options.sizes ?? SPEED_SIZES;
  const windows = options.windows ?? 5;
  const repeats = options.repeats ?? 3;
  const budgetTokens = options.budgetTokens ?? 8000;
  const progress = options.progress ?? noProgress;
  project(generateWindow({ seed: 0, targetTokens: 2000 }), { budgetTokens });
  const rows: SpeedRow[] = [];
  let done = 0;
  for (const tokens of sizes) {
    const local: number[] = [];
    const remote: number[] = [];
    let chars = 0;
    for (let index = 0; index < windows; index++) {
      const window = generateWindow({ seed: 7_000 + index, targetTokens: tokens });
      chars += JSON.stringify(window).length;
      const projectOptions = { sessionId: "speed", budgetTokens };
      for (let repeat = 0; repeat < repeats; repeat++) {
        const started = performance.now();
        project(window, projectOptions);
        local.push(performance.now() - started);
        if (options.serve) {
          const sent = performance.now();
          await options.serve.project(window, projectOptions);
          remote.push(performance.now() - sent);
        }
      }
      progress(++done, sizes.length * windows);
    }
    rows.push({
      tokens,
      chars: Math.round(chars / windows),
      inProcess: distribution(local),
      ...(options.serve ? { serve: distribution(remote) } : {}),
    });
  }
  return rows;
}

/** Min, median, 90th percentile and max of `values` (nearest rank), rounded to 0.01 ms. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const round = (value: number | undefined) => Math.round((value ?? 0) * 100) / 100;
  return {
    n: sorted.length,
    min: round(sorted[0]),
    p50: round(rank(0.5)),
    p90: round(rank(0.9)),
    max: round(sorted.at(-1)),
  };
}
