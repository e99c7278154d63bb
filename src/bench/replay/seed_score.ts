/**
 * The scores of one seed on one release: each engine's final request against the story's planted
 * facts (counting only facts both engines compacted), the error fingerprints it keeps, what the
 * session cost cache-priced, its prefix breaks, broken tool-call pairs, rows rewritten outside a
 * compaction, summary calls and projection time.
 *
 * Everything but the times follows from the seed and the release; wall time is the machine's.
 *
 * @module
 */
import type { EngineRun } from "./engine_run.ts";
import { distinctFingerprints, keptFingerprints } from "./measure/error_fingerprint.ts";
import { checkFacts, type FactOutcome } from "./measure/fact_check.ts";
import { loggedProjections, stalledCompactions } from "./measure/projection_log.ts";
import { searchableText } from "./measure/request_search.ts";
import { storyDepartures } from "./measure/story_realized.ts";
import { readStoredRows } from "./measure/stored_rows.ts";
import type { Engine } from "./sandbox.ts";
import { PROBE_CATEGORIES, type ProbeCategory } from "./story/fact.ts";
import type { Story } from "./story/story.ts";

/** Facts kept of those scored. */
export interface KeptCount {
  readonly kept: number;
  readonly scored: number;
}

/** One engine's scores on one seed. */
export interface EngineScore {
  readonly engine: Engine;
  readonly dir: string;
  readonly compactions: number;
  /** Compactions Hermes attempted and gave up on (no progress). */
  readonly stalls: number;
  readonly facts: readonly FactOutcome[];
  readonly kept: KeptCount;
  readonly keptByCategory: Readonly<Record<ProbeCategory, KeptCount>>;
  readonly fingerprints: {
    readonly kept: number;
    readonly total: number;
    readonly missing: readonly string[];
  };
  /** Cache-priced cost of the main requests (uncached-token units). */
  readonly cost: number;
  /** Cache-priced cost of the summary requests (the stock engine's). */
  readonly summaryCost: number;
  readonly mainRequests: number;
  readonly prefixBreaks: number;
  readonly pairingViolations: number;
  readonly rewrittenRows: number;
  readonly summaryCalls: number;
  /** Total and count of the projections vcc logged (wall time: not deterministic). */
  readonly projectionMs: number;
  readonly projections: number;
  readonly seconds: number;
  /** Where the run departed from the story, and what went wrong running it. */
  readonly departures: readonly string[];
}

/** Both engines on one seed. */
export interface SeedScore {
  readonly seed: number;
  /** Facts scored: compacted in both final requests. */
  readonly scoredFacts: readonly string[];
  readonly vcc: EngineScore;
  readonly stock: EngineScore;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function engineFacts(story: Story, run: EngineRun): { facts: FactOutcome[]; departures: string[] } {
  const rows = readStoredRows(run.store);
  const departures = [...run.problems, ...storyDepartures(story, rows)];
  if (!run.record.finalRequest) {
    return { facts: [], departures: [...departures, "no main request"] };
  }
  return { facts: checkFacts(story, run.record.finalRequest, rows), departures };
}

async function engineScore(
  story: Story,
  run: EngineRun,
  facts: FactOutcome[],
  departures: string[],
  scored: ReadonlySet<string>,
): Promise<EngineScore> {
  const count = (outcomes: readonly FactOutcome[]): KeptCount => ({
    kept: outcomes.filter((fact) => scored.has(fact.id) && fact.kept).length,
    scored: outcomes.filter((fact) => scored.has(fact.id)).length,
  });
  const prints = distinctFingerprints(story.errorLines);
  const text = run.record.finalRequest ? searchableText(run.record.finalRequest) : "";
  const kept = keptFingerprints(prints, text);
  const log = await Deno.readTextFile(run.log).catch(() => "");
  const projections = loggedProjections(log);
  const main = run.record.main;
  return {
    engine: run.engine,
    dir: run.dir,
    compactions: main.filter((request) => request.compaction).length,
    stalls: stalledCompactions(log),
    facts,
    kept: count(facts),
    keptByCategory: Object.fromEntries(
      PROBE_CATEGORIES.map((
        category,
      ) => [category, count(facts.filter((f) => f.category === category))]),
    ) as Record<ProbeCategory, KeptCount>,
    fingerprints: {
      kept: kept.length,
      total: prints.length,
      missing: prints.filter((print) => !kept.includes(print)),
    },
    cost: Math.round(sum(main.map((request) => request.cost))),
    summaryCost: Math.round(sum(run.record.summaries.map((call) => call.cost))),
    mainRequests: main.length,
    prefixBreaks: main.filter((request) => request.prefixBreak).length,
    pairingViolations: sum(main.map((request) => request.pairing.length)),
    rewrittenRows: sum(main.map((request) => request.rewritten.length)) +
      run.record.finalRewritten.length,
    summaryCalls: run.record.kinds.summary,
    projectionMs: sum(projections.map((projection) => projection.ms)),
    projections: projections.length,
    seconds: Math.round(run.seconds),
    departures,
  };
}

/** Scores the two runs of `story`. */
export async function scoreSeed(
  story: Story,
  vcc: EngineRun,
  stock: EngineRun,
): Promise<SeedScore> {
  const ours = engineFacts(story, vcc), theirs = engineFacts(story, stock);
  const compacted = (facts: readonly FactOutcome[]) =>
    new Set(facts.filter((fact) => fact.compacted).map((fact) => fact.id));
  const inVcc = compacted(ours.facts), inStock = compacted(theirs.facts);
  const scored = new Set([...inVcc].filter((id) => inStock.has(id)));
  return {
    seed: story.seed,
    scoredFacts: story.facts.map((fact) => fact.id).filter((id) => scored.has(id)),
    vcc: await engineScore(story, vcc, ours.facts, ours.departures, scored),
    stock: await engineScore(story, stock, theirs.facts, theirs.departures, scored),
  };
}
