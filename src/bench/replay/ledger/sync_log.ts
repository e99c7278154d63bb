/**
 * The nightly sync's log, as `python -m ledger.sync --replay-log` prints it: about 36,000
 * characters (over 40 KB in UTF-8, a third of it the gateway's Chinese lines) of routine INFO,
 * DEBUG and WARN lines, with level-tagged errors (ERROR, FATAL, CRITICAL, PANIC, FAIL and the
 * Chinese `[错误]`) deep in its second half. The command exits 0 all the same.
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";
import type { LedgerValues } from "./values.ts";

/** The log, and its error lines without their timestamps. */
export interface SyncLog {
  readonly text: string;
  readonly errorLines: readonly string[];
}

/** Characters of log the command prints, about (the terminal result stays under Hermes's
 * 38,400-character spill size on a 64K window). */
const LOG_CHARS = 35_500;

function uuid(random: SeededRandom): string {
  return `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-a${random.hex(3)}-${random.hex(12)}`;
}

function routineLine(random: SeededRandom, values: LedgerValues): string {
  const worker = random.range(1, 8);
  const roll = random.next();
  if (roll < 0.34) {
    return `INFO  [网关] 已将请求转发到上游账本服务 route=/v2/ledgers/${random.range(100, 999)}` +
      ` 耗时=${random.range(8, 90)}ms 状态=200`;
  }
  if (roll < 0.62) {
    return `INFO  [sync.worker-${worker}] committed chunk c${random.range(10000, 99999)} ` +
      `(${values.batchSize} entries) in ${random.range(300, 1400)}ms`;
  }
  if (roll < 0.78) {
    return `DEBUG [ledger.db] checkpoint lsn=${random.hex(8)} flushed ${random.range(2, 64)} pages`;
  }
  if (roll < 0.9) {
    return `INFO  [scheduler] shard ${random.range(1, 12)} heartbeat ok (lag ${
      random.range(0, 40)
    }s)`;
  }
  return `WARN  [sync.worker-${worker}] slow upstream response ${random.range(1500, 4000)}ms ` +
    `for page ${random.range(1, 400)}`;
}

function errorLines(random: SeededRandom, values: LedgerValues): string[] {
  const worker = () => random.range(1, 8);
  const checksum = (batch: string) =>
    `ERROR [sync.worker-${worker()}] batch ${batch} checksum mismatch: expected ${
      random.hex(8)
    } got ${random.hex(8)}`;
  const contract = () =>
    `FAIL  [contract] GET /v2/ledgers/${random.range(100, 999)}/entries returned 502 after ${
      random.range(3, 6)
    } attempts`;
  const limited = () =>
    `ERROR [sync.worker-${worker()}] upstream 429 rate limited; retry ${
      random.range(1, values.maxRetries)
    } of ${values.maxRetries} in ${random.range(200, 3200)}ms`;
  const index = random.range(8, 24);
  return [
    checksum(values.checksumBatch),
    limited(),
    `FATAL [ledger.db] connection pool exhausted after 30s (pool=ledger-primary, waiters=${
      random.range(9, 40)
    })`,
    contract(),
    ...values.otherChecksumBatches.map(checksum),
    `[错误] [网关] 上游响应超时 request_id=${uuid(random)}`,
    `CRITICAL [scheduler] lease lost for job nightly-sync-${values.shard} (owner=node-${
      random.pick(["a", "b", "c"])
    })`,
    limited(),
    `PANIC [replayer] runtime error: index out of range [${index}] with length ${index}`,
    contract(),
    `[错误] [对账] 账本 ${values.unbalancedLedger} 余额不一致，差额 ${values.balanceDelta}`,
  ];
}

/** The log of `values.night`, its error lines in the second half (from 55% to 95% of it). */
export function syncLog(random: SeededRandom, values: LedgerValues): SyncLog {
  const body: string[] = [
    `INFO  [sync] night ${values.night} starting: shards 1-12, 8 workers, max_retries=${values.maxRetries}`,
  ];
  let size = 0;
  while (size < LOG_CHARS) {
    const line = routineLine(random, values);
    body.push(line);
    size += line.length + 26;
  }
  const errors = errorLines(random, values);
  const slots = errors.map(() => Math.floor(body.length * (0.55 + 0.4 * random.next()))).sort((
    a,
    b,
  ) => a - b);
  slots.forEach((slot, index) => body.splice(slot + index, 0, errors[index]!));
  body.push(
    `INFO  [sync] night ${values.night} finished: ${
      random.range(4000, 6000)
    } chunks committed, exit status 0`,
  );
  const start = Date.parse(`${values.night}T02:00:00.000Z`);
  const lines = body.map((line, index) =>
    `${new Date(start + index * 1_733).toISOString()} ${line}`
  );
  return { text: `${lines.join("\n")}\n`, errorLines: errors };
}
