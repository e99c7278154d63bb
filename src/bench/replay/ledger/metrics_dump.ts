/**
 * Every gauge and counter of the service in Prometheus text form, as `python -m ledger.metrics
 * --all` prints it: about 40,000 characters, more than Hermes keeps in a 64K window, so Hermes
 * saves the result to a spillover file and shows only its start. The quarantine counters come
 * late in it.
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";
import type { LedgerValues } from "./values.ts";

const METRICS_CHARS = 40_000;
const SHARDS = 12;

/** The line of the quarantine counter of `values.shard`, as the dump prints it. */
export function quarantineLine(values: LedgerValues): string {
  return `ledger_quarantine_total{shard="${values.shard}"} ${values.quarantineGauge}`;
}

/** The dump. */
export function metricsDump(random: SeededRandom, values: LedgerValues): string {
  const lines: string[] = [];
  let size = 0;
  const families = [
    "ledger_sync_lag_seconds",
    "ledger_upstream_latency_ms",
    "ledger_db_pool_in_use",
  ];
  while (size < METRICS_CHARS * 0.8) {
    const family = random.pick(families);
    const line = `${family}{shard="${random.range(1, SHARDS)}",node="${
      random.pick(["a", "b", "c"])
    }",window="${random.range(1, 60)}m"} ${random.range(0, 5000)}.${random.range(0, 9)}`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push("# HELP ledger_quarantine_total Batches set aside for replay.");
  for (let shard = 1; shard <= SHARDS; shard++) {
    lines.push(
      shard === values.shard
        ? quarantineLine(values)
        : `ledger_quarantine_total{shard="${shard}"} ${random.range(0, 9)}`,
    );
  }
  while (size < METRICS_CHARS) {
    const line = `ledger_batches_committed_total{shard="${random.range(1, SHARDS)}",night="${
      random.range(1, 30)
    }"} ${random.range(100, 9000)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}
