/**
 * The replay bench: for each Hermes release and seed, the seed's story run once with vcc and once
 * with the stock compressor (its summary model replaced by the deterministic stand-in), each run
 * scored, and the acceptance criteria checked. Runs go `jobs` at a time.
 *
 * @module
 */
import { join } from "node:path";
import { pooled } from "../pooled.ts";
import { type Criterion, doneWhen } from "./done_when.ts";
import { type EngineRun, runEngine } from "./engine_run.ts";
import type { HermesRelease } from "./hermes_release.ts";
import { ledgerStory } from "./ledger/story.ts";
import type { Engine } from "./sandbox.ts";
import { scoreSeed, type SeedScore } from "./seed_score.ts";

/** What to run. */
export interface ReplayBenchOptions {
  readonly releases: readonly HermesRelease[];
  readonly seeds: readonly number[];
  /** Where each run's sandbox, store and logs are kept: `<dir>/<release>/seed-<n>/<engine>`. */
  readonly runsDir: string;
  /** The argv (without `serve`) the vcc plugin runs. */
  readonly vccCommand: readonly string[];
  /** How many runs go at the same time. */
  readonly jobs: number;
  readonly progress?: (line: string) => void;
}

/** One release's seeds. */
export interface ReleaseResult {
  readonly release: string;
  readonly seeds: readonly SeedScore[];
}

/** Everything the bench measured. */
export interface ReplayReport {
  readonly releases: readonly ReleaseResult[];
  readonly criteria: readonly Criterion[];
  readonly passed: boolean;
  readonly seconds: number;
}

const ENGINES: readonly Engine[] = ["vcc", "stock"];

/** Runs the bench. */
export async function runReplayBench(options: ReplayBenchOptions): Promise<ReplayReport> {
  const started = performance.now();
  const plan = options.releases.flatMap((release) =>
    options.seeds.flatMap((seed) => ENGINES.map((engine) => ({ release, seed, engine })))
  );
  const runs = await pooled(
    plan.map(({ release, seed, engine }) => async (): Promise<EngineRun> => {
      const run = await runEngine({
        story: ledgerStory(seed),
        release,
        engine,
        dir: join(options.runsDir, release.label, `seed-${seed}`, engine),
        vccCommand: options.vccCommand,
      });
      options.progress?.(
        `replay: ${release.label} seed ${seed} ${engine}: ${run.seconds.toFixed(0)} s`,
      );
      return run;
    }),
    options.jobs,
  );
  const releases: ReleaseResult[] = [];
  const criteria: Criterion[] = [];
  for (const release of options.releases) {
    const seeds: SeedScore[] = [];
    for (const seed of options.seeds) {
      const runOf = (engine: Engine) =>
        runs[
          plan.findIndex((p) => p.release === release && p.seed === seed && p.engine === engine)
        ]!;
      const score = await scoreSeed(ledgerStory(seed), runOf("vcc"), runOf("stock"));
      seeds.push(score);
      criteria.push(...doneWhen(release.label, score));
    }
    releases.push({ release: release.label, seeds });
  }
  return {
    releases,
    criteria,
    passed: criteria.every((criterion) => criterion.passed),
    seconds: Math.round((performance.now() - started) / 1000),
  };
}
