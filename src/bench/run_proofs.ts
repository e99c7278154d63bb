import {
  type BodyProof,
  type ProofTotals,
  type ProofWindow,
  proveBody,
  proveWindow,
  totalProofs,
  windowLookup,
} from "./proofs/mod.ts";
import type { StoredSummary } from "./store_windows.ts";
import { noProgress, type Progress } from "./progress.ts";

/** Proof totals for a set of windows, and for stored summaries when a database was read. */
export interface ProofRun {
  readonly windows: ProofTotals;
  readonly storedSummaries?: ProofTotals;
  /** Words flagged on failed lines, for the private report only. */
  readonly foreignWords: readonly string[];
}

/** Whether a run found nothing wrong: every line held, every reference resolved, every plant caught. */
export function proofsHold(run: ProofRun): boolean {
  return [run.windows, run.storedSummaries].every((totals) =>
    !totals ||
    (totals.linesHeld === totals.lines && totals.refsResolved === totals.refs &&
      totals.caught === totals.planted)
  );
}

/** Proves every window, then every stored summary against its session lineage. */
export function runProofs(
  windows: readonly ProofWindow[],
  summaries?: readonly StoredSummary[],
  progress: Progress = noProgress,
): ProofRun {
  const total = windows.length + (summaries?.length ?? 0);
  let done = 0;
  const step = <T>(value: T): T => {
    progress(++done, total);
    return value;
  };
  const windowProofs: BodyProof[] = windows.map((window) => step(proveWindow(window)));
  const summaryProofs = summaries?.map((summary) =>
    step(proveBody(summary.id, summary.body, windowLookup(summary.lineage)))
  );
  const all = [...windowProofs, ...(summaryProofs ?? [])];
  return {
    windows: totalProofs(windowProofs),
    ...(summaryProofs ? { storedSummaries: totalProofs(summaryProofs) } : {}),
    foreignWords: [...new Set(all.flatMap((proof) => proof.foreign))],
  };
}
