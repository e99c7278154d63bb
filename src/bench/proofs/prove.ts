import { project, type ProjectOptions } from "../../core/mod.ts";
import {
  checkLines,
  lineCheckable,
  lineHolds,
  type RowLookup,
  windowLookup,
} from "./check_lines.ts";
import { LINE_KINDS, type LineKind } from "./line_kinds.ts";
import { plantAndCheck, type PlantedWord } from "./negative_control.ts";

/** A window to prove: its id, its rows and the options it is projected with. */
export interface ProofWindow {
  readonly id: string;
  readonly rows: readonly unknown[];
  readonly options: ProjectOptions;
  /** Every row a line may cite, when a merged previous projection cites rows outside `rows`. */
  readonly citable?: readonly unknown[];
}

/** A line that failed, by position only (no transcript text). */
export interface FailedLine {
  readonly window: string;
  readonly index: number;
  readonly kind: LineKind;
  readonly refs: readonly string[];
  readonly unresolved: number;
  readonly foreignWords: number;
}

/** The result of checking one projection body against its sources. */
export interface BodyProof {
  /** Citing lines that could be checked. */
  readonly lines: number;
  /** Citing lines that cite no stored row (`[tN]`, `[unsaved]`), so could not be checked. */
  readonly uncheckableLines: number;
  /** References on checkable lines, and how many of them name no source row. */
  readonly refs: number;
  readonly unresolvedRefs: number;
  readonly byKind: Partial<Record<LineKind, number>>;
  readonly failed: readonly FailedLine[];
  readonly planted: readonly PlantedWord[];
  /** Words flagged on failed lines (for the private report file only). */
  readonly foreign: readonly string[];
}

/** Projects `window` and checks the body: every citing line, then the negative control. */
export function proveWindow(window: ProofWindow): BodyProof {
  const { body } = project(window.rows, window.options);
  return proveBody(window.id, body, windowLookup(window.citable ?? window.rows));
}

/** Checks an existing projection body (e.g. a stored summary) against `lookup`. */
export function proveBody(id: string, body: string, lookup: RowLookup): BodyProof {
  const all = checkLines(body, lookup);
  const verdicts = all.filter(lineCheckable);
  const byKind: Partial<Record<LineKind, number>> = {};
  for (const verdict of verdicts) byKind[verdict.kind] = (byKind[verdict.kind] ?? 0) + 1;
  const failed = verdicts.filter((verdict) => !lineHolds(verdict));
  return {
    lines: verdicts.length,
    uncheckableLines: all.length - verdicts.length,
    refs: verdicts.reduce((sum, verdict) => sum + verdict.refs.length, 0),
    unresolvedRefs: verdicts.reduce((sum, verdict) => sum + verdict.unresolved.length, 0),
    byKind,
    failed: failed.map((verdict) => ({
      window: id,
      index: verdict.index,
      kind: verdict.kind,
      refs: verdict.refs,
      unresolved: verdict.unresolved.length,
      foreignWords: verdict.foreignWords.length,
    })),
    planted: plantAndCheck(body, lookup),
    foreign: failed.flatMap((verdict) => verdict.foreignWords),
  };
}

/** Totals over many proofs, as the console and `--json` show them. */
export interface ProofTotals {
  readonly windows: number;
  readonly lines: number;
  readonly linesHeld: number;
  /** Citing lines that cite no stored row, so could not be checked (not failures). */
  readonly linesUncheckable: number;
  readonly refs: number;
  readonly refsResolved: number;
  readonly linesByKind: Partial<Record<LineKind, { lines: number; held: number }>>;
  readonly planted: number;
  readonly caught: number;
  readonly plantedByKind: Partial<Record<LineKind, { planted: number; caught: number }>>;
  /** Kinds of citing line that never occurred, so the control could not plant in them. */
  readonly kindsNeverSeen: readonly LineKind[];
  readonly failed: readonly FailedLine[];
}

/** Adds up {@linkcode BodyProof}s. */
export function totalProofs(proofs: readonly BodyProof[]): ProofTotals {
  const linesByKind: Partial<Record<LineKind, { lines: number; held: number }>> = {};
  const plantedByKind: Partial<Record<LineKind, { planted: number; caught: number }>> = {};
  for (const proof of proofs) {
    for (const [kind, count] of Object.entries(proof.byKind) as [LineKind, number][]) {
      const entry = linesByKind[kind] ??= { lines: 0, held: 0 };
      entry.lines += count;
      entry.held += count - proof.failed.filter((line) => line.kind === kind).length;
    }
    for (const planted of proof.planted) {
      const entry = plantedByKind[planted.kind] ??= { planted: 0, caught: 0 };
      entry.planted++;
      if (planted.caught) entry.caught++;
    }
  }
  const failed = proofs.flatMap((proof) => proof.failed);
  const lines = proofs.reduce((sum, proof) => sum + proof.lines, 0);
  const planted = proofs.flatMap((proof) => proof.planted);
  const refs = proofs.reduce((sum, proof) => sum + proof.refs, 0);
  return {
    windows: proofs.length,
    lines,
    linesHeld: lines - failed.length,
    linesUncheckable: proofs.reduce((sum, proof) => sum + proof.uncheckableLines, 0),
    refs,
    refsResolved: refs - proofs.reduce((sum, proof) => sum + proof.unresolvedRefs, 0),
    linesByKind,
    planted: planted.length,
    caught: planted.filter((word) => word.caught).length,
    plantedByKind,
    kindsNeverSeen: LINE_KINDS.filter((kind) =>
      kind !== "other" && kind !== "log-system" && !(kind in linesByKind)
    ),
    failed,
  };
}
