/**
 * The seeded particulars of one ledger-svc story: dates, ids, counts and names that the outputs
 * print and the facts probe. Each is chosen once here, so every text that states a value states
 * the same one, and two seeds tell different stories.
 *
 * @module
 */
import { SeededRandom } from "../../../sample/random.ts";

/** The non-Latin language the gateway's regional log is written in. */
export type RegionalLanguage = "ja" | "ru" | "ko";

/** Everything a ledger-svc story states that changes with the seed. */
export interface LedgerValues {
  /** The night whose sync the user asks about, `YYYY-MM-DD`. */
  readonly night: string;
  readonly shard: number;
  /** The batch whose checksum mismatch the sync log reports first. */
  readonly checksumBatch: string;
  /** Other batches with the same kind of mismatch. */
  readonly otherChecksumBatches: readonly string[];
  /** The ledger whose balance the Chinese reconciliation line reports off. */
  readonly unbalancedLedger: string;
  readonly balanceDelta: string;
  readonly maxRetries: number;
  /** The assistant's decision numbers, e.g. 4 for `D-4`. */
  readonly retryDecision: number;
  readonly batchSizeDecision: number;
  readonly batchSize: number;
  readonly failedTests: number;
  readonly passedTests: number;
  /** The release branch the failing CI run was on. */
  readonly branch: string;
  readonly failedRunId: number;
  readonly failedJob: string;
  readonly ticket: string;
  readonly migration: string;
  readonly prTitle: string;
  readonly regionalLanguage: RegionalLanguage;
  readonly regionalQueue: string;
  readonly regionalPending: number;
  readonly replayedBatches: number;
  readonly quarantinedBatches: number;
  readonly quarantineGauge: number;
  readonly wheelVersion: string;
  /** How many filler pages of ledger entries each turn prints. */
  readonly fillerPages: readonly number[];
}

const JOBS = ["migrate-ledger", "contract-tests", "build-wheel", "schema-check"];
const PR_TITLES = [
  "ledger: restore the last retry",
  "sync: quarantine failed batches",
  "replay: never drop a failed batch",
];

/** The values of the story for `seed`. */
export function ledgerValues(seed: number): LedgerValues {
  const random = new SeededRandom(seed * 7919 + 17);
  const batch = () => `B-${random.range(4000, 4999)}`;
  const checksumBatch = batch();
  const otherChecksumBatches = [batch(), batch()].filter((id) => id !== checksumBatch);
  const maxRetries = random.range(5, 8);
  const retryDecision = random.range(2, 6);
  return {
    night: `2026-11-${String(random.range(20, 28)).padStart(2, "0")}`,
    shard: random.range(3, 9),
    checksumBatch,
    otherChecksumBatches,
    unbalancedLedger: `L-${random.range(100, 999)}`,
    balanceDelta: `${random.range(11, 99)}.${String(random.range(0, 99)).padStart(2, "0")}`,
    maxRetries,
    retryDecision,
    batchSizeDecision: retryDecision + random.range(3, 6),
    batchSize: random.pick([200, 250, 400, 500]),
    failedTests: random.range(2, 3),
    passedTests: random.range(120, 160),
    branch: `release/2.${random.range(10, 19)}`,
    failedRunId: random.range(81000, 89999),
    failedJob: random.pick(JOBS),
    ticket: `OPS-${random.range(5000, 5999)}`,
    migration: `00${random.range(31, 59)}`,
    prTitle: random.pick(PR_TITLES),
    regionalLanguage: random.pick(["ja", "ru", "ko"] as const),
    regionalQueue: `q-${random.range(10, 40)}`,
    regionalPending: random.range(300, 900),
    replayedBatches: random.range(900, 1900),
    quarantinedBatches: random.range(3, 9),
    quarantineGauge: random.range(11, 49),
    wheelVersion: `2.${random.range(10, 19)}.${random.range(0, 9)}`,
    fillerPages: [random.range(1, 2), random.range(1, 2), random.range(2, 3), random.range(6, 7)],
  };
}
