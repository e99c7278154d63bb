/**
 * Every file of the ledger-svc project for one seed: the Python sources, configuration, the
 * generated vendor package, and the data the service's commands print (the night's sync log, the
 * regional gateway log, the CI listing, the metrics, the ledger pages, the replay report and the
 * schema state).
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";
import { ciRunsPage } from "./ci_runs.ts";
import { ledgerPage } from "./ledger_pages.ts";
import { metricsDump } from "./metrics_dump.ts";
import { pythonSources } from "./python_sources.ts";
import { type RegionalLog, regionalLog } from "./regional_log.ts";
import { type SyncLog, syncLog } from "./sync_log.ts";
import type { LedgerValues } from "./values.ts";

/** The project's files, and the logs whose lines the facts and fingerprints refer to. */
export interface LedgerProject {
  readonly files: Readonly<Record<string, string>>;
  readonly syncLog: SyncLog;
  readonly regionalLog: RegionalLog;
  /** How many pages of ledger entries `var/ledger` holds. */
  readonly pages: number;
}

/** Paths of the data the commands print. */
export const DATA_PATHS = {
  syncLog: (night: string) => `var/log/sync-${night}.log`,
  regionalLog: "var/log/gateway-ap.log",
  ciRuns: (page: number) => `var/ci/runs-page-${page}.json`,
  metrics: "var/metrics/all.prom",
  page: (page: number) => `var/ledger/page-${String(page).padStart(2, "0")}.txt`,
  replay: (shard: number) => `var/replay/shard-${shard}.json`,
  schema: "var/schema/staging.json",
} as const;

const README = `# ledger-svc

Copies ledger entries from the upstream ledger API every night (\`python -m ledger.sync\`), replays
failed batches (\`python -m ledger.replay\`) and backfills shards after outages.

- \`ledger/\`: the service; \`ledger/client.py\` is the public client other teams import.
- \`vendor/ledger_proto/\`: generated from the ledger-proto repository.
- \`tools/ci_api.py\`: prints CI runs; \`tools/check_schema.py\`: compares migrations.
- \`var/\`: logs, metrics and reports the service writes.

Run the tests with \`python -m pytest -q tests\`.
`;

function config(pool: number, timeout: number): string {
  return `[database]\nurl = "postgresql://ledger@db.internal/ledger"\npool_size = ${pool}\n` +
    `statement_timeout_ms = ${timeout}\n\n[upstream]\nbase_url = "https://ledger-api.internal"\n` +
    `rate_limit_per_minute = 600\n`;
}

/** The project for `values`, drawing its data from `random`. */
export function ledgerProject(random: SeededRandom, values: LedgerValues): LedgerProject {
  const pages = values.fillerPages.reduce((sum, count) => sum + count, 0);
  const sync = syncLog(random, values);
  const regional = regionalLog(random, values);
  const files: Record<string, string> = {
    "README.md": README,
    "pyproject.toml": '[project]\nname = "ledger-svc"\nversion = "' + values.wheelVersion +
      '"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    ".gitignore": ".pytest_cache/\n__pycache__/\ndist/\n",
    "config/staging.toml": config(20, 15_000),
    "config/prod.toml": config(40, 30_000),
    ...pythonSources(values),
    [DATA_PATHS.syncLog(values.night)]: sync.text,
    [DATA_PATHS.regionalLog]: regional.text,
    [DATA_PATHS.ciRuns(1)]: ciRunsPage(random, values, 1),
    [DATA_PATHS.ciRuns(2)]: ciRunsPage(random, values, 2),
    [DATA_PATHS.metrics]: metricsDump(random, values),
    [DATA_PATHS.replay(values.shard)]: `${
      JSON.stringify({
        read: values.replayedBatches + values.quarantinedBatches,
        replayed: values.replayedBatches,
        quarantined: values.quarantinedBatches,
      })
    }\n`,
    [DATA_PATHS.schema]: `${
      JSON.stringify({
        applied: ["0001", "0002"],
        expected: [{ id: values.migration, table: "ledger_entries", column: "settled_at" }],
      })
    }\n`,
  };
  for (let page = 1; page <= pages; page++) files[DATA_PATHS.page(page)] = ledgerPage(random, page);
  return { files, syncLog: sync, regionalLog: regional, pages };
}
