/**
 * Anchor-index speed on a generated ~75k-token window (≈300 KB of JSON): the builder alone, and
 * with the JSON parse a bridge request adds. Hermes's own builder on the same windows:
 * `python bench/anchor_speed.py` with the Python of a Hermes that has `_build_anchor_index`.
 * Run: `deno task bench` (or `deno bench --allow-read --allow-env bench/anchors_bench.ts`).
 */
import { buildAnchorIndex } from "../src/anchors/mod.ts";
import { anchorBenchWindows } from "./anchor_windows.ts";

for (const [name, window] of Object.entries(anchorBenchWindows())) {
  const json = JSON.stringify(window);
  const size = `${(json.length / 1e3).toFixed(0)} KB`;
  Deno.bench({
    name: `buildAnchorIndex ${name} (${size})`,
    group: `anchors ${name}`,
    baseline: true,
    fn: () => {
      buildAnchorIndex(window);
    },
  });
  Deno.bench({
    name: `parse + buildAnchorIndex ${name} (${size})`,
    group: `anchors ${name}`,
    fn: () => {
      buildAnchorIndex(JSON.parse(json));
    },
  });
}
