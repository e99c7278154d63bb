import { command, constant, flag, map, message, object, optional } from "@optique/core";
import type { ProofTotals } from "../bench/proofs/mod.ts";
import type { ProofRun } from "../bench/run_proofs.ts";
import { UsageError } from "./_errors.ts";
import { cutContextOption, dbOption, withStore } from "./_store_access.ts";
import { printSummary, saveReport, stderrProgress } from "./_bench_output.ts";
import type { Runner } from "./_runner.ts";

/**
 * `vcc bench proofs [--synthetic|--db PATH]`: faithfulness proofs and their negative control, on
 * generated windows or a store (the default one when neither is given).
 */
export const benchProofsCommand = command(
  "proofs",
  map(
    object({
      kind: constant("bench-proofs"),
      synthetic: optional(flag("--synthetic", {
        description: message`Check generated windows (no private data) instead of a store`,
      })),
      db: dbOption,
      contextTokens: cutContextOption,
      json: optional(flag("--json", { description: message`Totals as JSON` })),
    }),
    (args): Runner => async (out) => {
      if (args.synthetic && args.db !== undefined) {
        throw new UsageError("choose one of --synthetic or --db PATH");
      }
      const { runProofs, proofsHold } = await import("../bench/run_proofs.ts");
      let run: ProofRun;
      let source: string;
      let sessions: number | undefined;
      if (args.synthetic) {
        const { buildWindows, proofSpecs } = await import("../bench/window_spec.ts");
        source = "synthetic";
        run = runProofs(buildWindows(proofSpecs()), undefined, await stderrProgress(out, "proofs"));
      } else {
        const { readStoreSources } = await import("../bench/store_windows.ts");
        const { DEFAULT_CONTEXT_TOKENS } = await import("../compaction/mod.ts");
        const sources = await withStore(
          args.db,
          (db) => ({
            path: db.path,
            ...readStoreSources(db, args.contextTokens ?? DEFAULT_CONTEXT_TOKENS),
          }),
          "choose one of --synthetic or --db PATH",
        );
        const { sha256Hex } = await import("../bench/sha256.ts");
        source = `db-${(await sha256Hex(sources.path)).slice(0, 12)}`;
        sessions = sources.sessions;
        const progress = await stderrProgress(out, "proofs");
        run = runProofs(sources.windows, sources.summaries, progress);
      }
      const holds = proofsHold(run);
      const report = await saveReport(`proofs/${source}.json`, { source, holds, ...run });
      const { foreignWords: _, ...totals } = run;
      const summary = { source, sessions, holds, report, ...totals };
      printSummary(out, args, summary, [
        `proofs on ${source === "synthetic" ? "generated windows" : `${sessions} stored sessions`}`,
        ...totalsLines("projected windows", run.windows),
        ...(run.storedSummaries ? totalsLines("stored summaries", run.storedSummaries) : []),
        `${holds ? "PASS" : "FAIL"}${uncheckedNote(run)}; report: ${report}`,
      ]);
      return holds ? 0 : 1;
    },
  ),
  {
    description:
      message`Check that every cited line quotes its messages, and that the check can fail`,
    footer:
      message`Prints counts and ids only; details go to the cache directory at mode 0600. Example: vcc bench proofs --synthetic`,
  },
);

/** `; N lines not checkable` when some lines cite no stored row, so the verdict says so. */
function uncheckedNote(run: ProofRun): string {
  const count = run.windows.linesUncheckable + (run.storedSummaries?.linesUncheckable ?? 0);
  return count > 0 ? `; ${count} lines not checkable` : "";
}

function totalsLines(label: string, totals: ProofTotals): string[] {
  const kinds = Object.keys(totals.plantedByKind).length;
  return [
    `${label}: ${totals.windows}`,
    `  lines whose words all come from the cited rows: ${totals.linesHeld}/${totals.lines}`,
    ...(totals.linesUncheckable > 0
      ? [
        `  lines citing no stored row ([tN], [unsaved]), not checkable: ${totals.linesUncheckable}`,
      ]
      : []),
    `  references that resolve to a row: ${totals.refsResolved}/${totals.refs}`,
    `  negative control, planted words caught: ${totals.caught}/${totals.planted} ` +
    `(${kinds} kinds of line)`,
    ...(totals.kindsNeverSeen.length > 0
      ? [`  kinds of line never seen: ${totals.kindsNeverSeen.join(", ")}`]
      : []),
    ...totals.failed.slice(0, 20).map((line) =>
      `  failed: ${line.window} line ${line.index + 1} (${line.kind}, ${line.refs.join(" ")})`
    ),
    ...(totals.failed.length > 20
      ? [`  … and ${totals.failed.length - 20} more failed lines`]
      : []),
  ];
}
