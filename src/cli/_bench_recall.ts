import {
  command,
  constant,
  flag,
  map,
  message,
  multiple,
  object,
  option,
  optional,
} from "@optique/core";
import { argument } from "@optique/core/primitives";
import { string } from "@optique/core/valueparser";
import { basename, join } from "node:path";
import type { RecallCorpus, RecallRun, RecallTotals, RecallWindow } from "../bench/recall/mod.ts";
import { UsageError } from "./_errors.ts";
import { cutContextOption, dbOption, withStore } from "./_store_access.ts";
import { printSummary, saveReport, stderrProgress } from "./_bench_output.ts";
import { formatTable } from "./_display.ts";
import type { Runner } from "./_runner.ts";

const WINDOW_FILE = /\.jsonl?$/;
const SHOWN_WRONG = 30;

/**
 * `vcc bench recall [PATH…] [--db PATH [--context-tokens N]] [--demo]`: what projections keep and
 * state, scored; with no source named, on the default store.
 */
export const benchRecallCommand = command(
  "recall",
  map(
    object({
      kind: constant("bench-recall"),
      paths: multiple(argument(string({ metavar: "PATH" }), {
        description:
          message`Window files (JSON array, JSON Lines or {"messages": [...]}) or folders of them`,
      })),
      db: dbOption,
      contextTokens: cutContextOption,
      demo: optional(flag("--demo", {
        description: message`Also score the bundled sample session's compaction windows`,
      })),
      budgets: optional(option("--budgets", string({ metavar: "N,N,…" }), {
        description: message`Budgets in tokens (default 1500,4000,8000)`,
      })),
      json: optional(flag("--json", { description: message`Totals and findings as JSON` })),
    }),
    (args): Runner => async (out) => {
      const recall = await import("../bench/recall/mod.ts");
      const budgets = args.budgets === undefined
        ? recall.RECALL_BUDGETS
        : parseBudgets(args.budgets);
      const corpora: RecallCorpus[] = [];
      for (const path of args.paths) corpora.push(await readCorpus(path));
      // With no source named, the default store is the one scored.
      if (args.db !== undefined || (args.paths.length === 0 && !args.demo)) {
        corpora.push(await storeCorpus(args.db, args.contextTokens));
      }
      if (args.demo) corpora.push(await demoCorpus());
      const run = recall.runRecall(corpora, budgets, await stderrProgress(out, "recall"));
      const report = await saveReport("recall.json", run);
      const failed = run.wrong.length > 0;
      const wrong = run.wrong.map(({ commandText: _, ...finding }) => finding);
      printSummary(out, args, { ...run, wrong, report }, [
        recallTable(run.totals).trimEnd(),
        "PRESENT: commands with a Commands Run line; RIGHT: final exit code stated and right, of " +
        "commands whose last exit code is recorded; WRONG: lines whose stated outcome the record " +
        "contradicts; SAME-TEXT: lines showing the command text another line of their section " +
        "shows for a different command; FILES, NAMES, REQUESTS: present; COUNTED: kept + omitted " +
        "equals the window's count (commands/files/requests; yes, or windows where it does)",
        ...unreadLines(run),
        ...wrong.slice(0, SHOWN_WRONG).map((finding) =>
          `WRONG ${finding.corpus} ${finding.window} @${finding.budgetTokens} ${finding.section} ` +
          `[${finding.ref}]: ${finding.reasons.map((reason) => reason.detail).join("; ")}`
        ),
        ...(wrong.length > SHOWN_WRONG ? [`… and ${wrong.length - SHOWN_WRONG} more`] : []),
        `${failed ? `FAIL: ${wrong.length} WRONG` : "PASS"}; report: ${report}`,
      ]);
      return failed ? 1 : 0;
    },
  ),
  {
    description:
      message`Score what projections keep and the outcomes they state against the record`,
    footer:
      message`Prints counts and ids only; details go to the cache directory at mode 0600. Exits 1 when an outcome is stated wrong. Example: vcc bench recall windows/ --demo`,
  },
);

function parseBudgets(text: string): number[] {
  const budgets = text.split(",").map((part) => part.trim());
  if (budgets.some((part) => !/^[1-9]\d{0,6}$/.test(part))) {
    throw new UsageError(`--budgets: expected token counts separated by commas, got ${text}`);
  }
  return budgets.map(Number);
}

async function readCorpus(path: string): Promise<RecallCorpus> {
  const { parseWindowText } = await import("./_project_input.ts");
  const { cannotRead, readInputText } = await import("./_input_files.ts");
  let files: string[];
  try {
    files = Deno.statSync(path).isDirectory
      ? [...Deno.readDirSync(path)]
        .filter((entry) => entry.isFile && WINDOW_FILE.test(entry.name))
        .map((entry) => join(path, entry.name))
        .sort()
      : [path];
  } catch (error) {
    throw cannotRead(path, error);
  }
  if (files.length === 0) throw new UsageError(`${path}: no .json or .jsonl window files`);
  const windows: RecallWindow[] = [];
  for (const file of files) {
    const { messages, options } = parseWindowText(await readInputText(file), file);
    windows.push({
      id: basename(file),
      rows: messages,
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    });
  }
  return { name: path, windows };
}

async function storeCorpus(
  db: string | undefined,
  contextTokens: number | undefined,
): Promise<RecallCorpus> {
  const { readStoreSources } = await import("../bench/store_windows.ts");
  const { DEFAULT_CONTEXT_TOKENS } = await import("../compaction/mod.ts");
  const { sha256Hex } = await import("../bench/sha256.ts");
  const sources = await withStore(
    db,
    (store) => ({
      path: store.path,
      ...readStoreSources(store, contextTokens ?? DEFAULT_CONTEXT_TOKENS),
    }),
    "give window files or folders, --db PATH, or --demo",
  );
  return {
    name: `db-${(await sha256Hex(sources.path)).slice(0, 12)}`,
    windows: sources.windows.map((window) => ({
      id: window.id,
      rows: window.rows,
      ...(window.options.sessionId ? { sessionId: window.options.sessionId } : {}),
    })),
  };
}

async function demoCorpus(): Promise<RecallCorpus> {
  const { demoRun } = await import("../demo/demo_projection.ts");
  const run = demoRun();
  return {
    name: "demo",
    windows: [run.first.window, run.second.window].map((rows, index) => ({
      id: `${run.sessionId}:${index + 1}`,
      rows,
      sessionId: run.sessionId,
    })),
  };
}

function recallTable(totals: readonly RecallTotals[]): string {
  const percent = (part: number, whole: number) =>
    whole === 0 ? "-" : `${Math.round((part / whole) * 100)}%`;
  const counted = (exact: number, windows: number) =>
    exact === windows ? "yes" : `${exact}/${windows}`;
  return formatTable([
    [
      "CORPUS",
      "BUDGET",
      "WINDOWS",
      "COMMANDS",
      "PRESENT",
      "RIGHT",
      "WRONG",
      "AMBIGUOUS",
      "SAME-TEXT",
      "FILES",
      "NAMES",
      "REQUESTS",
      "COUNTED C/F/R",
    ],
    ...totals.map((row) => [
      row.corpus,
      String(row.budgetTokens),
      String(row.windows),
      String(row.commands.total),
      percent(row.commands.present, row.commands.total),
      percent(row.commands.right, row.commands.checkable),
      String(row.wrong),
      String(row.ambiguous),
      String(row.commands.sameText),
      percent(row.files.present, row.files.total),
      percent(row.errorNames.present, row.errorNames.total),
      percent(row.requests.present, row.requests.total),
      [
        row.exactCounts.commands,
        row.exactCounts.files,
        row.exactCounts.requests,
      ].map((exact) => counted(exact, row.windows)).join(" "),
    ]),
  ]);
}

function unreadLines(run: RecallRun): string[] {
  return run.unread
    .filter((counts) => counts.unreadableCalls + counts.orphanResults + counts.repeatedCalls > 0)
    .map((counts) =>
      `not scored in ${counts.corpus}: ${counts.unreadableCalls} command calls without readable ` +
      `arguments, ${counts.orphanResults} results without their call, ${counts.repeatedCalls} ` +
      "repeated calls"
    );
}
