import { join } from "node:path";
import { RuntimeFailure } from "./_errors.ts";
import type { Output } from "./output.ts";
import type { Progress } from "../bench/progress.ts";

/** The `--json` flag of the bench commands, as its parsed value. */
export interface JsonFlag {
  readonly json?: true | undefined;
}

/** The bench cache directory, or a one-line failure when the environment names none. */
export async function cacheDir(): Promise<string> {
  const { benchCacheDir } = await import("../bench/private_files.ts");
  const dir = benchCacheDir();
  if (!dir) throw new RuntimeFailure("cannot find a cache directory: set XDG_CACHE_HOME or HOME");
  return dir;
}

/** Writes `report` to `<cache>/<name>` at mode 0600 and returns the path. */
export async function saveReport(name: string, report: unknown): Promise<string> {
  const { writePrivateJson } = await import("../bench/private_files.ts");
  const path = join(await cacheDir(), name);
  await writePrivateJson(path, report);
  return path;
}

/** Progress lines on standard error, prefixed with `label`. */
export async function stderrProgress(out: Output, label: string): Promise<Progress> {
  const { steppedProgress } = await import("../bench/progress.ts");
  return steppedProgress(label, (line) => out.stderr(line));
}

/** Prints `summary` as indented JSON with `--json`, else the text lines. */
export function printSummary(
  out: Output,
  args: JsonFlag,
  summary: unknown,
  lines: readonly string[],
): void {
  out.stdout(args.json ? `${JSON.stringify(summary, null, 2)}\n` : `${lines.join("\n")}\n`);
}
