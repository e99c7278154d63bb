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
import { integer, string } from "@optique/core/valueparser";
import { join } from "node:path";
import { RuntimeFailure, UsageError } from "./_errors.ts";
import { cacheDir, printSummary, saveReport } from "./_bench_output.ts";
import { formatTable } from "./_display.ts";
import type { Runner } from "./_runner.ts";
import type {
  EngineScore,
  KeptCount,
  ProbeCategory,
  ReplayReport,
  SeedScore,
} from "../bench/replay/mod.ts";

const DEFAULT_SEEDS = [1, 2, 3];

/** `vcc bench replay`: one seeded session through a real Hermes, vcc against the stock compressor. */
export const benchReplayCommand = command(
  "replay",
  map(
    object({
      kind: constant("bench-replay"),
      hermes: multiple(option("--hermes", string({ metavar: "PATH" }), {
        description:
          message`A hermes command or the Python of a Hermes virtual environment (repeatable; default: the installed releases with the modern context-engine API)`,
      })),
      seeds: optional(option("--seeds", string({ metavar: "N,N,…" }), {
        description: message`Seeds of the story (default 1,2,3)`,
      })),
      runsDir: optional(option("--runs-dir", string({ metavar: "DIR" }), {
        description:
          message`Where each run's sandbox, state.db and logs are kept (default: the cache directory's replay-runs)`,
      })),
      jobs: optional(option("--jobs", integer({ min: 1, max: 16, metavar: "N" }), {
        description:
          message`Runs at the same time (default 2: a seed's vcc and stock side by side)`,
      })),
      check: optional(flag("--check", {
        description: message`Exit 1 when an acceptance criterion fails`,
      })),
      json: optional(flag("--json", { description: message`Totals and criteria as JSON` })),
    }),
    (args): Runner => async (out) => {
      const replay = await import("../bench/replay/mod.ts");
      const { selfCommand } = await import("../hermes/self_command.ts");
      const seeds = args.seeds === undefined ? DEFAULT_SEEDS : parseSeeds(args.seeds);
      let releases;
      if (args.hermes.length > 0) {
        releases = [];
        for (const path of args.hermes) {
          const release = await replay.releaseAt(path).catch((error) => {
            throw new UsageError(
              `--hermes ${path}: ${error instanceof Error ? error.message : error}`,
            );
          });
          if (!release.modern) {
            throw new UsageError(
              `--hermes ${path}: ${release.label} lacks the modern context-engine API`,
            );
          }
          releases.push(release);
        }
      } else {
        const found = await replay.defaultReleases();
        if ("problem" in found) throw new RuntimeFailure(found.problem);
        releases = found;
      }
      const report = await replay.runReplayBench({
        releases,
        seeds,
        runsDir: args.runsDir ?? join(await cacheDir(), "replay-runs"),
        vccCommand: selfCommand(),
        jobs: args.jobs ?? 2,
        progress: (line) => out.stderr(line),
      });
      const saved = await saveReport("replay.json", report);
      const departed = report.criteria.some((c) => c.name.startsWith("both runs") && !c.passed);
      const failed = departed || (args.check === true && !report.passed);
      printSummary(out, args, { ...summary(report), report: saved }, [
        ...reportLines(report, replay.PROBE_CATEGORIES),
        `${
          report.passed
            ? "PASS"
            : `FAIL: ${report.criteria.filter((c) => !c.passed).length} criteria`
        }` +
        ` in ${report.seconds} s; report: ${saved}`,
      ]);
      return failed ? 1 : 0;
    },
  ),
  {
    description:
      message`Replay a seeded session through a real Hermes, vcc against the stock compressor`,
    footer:
      message`Each run keeps its sandbox, state.db and agent.log in the runs directory; the full report goes to the cache directory at mode 0600. Example: vcc bench replay --seeds 1 --check`,
  },
);

function parseSeeds(text: string): number[] {
  const seeds = text.split(",").map((part) => part.trim());
  if (seeds.length === 0 || seeds.some((part) => !/^\d{1,6}$/.test(part))) {
    throw new UsageError(`--seeds: expected seed numbers separated by commas, got ${text}`);
  }
  return seeds.map(Number);
}

const ratio = (count: KeptCount) => `${count.kept}/${count.scored}`;

/** The table's rows: a measure's name and how to show it for one engine. */
function measures(
  categories: readonly ProbeCategory[],
): [string, (score: EngineScore) => string][] {
  return [
    ["facts kept", (s) => ratio(s.kept)],
    ...categories.map((category): [string, (score: EngineScore) => string] => [
      `  ${category}`,
      (s) => ratio(s.keptByCategory[category]),
    ]),
    ["error fingerprints", (s) => `${s.fingerprints.kept}/${s.fingerprints.total}`],
    ["cost, cache-priced", (s) => String(s.cost)],
    ["summary calls' cost", (s) => String(s.summaryCost)],
    ["main requests", (s) => String(s.mainRequests)],
    ["compactions", (s) => String(s.compactions)],
    ["stalled compactions", (s) => String(s.stalls)],
    ["prefix breaks", (s) => String(s.prefixBreaks)],
    ["pairing violations", (s) => String(s.pairingViolations)],
    ["rows rewritten", (s) => String(s.rewrittenRows)],
    ["summary calls", (s) => String(s.summaryCalls)],
    ["projection ms*", (s) => (s.projections === 0 ? "-" : `${s.projectionMs} (${s.projections})`)],
    ["wall seconds*", (s) => String(s.seconds)],
    ["story departures", (s) => String(s.departures.length)],
  ];
}

function seedTable(release: string, score: SeedScore, categories: readonly ProbeCategory[]) {
  const table = formatTable([
    ["", "VCC", "STOCK"],
    ...measures(categories).map(([name, value]) => [name, value(score.vcc), value(score.stock)]),
  ]);
  return [
    `${release} seed ${score.seed}: ${score.scoredFacts.length} facts scored (compacted in both)`,
    ...table.trimEnd().split("\n").map((line) => `  ${line}`),
    "",
  ];
}

/** Per release and seed, vcc and stock side by side, then the criteria that failed. */
function reportLines(report: ReplayReport, categories: readonly ProbeCategory[]): string[] {
  const lines = report.releases.flatMap((release) =>
    release.seeds.flatMap((seed) => seedTable(release.release, seed, categories))
  );
  lines.push("* wall time: the machine's, part of no criterion");
  for (const criterion of report.criteria.filter((c) => !c.passed)) {
    lines.push(
      `FAIL ${criterion.release} seed ${criterion.seed}: ${criterion.name} (${criterion.detail})`,
    );
  }
  return lines;
}

/** The report without per-fact detail: totals per release, seed and engine, and the criteria. */
function summary(report: ReplayReport) {
  return {
    passed: report.passed,
    seconds: report.seconds,
    releases: report.releases.map((release) => ({
      release: release.release,
      seeds: release.seeds.map((seed) => ({
        seed: seed.seed,
        scoredFacts: seed.scoredFacts.length,
        vcc: totals(seed.vcc),
        stock: totals(seed.stock),
      })),
    })),
    criteria: report.criteria,
  };
}

function totals(score: EngineScore) {
  const { facts: _facts, dir: _dir, departures, fingerprints, ...rest } = score;
  return {
    ...rest,
    fingerprints: { kept: fingerprints.kept, total: fingerprints.total },
    departures: departures.length,
  };
}
