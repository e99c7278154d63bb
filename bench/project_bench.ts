/**
 * Projection speed on generated windows, JSON parse included, as the bridge sees it: about 10k,
 * 75k and 300k tokens (≈40 KB, 300 KB, 1.2 MB of JSON) and a 10 MB stress window.
 * Run: `deno task bench` (or `deno bench --allow-read --allow-env bench/project_bench.ts`).
 */
import { project } from "../src/core/mod.ts";
import { generateWindow } from "../src/sample/mod.ts";

const SIZES: ReadonlyArray<readonly [string, number]> = [
  ["10k tokens", 10_000],
  ["75k tokens", 75_000],
  ["300k tokens", 300_000],
  ["10 MB stress", 2_500_000],
];

for (const [name, targetTokens] of SIZES) {
  const json = JSON.stringify(generateWindow({ seed: 7, targetTokens, rowIdStart: 1 }));
  const budgetTokens = Math.min(8_000, Math.max(1_500, Math.round(targetTokens * 0.06)));
  Deno.bench({
    name: `parse + project ${name} (${(json.length / 1e6).toFixed(2)} MB)`,
    group: "project",
    baseline: targetTokens === 75_000,
    fn: () => {
      project(JSON.parse(json), { sessionId: "bench", budgetTokens });
    },
  });
}
