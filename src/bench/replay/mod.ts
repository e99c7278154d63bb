/**
 * `vcc bench replay`: a seeded coding-agent session replayed through a real Hermes agent loop
 * (`hermes chat`, turn by turn) against a scripted model, once with vcc and once with the stock
 * compressor, and the final requests scored on what they kept and what the session cost.
 *
 * @module
 */
export { type Criterion, doneWhen } from "./done_when.ts";
export { defaultReleases } from "./default_releases.ts";
export { askRelease, type HermesRelease, releaseAt, type ReleaseFacts } from "./hermes_release.ts";
export {
  type ReleaseResult,
  type ReplayBenchOptions,
  type ReplayReport,
  runReplayBench,
} from "./replay_bench.ts";
export type { EngineScore, KeptCount, SeedScore } from "./seed_score.ts";
export { PROBE_CATEGORIES, type ProbeCategory } from "./story/fact.ts";
export { ledgerStory } from "./ledger/story.ts";
