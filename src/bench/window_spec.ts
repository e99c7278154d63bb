import { project } from "../core/mod.ts";
import { generateWindow } from "../sample/mod.ts";
import type { ProofWindow } from "./proofs/mod.ts";

/** A generated window, described by the parameters that recreate it byte for byte. */
export interface WindowSpec {
  readonly id: string;
  readonly seed: number;
  readonly targetTokens: number;
  readonly budgetTokens: number;
  /** `_row_id` of the first row (default 1). */
  readonly rowIdStart?: number;
  readonly focus?: string;
  /** How many rows at the end have no `_row_id` (not yet saved by Hermes). */
  readonly unsavedRows?: number;
  /** Id of an earlier spec whose projection is merged as the previous summary. */
  readonly previousOf?: string;
}

/** A built window: what to project, and every row its lines may cite. */
export interface BuiltWindow extends ProofWindow {
  readonly spec: WindowSpec;
}

/**
 * Builds the windows of `specs` in order. A spec with `previousOf` gets that window's projection
 * as its previous summary, and may cite that window's rows too.
 */
export function buildWindows(specs: readonly WindowSpec[]): BuiltWindow[] {
  const built = new Map<string, BuiltWindow>();
  for (const spec of specs) {
    const rows = generateWindow({
      seed: spec.seed,
      targetTokens: spec.targetTokens,
      ...(spec.rowIdStart === undefined ? {} : { rowIdStart: spec.rowIdStart }),
    });
    const unsaved = Math.min(rows.length, spec.unsavedRows ?? 0);
    for (const row of rows.slice(rows.length - unsaved)) delete row._row_id;
    const earlier = spec.previousOf === undefined ? undefined : built.get(spec.previousOf);
    const options = {
      sessionId: `bench-${spec.id}`,
      budgetTokens: spec.budgetTokens,
      ...(spec.focus === undefined ? {} : { focus: spec.focus }),
      ...(earlier ? { previous: project(earlier.rows, earlier.options).body } : {}),
    };
    const citable = earlier ? [...(earlier.citable ?? earlier.rows), ...rows] : undefined;
    built.set(spec.id, { id: spec.id, spec, rows, options, ...(citable ? { citable } : {}) });
  }
  return [...built.values()];
}

/**
 * The generated windows the golden manifest freezes: small to Hermes-sized (56–75K tokens) and
 * beyond, tight and generous budgets, a focus topic, unsaved rows, positional references only,
 * and a re-compaction that merges an earlier projection.
 */
export const GOLDEN_SPECS: readonly WindowSpec[] = [
  { id: "g01-small", seed: 101, targetTokens: 2_000, budgetTokens: 1_500 },
  { id: "g02-medium", seed: 102, targetTokens: 8_000, budgetTokens: 2_000, rowIdStart: 1_000 },
  { id: "g03-large", seed: 103, targetTokens: 20_000, budgetTokens: 4_000, rowIdStart: 5_000 },
  { id: "g04-hermes", seed: 104, targetTokens: 60_000, budgetTokens: 8_000, rowIdStart: 20_000 },
  {
    id: "g05-recompaction",
    seed: 105,
    targetTokens: 40_000,
    budgetTokens: 8_000,
    rowIdStart: 24_000,
    previousOf: "g04-hermes",
  },
  {
    id: "g06-focus",
    seed: 106,
    targetTokens: 30_000,
    budgetTokens: 3_000,
    rowIdStart: 40_000,
    focus: "parser",
  },
  {
    id: "g07-unsaved-tail",
    seed: 107,
    targetTokens: 12_000,
    budgetTokens: 2_000,
    rowIdStart: 60_000,
    unsavedRows: 8,
  },
  { id: "g08-positional", seed: 108, targetTokens: 5_000, budgetTokens: 1_500, unsavedRows: 1e6 },
  { id: "g09-tiny-budget", seed: 109, targetTokens: 6_000, budgetTokens: 300 },
  {
    id: "g10-oversized",
    seed: 110,
    targetTokens: 250_000,
    budgetTokens: 8_000,
    rowIdStart: 100_000,
  },
];

/** The windows `vcc bench proofs --synthetic` checks: the golden set plus 24 more seeds. */
export function proofSpecs(): WindowSpec[] {
  const sizes = [3_000, 12_000, 40_000, 70_000];
  const budgets = [1_500, 4_000, 8_000];
  const extra = Array.from({ length: 24 }, (_, index): WindowSpec => ({
    id: `p${String(index + 1).padStart(2, "0")}`,
    seed: 1_000 + index,
    targetTokens: sizes[index % sizes.length]!,
    budgetTokens: budgets[index % budgets.length]!,
    rowIdStart: 1 + index * 10_000,
  }));
  return [...GOLDEN_SPECS, ...extra];
}
