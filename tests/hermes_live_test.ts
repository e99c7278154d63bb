/**
 * Runs the live Hermes suite (tests/hermes_live, pytest) once per Hermes Agent release that
 * `.ci/hermes.sh` installed (see `support/hermes_releases.ts`): a real `hermes chat` agent loop
 * with vcc installed by `vcc hermes install --activate`, driven by a scripted model on 127.0.0.1
 * through several compactions. Each run keeps its session store, the windows Hermes handed to vcc
 * and a scorecard (`report.json`) in `.cache/live/<release>-py<X.Y>/` for `vcc preview|stats|bench --db`.
 * Then `vcc bench recall` scores the stores these runs left.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { installedReleases, repo, testEachRelease } from "./support/hermes_releases.ts";
import { checkRecall } from "./support/recall_check.ts";

const KEPT_RUNS = join(repo, ".cache", "live");
const started = Date.now();

await testEachRelease({ name: "Live Hermes session tests", path: "tests/hermes_live" });

/** The kept runs whose scorecard this test run wrote, with the context length they used. */
async function freshRuns(): Promise<{ store: string; contextLength: number }[]> {
  const runs = [];
  for await (const entry of Deno.readDir(KEPT_RUNS)) {
    const report = join(KEPT_RUNS, entry.name, "report.json");
    const written = (await Deno.stat(report).catch(() => undefined))?.mtime?.getTime() ?? 0;
    if (written < started) continue;
    const card = JSON.parse(await Deno.readTextFile(report)) as { context_length: number };
    runs.push({
      store: join(KEPT_RUNS, entry.name, "state.db"),
      contextLength: card.context_length,
    });
  }
  return runs.sort((a, b) => a.store.localeCompare(b.store));
}

Deno.test({
  name: "vcc bench recall states no outcome wrong on the stores the live sessions left",
  ignore: (await installedReleases()) === undefined,
  fn: async () => {
    const runs = await freshRuns();
    assert.ok(runs.length > 0, `no live session left a store in ${KEPT_RUNS}`);
    for (const { store, contextLength } of runs) {
      await checkRecall(["--db", store, "--context-tokens", String(contextLength)]);
    }
  },
});
