import { SeededRandom } from "../../sample/mod.ts";

/** Per-window scores of two contexts on the same questions. */
export interface PairedScores {
  /** Correct answers per window under context A and B, and answers per window. */
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly answers: readonly number[];
}

/** A window-level paired comparison of two contexts. */
export interface PairedComparison {
  readonly windows: number;
  readonly answers: number;
  readonly correctA: number;
  readonly correctB: number;
  /** Correct answers of A minus B. */
  readonly delta: number;
  /** The same in percentage points of all answers. */
  readonly deltaPoints: number;
  /** Two-sided sign-flip permutation test over windows (exact up to 16 windows). */
  readonly pValue: number;
  /** 95% bootstrap confidence interval of `deltaPoints`, resampling windows. */
  readonly ciLow: number;
  readonly ciHigh: number;
}

const MONTE_CARLO_ROUNDS = 20_000;
const BOOTSTRAP_ROUNDS = 10_000;

/**
 * Compares two contexts window by window: answers within a window are not independent, so the
 * window is the unit of both the permutation test and the bootstrap. Deterministic (seeded).
 */
export function comparePaired(scores: PairedScores, seed = 1): PairedComparison {
  const n = scores.answers.length;
  const diffs = scores.a.map((value, index) => value - (scores.b[index] ?? 0));
  const answers = sum(scores.answers);
  const correctA = sum(scores.a);
  const correctB = sum(scores.b);
  const delta = correctA - correctB;
  const points = (d: number, total: number) => (total === 0 ? 0 : (100 * d) / total);
  const random = new SeededRandom(seed);
  const observed = Math.abs(delta);
  let extreme = 0;
  let rounds = 0;
  if (n <= 16) {
    for (let mask = 0; mask < 2 ** n; mask++) {
      const total = diffs.reduce((acc, d, index) => acc + ((mask >> index) & 1 ? -d : d), 0);
      if (Math.abs(total) >= observed - 1e-9) extreme++;
      rounds++;
    }
  } else {
    for (; rounds < MONTE_CARLO_ROUNDS; rounds++) {
      const total = diffs.reduce((acc, d) => acc + (random.chance(0.5) ? -d : d), 0);
      if (Math.abs(total) >= observed - 1e-9) extreme++;
    }
    extreme++;
    rounds++;
  }
  const samples: number[] = [];
  for (let round = 0; round < BOOTSTRAP_ROUNDS && n > 0; round++) {
    let d = 0;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const pick = random.int(n);
      d += diffs[pick]!;
      total += scores.answers[pick]!;
    }
    samples.push(points(d, total));
  }
  samples.sort((x, y) => x - y);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  const round1 = (value: number) => Math.round(value * 10) / 10;
  return {
    windows: n,
    answers,
    correctA,
    correctB,
    delta,
    deltaPoints: round1(points(delta, answers)),
    pValue: n === 0 ? 1 : Math.round((extreme / rounds) * 1000) / 1000,
    ciLow: round1(at(0.025)),
    ciHigh: round1(at(0.975)),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
