/**
 * The replay bench's acceptance criteria, per release and seed: the run played the story; vcc
 * keeps more planted facts than stock overall and no fewer in any probe category; it keeps every
 * distinct error fingerprint; it makes no summary call; and its main requests cost no more than
 * stock's, cache-priced (stock's summary calls are not added to stock's side).
 *
 * @module
 */
import type { SeedScore } from "./seed_score.ts";
import { PROBE_CATEGORIES } from "./story/fact.ts";

/** One criterion on one release and seed. */
export interface Criterion {
  readonly release: string;
  readonly seed: number;
  readonly name: string;
  readonly passed: boolean;
  /** The numbers it was decided on. */
  readonly detail: string;
}

/** Every criterion of `score` (the seed's two runs on `release`). */
export function doneWhen(release: string, score: SeedScore): Criterion[] {
  const { vcc, stock } = score;
  const check = (name: string, passed: boolean, detail: string): Criterion => ({
    release,
    seed: score.seed,
    name,
    passed,
    detail,
  });
  const departures = vcc.departures.length + stock.departures.length;
  return [
    check(
      "both runs played the story as written",
      departures === 0,
      `${vcc.departures.length} departures under vcc, ${stock.departures.length} under stock`,
    ),
    check(
      "vcc keeps more planted facts than stock",
      vcc.kept.kept > stock.kept.kept,
      `${vcc.kept.kept} vs ${stock.kept.kept} of ${vcc.kept.scored}`,
    ),
    ...PROBE_CATEGORIES.map((category) =>
      check(
        `vcc keeps no fewer ${category} facts than stock`,
        vcc.keptByCategory[category].kept >= stock.keptByCategory[category].kept,
        `${vcc.keptByCategory[category].kept} vs ${stock.keptByCategory[category].kept} of ${
          vcc.keptByCategory[category].scored
        }`,
      )
    ),
    check(
      "vcc keeps every distinct error fingerprint",
      vcc.fingerprints.kept === vcc.fingerprints.total,
      `${vcc.fingerprints.kept} of ${vcc.fingerprints.total}`,
    ),
    check("vcc makes no summary call", vcc.summaryCalls === 0, `${vcc.summaryCalls} summary calls`),
    check(
      "vcc costs no more than stock, cache-priced",
      vcc.cost <= stock.cost,
      `${vcc.cost} vs ${stock.cost}`,
    ),
  ];
}
