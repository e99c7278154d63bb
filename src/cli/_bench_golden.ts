import { command, constant, flag, map, message, object, option, optional } from "@optique/core";
import { string } from "@optique/core/valueparser";
import { join } from "node:path";
import type { GoldenVerdict } from "../bench/golden.ts";
import { RuntimeFailure, UsageError } from "./_errors.ts";
import { cutContextOption, withStore } from "./_store_access.ts";
import { cacheDir, printSummary } from "./_bench_output.ts";
import { formatTable } from "./_display.ts";
import type { Output } from "./output.ts";
import type { Runner } from "./_runner.ts";

/** Where the committed manifest for generated windows lives, relative to the checkout. */
export const GENERATED_GOLDEN_DIR = "bench/golden";

/** Diff lines printed per changed window; the rest are counted. */
const PRINTED_DIFF_LINES = 60;

/** What the golden commands do, whichever spelling chose it. */
interface GoldenArgs {
  readonly write?: true | undefined;
  readonly check?: true | undefined;
  readonly db?: string | undefined;
  readonly dir?: string | undefined;
  readonly contextTokens?: number | undefined;
  readonly json?: true | undefined;
}

const goldenOptions = {
  db: optional(option("--db", string({ metavar: "PATH" }), {
    description: message`Windows cut from this Hermes store (read-only) instead of generated ones`,
  })),
  dir: optional(option("--golden-dir", string({ metavar: "DIR" }), {
    description: message`Golden directory (default bench/golden, or the cache for --db)`,
  })),
  contextTokens: cutContextOption,
  json: optional(flag("--json", { description: message`Results as JSON` })),
};

/** `vcc bench golden --write|--check`: freeze outputs, then fail on any changed byte. */
export const benchGoldenCommand = command(
  "golden",
  map(
    object({
      kind: constant("bench-golden"),
      write: optional(flag("--write", {
        description: message`Freeze windows and record the hash of each output`,
      })),
      check: optional(flag("--check", {
        description: message`Re-project frozen windows; fail on any changed byte and show the diff`,
      })),
      ...goldenOptions,
    }),
    (args): Runner => (out) => {
      if (Boolean(args.write) === Boolean(args.check)) {
        throw new UsageError("choose --write or --check");
      }
      return runGolden(args, out);
    },
  ),
  {
    description: message`Golden outputs: freeze them, or check this checkout still produces them`,
    footer:
      message`vcc bench --write-golden and --check-golden are the same as --write and --check here. Example: vcc bench golden --check`,
  },
);

/** `vcc bench --write-golden|--check-golden`: the spelling of `vcc bench golden` as flags. */
export const benchGoldenFlags = map(
  object({
    kind: constant("bench-golden-flags"),
    write: optional(flag("--write-golden", {
      description: message`The same as vcc bench golden --write`,
    })),
    check: optional(flag("--check-golden", {
      description: message`The same as vcc bench golden --check`,
    })),
    ...goldenOptions,
  }),
  (args): Runner => (out) => {
    if (Boolean(args.write) === Boolean(args.check)) {
      throw new UsageError(
        "choose --write-golden or --check-golden, or a subcommand (see vcc bench --help)",
      );
    }
    return runGolden(args, out);
  },
);

async function runGolden(args: GoldenArgs, out: Output): Promise<number> {
  const dir = args.dir ??
    (args.db === undefined ? GENERATED_GOLDEN_DIR : join(await cacheDir(), "golden", "db"));
  const golden = await import("../bench/golden.ts");
  const { buildWindows, GOLDEN_SPECS } = await import("../bench/window_spec.ts");
  if (args.write) {
    const windows = args.db === undefined ? buildWindows(GOLDEN_SPECS) : await storeWindows(args);
    const specs = new Map(GOLDEN_SPECS.map((spec) => [spec.id, spec]));
    const manifest = await golden.writeGolden(
      { dir, private: args.db !== undefined },
      windows,
      (id) => (args.db === undefined ? specs.get(id) : undefined),
    ).catch((error) => {
      throw error instanceof golden.GoldenDirError ? new UsageError(error.message) : error;
    });
    const summary = { dir, windows: manifest.windows.length, manifest: manifest.windows };
    printSummary(out, args, summary, [
      `wrote ${manifest.windows.length} golden windows to ${dir}`,
      formatTable([
        ["ID", "CHARS", "SHA-256"],
        ...manifest.windows.map((e) => [e.id, String(e.outputChars), e.outputSha256]),
      ]).trimEnd(),
    ]);
    return 0;
  }
  let verdicts;
  try {
    verdicts = await golden.checkGolden(dir, buildWindows);
  } catch (error) {
    if (!(error instanceof golden.GoldenDirError)) throw error;
    if (error.kind === "not-a-directory") throw new UsageError(error.message);
    if (error.kind === "no-manifest") {
      // The generated windows' golden files are committed: written anywhere else they would
      // only agree with the projector that wrote them.
      if (dir === GENERATED_GOLDEN_DIR && !(await Deno.stat(dir).catch(() => undefined))) {
        throw new UsageError(
          `no ${dir} here: the golden files live in vcc's source checkout; run the check there`,
        );
      }
      throw new RuntimeFailure(`no golden manifest in ${dir}; write one with --write`);
    }
    throw new RuntimeFailure(error.message);
  }
  const changed = verdicts.filter((verdict) => verdict.status !== "same");
  const times = verdicts.map((verdict) => verdict.elapsedMs).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const shown = await Promise.all(changed.map((verdict) => shownDiff(verdict, dir)));
  const summary = { dir, windows: verdicts.length, changed: changed.length, verdicts };
  printSummary(out, args, summary, [
    `${verdicts.length - changed.length}/${verdicts.length} golden windows byte-identical ` +
    `(projection median ${median.toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms)`,
    ...changed.flatMap((verdict, index) => [
      `  CHANGED ${verdict.id}: ${verdict.status}`,
      ...shown[index]!,
    ]),
    ...(changed.length > 0 && args.db === undefined && args.dir === undefined
      ? ["if every change is intended: deno task golden, then review git diff bench/golden"]
      : []),
  ]);
  return changed.length === 0 ? 0 : 1;
}

/**
 * The diff lines to print under a changed window. A window frozen from a database holds the
 * user's sessions, which the console never shows: its diff goes to a file only its owner reads.
 */
async function shownDiff(verdict: GoldenVerdict, dir: string): Promise<string[]> {
  if (verdict.diff === undefined) return [];
  if (verdict.frozen) {
    const { writePrivateFile } = await import("../bench/private_files.ts");
    const path = join(dir, `${verdict.id.replace(/[^\w.-]/g, "_")}.diff`);
    await writePrivateFile(path, verdict.diff);
    return [`    diff (private): ${path}`];
  }
  const lines = verdict.diff.trimEnd().split("\n");
  const rest = lines.length - PRINTED_DIFF_LINES;
  return [
    ...lines.slice(0, PRINTED_DIFF_LINES).map((line) => `    ${line}`),
    ...(rest > 0 ? [`    … ${rest} more diff lines`] : []),
  ];
}

async function storeWindows(args: { db?: string | undefined; contextTokens?: number | undefined }) {
  const { readStoreSources } = await import("../bench/store_windows.ts");
  const { DEFAULT_CONTEXT_TOKENS } = await import("../compaction/mod.ts");
  const sources = await withStore(
    args.db,
    (db) => readStoreSources(db, args.contextTokens ?? DEFAULT_CONTEXT_TOKENS),
  );
  return sources.windows;
}
