/**
 * The CI service's answer to `GET /runs`, as `tools/ci_api.py runs` prints it: one JSON object
 * per line for each of 200 runs a page, all green on `main` and feature branches except, on page
 * 1, one failed run on the release branch, with its failed job and step.
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";
import type { LedgerValues } from "./values.ts";

/** Runs per page. */
const RUNS_PER_PAGE = 200;

const BRANCHES = ["main", "main", "main", "feat/batch-stream", "chore/deps", "docs/runbook"];

/** Page `page` (1-based) of the listing, as printed JSON. */
export function ciRunsPage(random: SeededRandom, values: LedgerValues, page: number): string {
  const failedAt = page === 1 ? random.range(40, RUNS_PER_PAGE - 20) : -1;
  const firstRun = 4000 + (2 - page) * RUNS_PER_PAGE;
  const runs: string[] = [];
  for (let index = 0; index < RUNS_PER_PAGE; index++) {
    const failed = index === failedAt;
    let id = 70000 + random.int(9000);
    if (id === values.failedRunId) id += 1;
    const run = {
      id: failed ? values.failedRunId : id,
      run: firstRun + RUNS_PER_PAGE - index,
      branch: failed ? values.branch : random.pick(BRANCHES),
      sha: random.hex(8),
      conclusion: failed ? "failure" : "success",
      created: `2026-11-${String(10 + Math.floor(index / 12)).padStart(2, "0")}T${
        String(random.range(0, 23)).padStart(2, "0")
      }:${String(random.range(0, 59)).padStart(2, "0")}Z`,
      secs: random.range(60, 900),
      ...(failed ? { failed_job: values.failedJob, failed_step: "alembic upgrade head" } : {}),
    };
    runs.push(` ${JSON.stringify(run)}`);
  }
  return `{"total_count": ${RUNS_PER_PAGE * 2}, "page": ${page}, "per_page": ${RUNS_PER_PAGE}, ` +
    `"workflow_runs": [\n${runs.join(",\n")}\n]}\n`;
}
