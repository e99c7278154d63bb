import { constant, flag, map, message, object, option, optional } from "@optique/core";
import { integer, string } from "@optique/core/valueparser";
import { join } from "node:path";
import { RuntimeFailure, UsageError } from "./errors.ts";
import { dbOption, withStore } from "./store_access.ts";
import { cacheDir, printSummary } from "./bench_output.ts";
import { formatTable } from "./display.ts";
import type { Runner } from "./runner.ts";

/** Where the committed manifest for generated windows lives, relative to the checkout. */
export const GENERATED_GOLDEN_DIR = "bench/golden";

/** `vcc bench --write-golden|--check-golden`: freeze outputs, then fail on any changed byte. */
export const benchGoldenOptions = map(
  object({
    kind: constant("bench-golden"),
    write: optional(flag("--write-golden", {
      description: message`Freeze windows and record the hash of each output`,
    })),
    check: optional(flag("--check-golden", {
      description: message`Re-project frozen windows; fail on any changed byte, naming the window`,
    })),
    db: dbOption,
    dir: optional(option("--golden-dir", string({ metavar: "DIR" }), {
      description: message`Golden directory (default bench/golden, or the cache for --db)`,
    })),
    contextTokens: optional(option("--context-tokens", integer({ min: 1000, metavar: "N" }), {
      description: message`Context window used to cut stored sessions (default 128000)`,
    })),
    json: optional(flag("--json", { description: message`Results as JSON` })),
  }),
  (args): Runner => async (out) => {
    if (Boolean(args.write) === Boolean(args.check)) {
      throw new UsageError(
        "choose --write-golden or --check-golden, or a subcommand: proofs, speed, headtohead",
      );
    }
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
      );
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
      if (error instanceof Deno.errors.NotFound) {
        throw new RuntimeFailure(`no golden manifest in ${dir}; write one with --write-golden`);
      }
      throw error;
    }
    const changed = verdicts.filter((verdict) => verdict.status !== "same");
    const times = verdicts.map((verdict) => verdict.elapsedMs).sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    const summary = { dir, windows: verdicts.length, changed: changed.length, verdicts };
    printSummary(out, args, summary, [
      `${verdicts.length - changed.length}/${verdicts.length} golden windows byte-identical ` +
      `(projection median ${median.toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms)`,
      ...changed.map((verdict) => `  CHANGED ${verdict.id}: ${verdict.status}`),
    ]);
    return changed.length === 0 ? 0 : 1;
  },
);

async function storeWindows(args: { db?: string | undefined; contextTokens?: number | undefined }) {
  const { readStoreSources } = await import("../bench/store_windows.ts");
  const { DEFAULT_CONTEXT_TOKENS } = await import("../compaction/mod.ts");
  const sources = await withStore(
    args.db,
    (db) => readStoreSources(db, args.contextTokens ?? DEFAULT_CONTEXT_TOKENS),
  );
  return sources.windows;
}
