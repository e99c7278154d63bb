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
  or,
} from "@optique/core";
import { argument } from "@optique/core/primitives";
import { integer, string } from "@optique/core/valueparser";
import { join } from "node:path";
import type { ChatServer, HeadToHeadWorkspace, SummariseCounts } from "../bench/headtohead/mod.ts";
import { RuntimeFailure, UsageError } from "./_errors.ts";
import { cutContextOption, dbOption, withStore } from "./_store_access.ts";
import { cacheDir, printSummary, stderrProgress } from "./_bench_output.ts";
import type { Output } from "./output.ts";
import type { Runner } from "./_runner.ts";

/** Generated windows above this size are left out: no local model could read them whole. */
const HERMES_SIZED_TOKENS = 80_000;

const common = {
  dir: optional(option("--dir", string({ metavar: "DIR" }), {
    description: message`Workspace (default <cache>/headtohead)`,
  })),
  json: optional(flag("--json", { description: message`Counts and scores as JSON` })),
};

const server = {
  baseUrl: optional(option("--base-url", string({ metavar: "URL" }), {
    description: message`OpenAI-compatible API (default http://127.0.0.1:8080/v1)`,
  })),
  model: optional(option("--model", string({ metavar: "NAME" }), {
    description: message`Model name sent with each request (default local)`,
  })),
  timeout: optional(option("--timeout", integer({ min: 1, metavar: "SECONDS" }), {
    description: message`Give up on one request after this long (default 900, Hermes's ceiling)`,
  })),
};

interface CommonArgs {
  readonly dir?: string | undefined;
  readonly json?: true | undefined;
}

interface ServerArgs {
  readonly baseUrl?: string | undefined;
  readonly model?: string | undefined;
  readonly timeout?: number | undefined;
}

async function workspaceOf(args: CommonArgs): Promise<HeadToHeadWorkspace> {
  const { HeadToHeadWorkspace } = await import("../bench/headtohead/mod.ts");
  return new HeadToHeadWorkspace(args.dir ?? join(await cacheDir(), "headtohead"));
}

function serverOf(args: ServerArgs): ChatServer {
  return {
    baseUrl: args.baseUrl ?? "http://127.0.0.1:8080/v1",
    model: args.model ?? "local",
    timeoutMs: (args.timeout ?? 900) * 1000,
  };
}

const freeze = command(
  "freeze",
  map(
    object({
      kind: constant("headtohead-freeze"),
      synthetic: optional(flag("--synthetic", { description: message`Use generated windows` })),
      db: dbOption,
      contextTokens: cutContextOption,
      limit: optional(option("--limit", integer({ min: 1, metavar: "N" }), {
        description: message`Freeze at most N windows`,
      })),
      ...common,
    }),
    (args): Runner => async (out) => {
      const { freezeWindows } = await import("../bench/headtohead/mod.ts");
      let windows;
      if (args.synthetic) {
        const { buildWindows, GOLDEN_SPECS } = await import("../bench/window_spec.ts");
        const hermesSized = GOLDEN_SPECS.filter((spec) =>
          spec.previousOf === undefined && spec.targetTokens <= HERMES_SIZED_TOKENS
        );
        windows = buildWindows(hermesSized);
      } else {
        const { readStoreSources } = await import("../bench/store_windows.ts");
        const { DEFAULT_CONTEXT_TOKENS } = await import("../compaction/mod.ts");
        windows = (await withStore(
          args.db,
          (db) => readStoreSources(db, args.contextTokens ?? DEFAULT_CONTEXT_TOKENS),
        )).windows;
      }
      const workspace = await workspaceOf(args);
      const counts = await freezeWindows(workspace, windows.slice(0, args.limit ?? Infinity));
      printSummary(out, args, { dir: workspace.dir, ...counts }, [
        `froze ${counts.windows} windows with ${counts.questions} questions in ${workspace.dir}`,
      ]);
      return 0;
    },
  ),
  {
    description: message`Cut sessions where Hermes would compact and freeze the windows`,
    footer: message`Example: vcc bench headtohead freeze --db ~/.hermes/state.db --limit 20`,
  },
);

const stock = command(
  "stock",
  map(
    object({ kind: constant("headtohead-stock"), ...server, ...common }),
    (args): Runner => async (out) => {
      const { summariseStock } = await import("../bench/headtohead/mod.ts");
      const counts = await summariseStock(
        await workspaceOf(args),
        serverOf(args),
        await stderrProgress(out, "stock"),
      );
      printCounts(out, args, "stock summaries", counts);
      return counts.failed === 0 ? 0 : 1;
    },
  ),
  {
    description: message`Stock-style summaries of the frozen windows from the model server`,
    footer: message`Example: vcc bench headtohead stock --base-url http://127.0.0.1:8080/v1`,
  },
);

const variant = command(
  "variant",
  map(
    object({
      kind: constant("headtohead-variant"),
      name: optional(argument(string({ metavar: "NAME" }), {
        description: message`Name to save the projections under (default vcc)`,
      })),
      ...common,
    }),
    (args): Runner => async (out) => {
      const name = args.name ?? "vcc";
      if (name === "FULL" || name === "STOCK") {
        throw new UsageError(`${name} is a built-in context; choose another variant name`);
      }
      const { summariseVariant } = await import("../bench/headtohead/mod.ts");
      const counts = await summariseVariant(
        await workspaceOf(args),
        name,
        await stderrProgress(out, name),
      );
      printCounts(out, args, `${name} projections`, counts);
      return counts.failed === 0 ? 0 : 1;
    },
  ),
  {
    description: message`vcc projections of the frozen windows from this checkout`,
    footer: message`Example: vcc bench headtohead variant vcc`,
  },
);

const ask = command(
  "ask",
  map(
    object({
      kind: constant("headtohead-ask"),
      contexts: multiple(argument(string({ metavar: "CONTEXT" })), { min: 1 }),
      ...server,
      ...common,
    }),
    (args): Runner => async (out) => {
      const workspace = await workspaceOf(args);
      const known = new Set(["FULL", "STOCK", ...(await workspace.variants())]);
      const unknown = args.contexts.filter((context) => !known.has(context));
      if (unknown.length > 0) {
        throw new UsageError(
          `unknown context ${unknown.join(", ")}; use FULL, STOCK or a variant name`,
        );
      }
      const { askQuestions } = await import("../bench/headtohead/mod.ts");
      const counts = await askQuestions(
        workspace,
        serverOf(args),
        args.contexts,
        await stderrProgress(out, "ask"),
      );
      printSummary(out, args, counts, [
        `asked ${counts.questions} questions (2 wordings each) over ${counts.windows} windows ` +
        `and ${counts.contexts} contexts; ${counts.skipped} skipped, ${counts.failed} failed`,
      ]);
      return counts.failed === 0 ? 0 : 1;
    },
  ),
  {
    description: message`Ask the questions under each context (FULL, STOCK, variant names)`,
    footer: message`Example: vcc bench headtohead ask FULL STOCK vcc`,
  },
);

const report = command(
  "report",
  map(object({ kind: constant("headtohead-report"), ...common }), (args): Runner => async (out) => {
    const { headToHeadReport } = await import("../bench/headtohead/mod.ts");
    const result = await headToHeadReport(await workspaceOf(args));
    if (result.windows === 0) {
      throw new RuntimeFailure(
        "no window is answered under every context yet: run freeze, stock, variant and ask first",
      );
    }
    const sign = (value: number) => (value > 0 ? `+${value}` : String(value));
    printSummary(out, args, result, [
      `head-to-head: ${result.windows} windows answered under every context, ` +
      `${result.questions} questions, 2 wordings each`,
      ...result.scores.map((score) =>
        `  ${score.context.padEnd(8)} ${score.correct}/${score.answers} correct`
      ),
      ...result.comparisons.map((c) =>
        `  ${c.a} vs ${c.b}: ${sign(c.delta)} answers (${sign(c.deltaPoints)} points), ` +
        `permutation p = ${c.pValue}, 95% CI ${c.ciLow} to ${c.ciHigh} points`
      ),
      "caveats:",
      ...result.caveats.map((caveat) => `  - ${caveat}`),
    ]);
    return 0;
  }),
  {
    description: message`Scores per context and window-level paired statistics`,
    footer: message`Example: vcc bench headtohead report --json`,
  },
);

function printCounts(out: Output, args: CommonArgs, what: string, counts: SummariseCounts): void {
  const sorted = [...counts.elapsedMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  printSummary(out, args, counts, [
    `${what}: ${counts.windows - counts.skipped - counts.failed} made, ${counts.skipped} ` +
    `already there, ${counts.failed} failed` +
    (median === undefined ? "" : `; median ${(median / 1000).toFixed(3)} s`),
  ]);
}

/** `vcc bench headtohead freeze|stock|variant|ask|report`. */
export const benchHeadToHeadCommand = command(
  "headtohead",
  or(freeze, stock, variant, ask, report),
  {
    description: message`Compare vcc with the stock summary on an OpenAI-compatible local model`,
    footer:
      message`Order: freeze, stock, variant, ask FULL STOCK vcc, report. Each step resumes where it stopped. Example: vcc bench headtohead freeze --synthetic`,
  },
);
