/**
 * The windows the anchor-index benchmarks time, shared by `anchors_bench.ts` (ours, in Deno) and
 * `anchor_speed.py` (Hermes's builder, in Python), which reads them from this script's output:
 * `deno run bench/anchor_windows.ts` prints them as one JSON object, name → messages.
 *
 * @module
 */
import { generateWindow, type WindowRow } from "../src/sample/mod.ts";

/** Tokens of the benchmark window: a typical compaction (≈300 KB of JSON). */
export const ANCHOR_BENCH_TOKENS = 75_000;

// Words of other scripts, so that every line holds characters outside ASCII.
const FOREIGN = ["données", "日本語", "проверка", "✓", "naïve", "😀", "ünïcødé/файл.py"];

/** Every fifth word of every string content followed by a word of another script. */
function withForeignWords(rows: readonly WindowRow[]): WindowRow[] {
  let n = 0;
  return rows.map((row) =>
    typeof row.content !== "string" ? row : {
      ...row,
      content: row.content.replace(/ /g, () => (++n % 5 === 0 ? ` ${FOREIGN[n % 7]} ` : " ")),
    }
  );
}

/** The generated ~75k-token window, as is and with non-ASCII words throughout. */
export function anchorBenchWindows(): Record<string, WindowRow[]> {
  const window = generateWindow({ seed: 75, targetTokens: ANCHOR_BENCH_TOKENS });
  return { "75k tokens": window, "75k tokens, non-ASCII": withForeignWords(window) };
}

if (import.meta.main) {
  // deno-lint-ignore no-console
  console.log(JSON.stringify(anchorBenchWindows()));
}
