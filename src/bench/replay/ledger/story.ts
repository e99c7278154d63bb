/**
 * The replay bench's story: a four-turn session on ledger-svc. The user reports a sync that
 * "succeeded" while balances are off (turn 1: the agent reads the night's 40 KB log, the regional
 * gateway log and the retry code, and runs the failing tests); asks for a fix under two rules
 * (turn 2: patch, passing tests, diff, commit, the CI listing, expected non-zero exits, metrics
 * too large to keep inline); asks for the backfill with a decision and a request for later
 * (turn 3: a skill, a background replay, memory, a todo list, a sub-agent, a new test, a V4A
 * patch, failing commands with several exit codes, a killed job); and finally asks about the
 * release branch the CI listing named and what is left (turn 4). Pages of ledger entries between
 * the steps make a 64K window compact several times.
 *
 * Facts are planted where real sessions carry them: in the user's requests, in what the
 * assistant says with its calls and at the end of its turns, and deep in tool output.
 *
 * @module
 */
import { SeededRandom } from "../../../sample/random.ts";
import type { ToolAction } from "../story/action.ts";
import {
  backgroundTerminal,
  delegateTask,
  executeCode,
  executeCodeOnPersisted,
  expectedNonZero,
  gitCommit,
  memoryAdd,
  patchReplace,
  patchV4a,
  processAction,
  readFile,
  searchFiles,
  skillView,
  terminal,
  todoWrite,
  writeFile,
} from "../story/catalogue.ts";
import type { FactSource, PlantedFact, ProbeCategory, RecordedProbe } from "../story/fact.ts";
import { callId, type Story, type StoryStep, type StoryTurn } from "../story/story.ts";
import { DATA_PATHS, ledgerProject } from "./project_files.ts";
import { quarantineLine } from "./metrics_dump.ts";
import {
  callSites,
  DROP_LOG,
  DROP_POLICY,
  QUARANTINE_LOG,
  QUARANTINE_POLICY,
  RETRY_BUG,
  RETRY_FIX,
} from "./python_sources.ts";
import { REGIONAL_TAIL_LINES } from "./regional_log.ts";
import { RELEASE_SKILL, RELEASE_SKILL_PATH, releaseSkill } from "./release_skill.ts";
import { ledgerValues } from "./values.ts";
import {
  INCIDENT_PATH,
  incidentNote,
  PAGES_TABLE_PATH,
  pagesTable,
  RELEASE_NOTES_PATH,
  releaseNotes,
  replayRunbook,
  RUNBOOK_PATH,
} from "./written_documents.ts";

/** A step before the story is numbered: its key, and its action once every step has a number. */
interface Draft {
  readonly key: string;
  readonly note: string;
  action(indexOf: (key: string) => number): ToolAction;
}

/** A turn before numbering. */
interface DraftTurn {
  readonly prompt: string;
  readonly steps: readonly Draft[];
  readonly closing: string;
}

/** A fact before numbering: its sources name steps by key. */
interface DraftFact {
  readonly id: string;
  readonly category: ProbeCategory;
  readonly description: string;
  readonly probes: readonly string[];
  readonly recorded?: readonly { readonly key: string; readonly pattern: RegExp }[];
  readonly sources: readonly DraftSource[];
}

type DraftSource =
  | { readonly kind: "user" | "closing"; readonly turn: number }
  | { readonly kind: "note" | "result" | "call"; readonly key: string };

function step(key: string, action: ToolAction, note: string): Draft {
  return { key, note, action: () => action };
}

const FILLER_NOTES = [
  (page: number) =>
    `Cross-checking the ledger entries on page ${page} against the accounts finance flagged; ` +
    "the totals there should match what the upstream API reports.",
  (page: number) =>
    `Paging through the entries (page ${page}) to see whether the unsettled amounts cluster ` +
    "on one shard or one currency.",
  (page: number) =>
    `Reading page ${page} of the ledger dump; entries that stayed pending after the sync would ` +
    "show up here.",
];

const PYTEST = "python -m pytest -q tests";
const GIT_STATUS = "git status --short";

/** The story for `seed`: the same seed always gives the same story, byte for byte. */
export function ledgerStory(seed: number): Story {
  const values = ledgerValues(seed);
  const random = new SeededRandom(seed);
  const project = ledgerProject(random, values);
  const { night, shard, branch, migration, maxRetries: retries } = values;
  const tally = `${values.failedTests} failed, ${values.passedTests} passed`;
  const backfillTest = `tests/test_backfill_shard${shard}.py`;
  const backfillPytest = `python -m pytest -q ${backfillTest}`;
  const sites = callSites(project.files, "fetch_page");
  const delegatedGoal = "List every call site of ledger.client.fetch_page in this repository.";
  const delegatedAnswer = `${sites.length} call sites: ${sites.join(", ")}.`;
  const retryDecision = `Decision D-${values.retryDecision}: keep max_retries at ${retries}`;
  const batchDecision =
    `Decision D-${values.batchSizeDecision}: keep --batch-size ${values.batchSize}`;
  let page = 0;
  const fillers = (turn: number): Draft[] =>
    Array.from({ length: values.fillerPages[turn] ?? 0 }, () => {
      page += 1;
      const note = random.pick(FILLER_NOTES)(page);
      return random.chance(0.7)
        ? step(
          `page-${page}`,
          terminal(`python -m ledger.dump --page ${page}`, { exitCode: 0 }),
          note,
        )
        : step(`page-${page}`, readFile(DATA_PATHS.page(page)), note);
    });
  /** `fixed` with `extra` put at seeded places between its steps (never before the first). */
  const interleave = (fixed: readonly Draft[], extra: readonly Draft[], keepTogether: string[]) => {
    const out = [...fixed];
    for (const draft of extra) {
      let at = 1 + random.int(out.length);
      while (at < out.length && keepTogether.includes(out[at]!.key)) at += 1;
      out.splice(at, 0, draft);
    }
    return out;
  };

  const turns: DraftTurn[] = [
    {
      prompt: `The nightly ledger sync for ${night} reported success, but finance says some ` +
        "balances are off. Find out what went wrong; the service code is in " +
        "ledger/ and the logs are under var/log/.",
      steps: interleave(
        [
          step(
            "readme",
            readFile("README.md"),
            "Starting with the README to see how the sync is run and where it writes " +
              "its logs, so I know which commands reproduce what the nightly job did.",
          ),
          step(
            "git-log",
            terminal("git log --oneline -5", { exitCode: 0 }, { workdir: "ledger" }),
            "Checking what changed recently in ledger/: a sync that used to balance " +
              "and stopped doing so usually points at a recent change in the service.",
          ),
          step(
            "sync-log",
            terminal(`python -m ledger.sync --night ${night} --replay-log`, {
              exitCode: 0,
              shows: [values.checksumBatch, values.unbalancedLedger],
            }),
            "The sync exited 0, so its status says nothing about whether each batch " +
              "made it; reading the night's whole log, including the lines from the " +
              "gateway and the scheduler.",
          ),
          step(
            "regional-log",
            terminal(`tail -n ${REGIONAL_TAIL_LINES} ${DATA_PATHS.regionalLog}`, {
              exitCode: 0,
              shows: [project.regionalLog.backlog],
            }),
            "Some upstream timeouts come through the Asia-Pacific gateway, which logs " +
              "in its own region's language; checking the end of its log for the same " +
              "window of the night.",
          ),
          step(
            "search-retry",
            searchFiles("max_retries|retry_delays", "ledger", ["retry.py"]),
            "The rate-limit lines point at the retry budget: batches that run out of " +
              "retries are the ones that end up half synced. Finding where the budget " +
              "is set.",
          ),
          step(
            "read-retry",
            readFile("ledger/retry.py", { shows: ["retry_delays"] }),
            "Reading the retry schedule itself, to compare the number of delays it " +
              "builds with the budget the callers pass in.",
          ),
          step(
            "status-1",
            terminal(GIT_STATUS, { exitCode: 0 }),
            "Making sure the working tree is clean before running anything, so the " +
              "test results reflect the committed code and nothing half edited.",
          ),
          step(
            "pytest-fail",
            terminal(PYTEST, { exitCode: 1, shows: [tally] }),
            `${retryDecision}: the upstream limiter resets after ${retries - 1} attempts, so a ` +
              "smaller budget drops batches. The bug is elsewhere; running the tests.",
          ),
        ],
        fillers(0),
        [],
      ),
      closing: "The sync's errors trace back to the retry schedule: retry_delays() stops " +
        "one retry short, so batches that needed the last retry were half synced, " +
        "which is where " +
        `the log's mismatches come from. ${values.failedTests} tests fail on it. I have not ` +
        "changed anything yet.",
    },
    {
      prompt: "Fix it. Two rules for this repository: never edit vendor/ledger_proto " +
        "(it is generated), and keep the public signatures in ledger/client.py " +
        "unchanged.",
      steps: interleave(
        [
          step(
            "patch-retry",
            patchReplace("ledger/retry.py", RETRY_BUG.trim(), RETRY_FIX.trim()),
            "retry_delays() builds one delay too few; fixing the range so every retry gets a delay.",
          ),
          step(
            "pytest-pass",
            terminal(PYTEST, {
              exitCode: 0,
              shows: [`${values.failedTests + values.passedTests} passed`],
            }),
            "Running the whole suite again with the fix, not only the retry tests, " +
              "since the client and the sync both build on the schedule.",
          ),
          step(
            "diff",
            terminal("git diff", { exitCode: 0, shows: ["ledger/retry.py"] }),
            "Reviewing the change before committing it: it should touch one line of " +
              "the schedule and nothing in the public client.",
          ),
          step(
            "commit",
            gitCommit("retry: restore the last retry of the schedule", ["retry:"]),
            "Committing the fix on its own so it can be cherry-picked onto the " +
              "release branch without dragging anything else along.",
          ),
          step(
            "ci-runs",
            terminal("python tools/ci_api.py runs --per-page 200 --page 1", {
              exitCode: 0,
              shows: [String(values.failedRunId)],
            }),
            "Checking whether CI saw the same failure on any branch; the listing has " +
              "the last two hundred runs, newest first.",
          ),
          step(
            "status-2",
            terminal(GIT_STATUS, { exitCode: 0 }),
            "Confirming nothing else is left uncommitted after the fix, so the next " +
              "steps start from a clean tree.",
          ),
          step(
            "grep-todo",
            expectedNonZero('grep -rn "TODO(ledger)" ledger', 1),
            "Looking for known open issues the team left in the code; a TODO near the " +
              "sync or the replay would explain a lot.",
          ),
          step(
            "diff-config",
            expectedNonZero("diff -u config/staging.toml config/prod.toml", 1, ["pool_size = 40"]),
            "The connection pool ran dry during the sync; comparing the staging and " +
              "production settings to see whether the pool sizes explain it.",
          ),
          step(
            "metrics",
            terminal("python -m ledger.metrics --all", { exitCode: 0, persisted: true }),
            "Looking at the quarantine counters in the service's metrics, to see how " +
              "many batches each shard set aside during the night.",
          ),
          {
            key: "metrics-read",
            note: `${batchDecision}: bigger batches trip the upstream limiter again. The ` +
              "metrics were too large to show and were saved to a file; pulling only the " +
              "quarantine counters out of that file instead of reading all of it.",
            action: (indexOf) =>
              executeCodeOnPersisted(
                indexOf("metrics"),
                (path) =>
                  `import json\nout = json.load(open(${JSON.stringify(path)}))["output"]\n` +
                  'print("\\n".join(l for l in out.splitlines() if l.startswith("ledger_quarantine_total")))',
                [quarantineLine(values)],
              ),
          },
        ],
        fillers(1),
        ["metrics-read"],
      ),
      closing: "Fixed and committed: retry_delays() gives the full budget again and the suite " +
        `passes. Next: backfill shard ${shard} once the fix is deployed (ticket ${values.ticket}).`,
    },
    {
      prompt: `The fix is deployed. Run the replay for shard ${shard} in the background and ` +
        "check on it. My call: we quarantine failed batches, we never drop them. And before " +
        `Friday, open a PR against ${branch} titled "${values.prTitle}".`,
      steps: interleave(
        [
          step(
            "skill",
            skillView(RELEASE_SKILL, ["Cutting a ledger-svc release"]),
            "Loading the team's release checklist first, since this work ends in a " +
              "release and the checklist says which checks must pass before it.",
          ),
          step(
            "incident-note",
            writeFile(INCIDENT_PATH, incidentNote()),
            "Starting the incident note now, so what the first two turns found is written " +
              "down before the backfill changes anything.",
          ),
          step(
            "replay-start",
            backgroundTerminal(`python -m ledger.replay --shard ${shard} --quarantine`),
            "Starting the replay in the background as asked; it reads every failed " +
              "batch of the shard and takes a while.",
          ),
          {
            key: "replay-wait",
            note: "Waiting for the replay to finish before looking at its report; nothing " +
              "else depends on the shard until then.",
            action: (indexOf) =>
              processAction("wait", indexOf("replay-start"), {
                exitCode: 0,
                shows: [`replayed ${values.replayedBatches} batches`],
              }, { timeout: 60 }),
          },
          step(
            "memory",
            memoryAdd("user", "Prefers ISO-8601 dates (YYYY-MM-DD) in every report."),
            "Noting the user's preferred date format for the reports that come out of " +
              "this work, and for later sessions.",
          ),
          step(
            "todo",
            todoWrite([
              { id: "1", content: `Replay shard ${shard}`, status: "completed" },
              { id: "2", content: `Run migration ${migration} on staging`, status: "pending" },
              { id: "3", content: `Open the PR against ${branch}`, status: "pending" },
            ]),
            "Writing down what is done and what is left, so none of it gets lost " +
              "across the next steps and the release.",
          ),
          step(
            "delegate",
            delegateTask(
              delegatedGoal,
              "The repository is the current directory. Report path:line for each call.",
              [sites[1] ?? ""],
            ),
            "The public client must stay as it is, so before touching anything near " +
              "it I am asking a sub-agent to list who calls it.",
          ),
          step(
            "read-replay",
            readFile("ledger/replay.py"),
            "Reading the replay's policy for failed batches, which is where the " +
              "decision between keeping and setting aside a batch is made.",
          ),
          step(
            "write-test",
            writeFile(
              backfillTest,
              "from ledger.replay import quarantine_policy\n\n\ndef " +
                "test_failed_batches_are_quarantined():\n" +
                '    assert quarantine_policy("failed") == "quarantine"\n\n\n' +
                "def test_good_batches_are_kept():\n" +
                '    assert quarantine_policy("ok") == "keep"\n',
            ),
            "Pinning the policy down with a test before changing it, so the change is " +
              "checked by something other than my reading of the code.",
          ),
          step(
            "backfill-fail",
            terminal(backfillPytest, { exitCode: 1, shows: ["1 failed"] }),
            "The new test should fail against the current policy; if it passes, the " +
              "policy is not what the code says it is.",
          ),
          step(
            "read-sync",
            readFile("ledger/sync.py"),
            "The sync logs the same decision when a replay fails; reading it before " +
              "patching both files in one change.",
          ),
          step(
            "v4a",
            patchV4a([
              {
                path: "ledger/replay.py",
                context: ["def quarantine_policy(status):"],
                remove: [
                  '    """What happens to a batch after its replay: kept, or set aside."""',
                  DROP_POLICY,
                ],
                add: [
                  '    """What happens to a batch after its replay: kept, or set aside."""',
                  QUARANTINE_POLICY,
                ],
              },
              {
                path: "ledger/sync.py",
                context: ["        if store.replay_failed(batch_id):"],
                remove: [DROP_LOG],
                add: [QUARANTINE_LOG],
              },
            ]),
            "Patching the policy and the sync's log line together, as one change.",
          ),
          step(
            "backfill-pass",
            terminal(backfillPytest, { exitCode: 0, shows: ["2 passed"] }),
            "Running the new test again after the patch; both cases should pass now.",
          ),
          step(
            "wheel",
            expectedNonZero(`test -f dist/ledger_svc-${values.wheelVersion}.whl`, 1),
            "Checking whether a wheel for this version was built already, which the " +
              "release checklist needs before the tag.",
          ),
          step(
            "schema",
            terminal("python tools/check_schema.py --env staging", {
              exitCode: 2,
              shows: ["column settled_at missing"],
            }),
            "The checklist wants the staging schema checked against the migrations " +
              "before anything ships.",
          ),
          step(
            "drain",
            terminal(`ledgerctl drain --shard ${shard}`, { exitCode: 127 }),
            "Draining the shard so the replayed batches are picked up by the next " +
              "sync instead of waiting for the night.",
          ),
          step(
            "verify",
            terminal(`python -m ledger.replay --verify --shard ${shard}`, { exitCode: 124 }, {
              timeout: 1,
            }),
            "Verifying the shard after the replay, which compares every stored batch " +
              "with the upstream API.",
          ),
          step(
            "verify-start",
            backgroundTerminal(`python -m ledger.replay --verify --shard ${shard}`),
            "The verification is slower than a foreground call allows; running it in " +
              "the background and checking on it.",
          ),
          {
            key: "verify-poll",
            note: "Checking on the verification to see how far it got.",
            action: (indexOf) =>
              processAction("poll", indexOf("verify-start"), { shows: ["running"] }),
          },
          {
            key: "verify-kill",
            note: "A full scan takes far longer than this session should wait, and the " +
              "replay report already covers the batches that matter; stopping it.",
            action: (indexOf) => processAction("kill", indexOf("verify-start"), {}),
          },
          step(
            "status-3",
            terminal(GIT_STATUS, { exitCode: 0 }),
            "Listing what this turn changed in the working tree, to report it and to " +
              "make sure nothing outside ledger/ and tests/ was touched.",
          ),
          step(
            "count-tests",
            executeCode(countTestsCode, ["test files"]),
            "Counting the test files the suite now has, for the report.",
          ),
        ],
        fillers(2),
        ["replay-wait", "verify-poll", "verify-kill"],
      ),
      closing: `The replay finished and the backfill test passes. Left before the release: ` +
        `migration ${migration} is not applied on staging, and shard ${shard} has to be ` +
        "drained by hand because ledgerctl is not installed here.",
    },
    {
      prompt: `Did anything fail on ${branch} in CI? And what is left before Friday?`,
      steps: lastTurn(
        step(
          "ci-runs-2",
          terminal("python tools/ci_api.py runs --per-page 200 --page 2", { exitCode: 0 }),
          "Reading the older CI runs as well, to see whether the branch failed before and " +
            "whether anything else on it is red.",
        ),
        fillers(3),
        [
          step(
            "runbook",
            writeFile(RUNBOOK_PATH, replayRunbook(random)),
            "Writing down how to replay a shard while it is fresh, so the next person does not " +
              "have to reconstruct it from this session.",
          ),
          step(
            "release-notes",
            writeFile(RELEASE_NOTES_PATH, releaseNotes()),
            "Drafting the release notes for the branch while the details are at hand; the " +
              "pull request can link to them.",
          ),
          step(
            "pages-table",
            writeFile(
              PAGES_TABLE_PATH,
              pagesTable(pageTexts(project.files, project.pages), random),
            ),
            "Recording which ledger pages I reviewed and what each one held, for finance.",
          ),
        ],
      ),
      closing: `On ${branch}, CI run ${values.failedRunId} failed in ${values.failedJob}. Left ` +
        `before Friday: migration ${migration} on staging, draining shard ${shard}, and the PR.`,
    },
  ];

  const facts: DraftFact[] = [
    {
      id: "sync-log-checksum",
      category: "recall",
      description: "first checksum mismatch in the night's log, deep in a command that exited 0",
      probes: [values.checksumBatch, "checksum mismatch"],
      sources: [{ kind: "result", key: "sync-log" }],
    },
    {
      id: "sync-log-balance",
      category: "recall",
      description: "the Chinese [错误] reconciliation line naming the unbalanced ledger",
      probes: [values.unbalancedLedger, "余额不一致"],
      sources: [{ kind: "result", key: "sync-log" }],
    },
    {
      id: "regional-backlog",
      category: "recall",
      description: "the queue and backlog of the regional gateway's timeout (non-Latin log)",
      probes: [values.regionalQueue, project.regionalLog.backlog],
      sources: [{ kind: "result", key: "regional-log" }],
    },
    {
      id: "pytest-tally",
      category: "recall",
      description: "the failing test run's tally",
      probes: [tally],
      sources: [{ kind: "result", key: "pytest-fail" }],
    },
    {
      id: "ci-failure",
      category: "recall",
      description: "the one failed CI run among 200 and its failed job",
      probes: [String(values.failedRunId), values.failedJob],
      sources: [{ kind: "result", key: "ci-runs" }],
    },
    {
      id: "quarantine-gauge",
      category: "recall",
      description: "the shard's quarantine counter, read back from the persisted metrics",
      probes: [quarantineLine(values)],
      sources: [{ kind: "result", key: "metrics-read" }],
    },
    {
      id: "replay-result",
      category: "recall",
      description: "what the background replay reported when it ended",
      probes: [`replayed ${values.replayedBatches} batches`],
      sources: [{ kind: "result", key: "replay-wait" }],
    },
    {
      id: "call-sites",
      category: "recall",
      description: "a call site the sub-agent found",
      probes: [sites[1] ?? "no call site"],
      sources: [{ kind: "result", key: "delegate" }],
    },
    {
      id: "schema-error",
      category: "recall",
      description: "the schema check's error (exit 2)",
      probes: ["column settled_at missing"],
      sources: [{ kind: "result", key: "schema" }],
    },
    {
      id: "diff-index",
      category: "artifact",
      description: "the blob ids of the retry fix's diff",
      probes: [],
      recorded: [{ key: "diff", pattern: /index [0-9a-f]{7,}\.\.[0-9a-f]{7,}/ }],
      sources: [{ kind: "result", key: "diff" }],
    },
    {
      id: "commit-hash",
      category: "artifact",
      description: "the commit of the retry fix",
      probes: [],
      recorded: [{ key: "commit", pattern: /\[main ([0-9a-f]{7,})\]/ }],
      sources: [{ kind: "result", key: "commit" }],
    },
    {
      id: "spill-path",
      category: "artifact",
      description: "the file Hermes saved the metrics to, the only way back to them",
      probes: ["spillover/", `${"CALL_ID:metrics"}.txt`],
      sources: [{ kind: "result", key: "metrics" }, { kind: "call", key: "metrics-read" }],
    },
    {
      id: "skill-loaded",
      category: "artifact",
      description: "the skill the session loaded",
      probes: [RELEASE_SKILL],
      sources: [{ kind: "call", key: "skill" }, { kind: "result", key: "skill" }],
    },
    {
      id: "written-test",
      category: "artifact",
      description: "the test file the session wrote",
      probes: [backfillTest],
      sources: [
        { kind: "call", key: "write-test" },
        { kind: "result", key: "write-test" },
        { kind: "call", key: "backfill-fail" },
        { kind: "result", key: "backfill-fail" },
        { kind: "call", key: "backfill-pass" },
        { kind: "result", key: "backfill-pass" },
      ],
    },
    {
      id: "next-ticket",
      category: "continuation",
      description: "the ticket the assistant named as the next step",
      probes: [values.ticket],
      sources: [{ kind: "closing", turn: 1 }],
    },
    {
      id: "pr-request",
      category: "continuation",
      description: "the pull request the user asked for, by title",
      probes: [values.prTitle],
      sources: [{ kind: "user", turn: 2 }],
    },
    {
      id: "todo-migration",
      category: "continuation",
      description: "the pending migration on the todo list",
      probes: [`Run migration ${migration} on staging`],
      sources: [{ kind: "call", key: "todo" }, { kind: "result", key: "todo" }],
    },
    {
      id: "drain-by-hand",
      category: "continuation",
      description: "what the assistant said is left to do by hand",
      probes: ["drained by hand"],
      sources: [{ kind: "closing", turn: 2 }],
    },
    {
      id: "retry-decision",
      category: "decision",
      description: "the assistant's decision on the retry budget",
      probes: [`D-${values.retryDecision}:`, `max_retries at ${retries}`],
      sources: [{ kind: "note", key: "pytest-fail" }],
    },
    {
      id: "vendor-rule",
      category: "decision",
      description: "the user's rule on the generated vendor package",
      probes: ["never edit vendor/ledger_proto"],
      sources: [{ kind: "user", turn: 1 }],
    },
    {
      id: "never-drop",
      category: "decision",
      description: "the user's decision on failed batches",
      probes: ["we never drop them"],
      sources: [{ kind: "user", turn: 2 }],
    },
    {
      id: "batch-size-decision",
      category: "decision",
      description: "the assistant's decision on the replay's batch size",
      probes: [`D-${values.batchSizeDecision}:`, `--batch-size ${values.batchSize}`],
      sources: [{ kind: "note", key: "metrics-read" }],
    },
  ];
  return numberStory({
    seed,
    turns,
    facts,
    files: project.files,
    skills: { [RELEASE_SKILL_PATH]: releaseSkill(values) },
    delegated: [{ goal: delegatedGoal, answer: delegatedAnswer }],
    errorLines: [...project.syncLog.errorLines, project.regionalLog.errorLine],
  });
}

/**
 * The last turn's steps: the CI listing, the runbook and the release notes, then the pages, the
 * table of reviewed pages before the last one. The documents come first so that the text Hermes
 * cannot prune after its summaries is large enough for its later compactions to cut a window.
 */
function lastTurn(listing: Draft, pages: readonly Draft[], documents: readonly Draft[]): Draft[] {
  const table = documents.at(-1)!;
  return [listing, ...documents.slice(0, -1), ...pages.slice(0, -1), table, ...pages.slice(-1)];
}

/** The text of every page of ledger entries, in order. */
function pageTexts(files: Readonly<Record<string, string>>, pages: number): string[] {
  return Array.from({ length: pages }, (_, index) => files[DATA_PATHS.page(index + 1)] ?? "");
}

const countTestsCode = "import pathlib\n" +
  'files = sorted(pathlib.Path("tests").glob("test_*.py"))\n' +
  'print(f"{len(files)} test files:", ", ".join(f.name for f in files))';

interface Drafted {
  readonly seed: number;
  readonly turns: readonly DraftTurn[];
  readonly facts: readonly DraftFact[];
  readonly files: Readonly<Record<string, string>>;
  readonly skills: Readonly<Record<string, string>>;
  readonly delegated: Story["delegated"];
  readonly errorLines: readonly string[];
}

/** Numbers the drafted steps across turns and resolves every key to its step. */
function numberStory(drafted: Drafted): Story {
  const index = new Map<string, number>();
  for (const draft of drafted.turns.flatMap((turn) => turn.steps)) {
    if (index.has(draft.key)) throw new Error(`Story step key ${draft.key} is used twice`);
    index.set(draft.key, index.size);
  }
  const indexOf = (key: string): number => {
    const found = index.get(key);
    if (found === undefined) throw new Error(`Story step key ${key} names no step`);
    return found;
  };
  const turns: StoryTurn[] = drafted.turns.map((turn) => ({
    prompt: turn.prompt,
    closing: turn.closing,
    steps: turn.steps.map((draft): StoryStep => ({
      action: draft.action(indexOf),
      note: draft.note,
    })),
  }));
  const facts = drafted.facts.map((fact): PlantedFact => {
    const recorded = (fact.recorded ?? []).map((probe): RecordedProbe => ({
      step: indexOf(probe.key),
      pattern: probe.pattern,
    }));
    return {
      id: fact.id,
      category: fact.category,
      description: fact.description,
      probes: fact.probes.map((probe) =>
        probe.replace(/CALL_ID:([\w-]+)/, (_, key: string) => callId(indexOf(key)))
      ),
      ...(recorded.length > 0 ? { recordedProbes: recorded } : {}),
      sources: fact.sources.map((source): FactSource =>
        "key" in source ? { kind: source.kind, step: indexOf(source.key) } : source
      ),
    };
  });
  return {
    name: "ledger-svc",
    seed: drafted.seed,
    turns,
    facts,
    files: drafted.files,
    skills: drafted.skills,
    delegated: drafted.delegated,
    errorLines: drafted.errorLines,
  };
}
