/**
 * The facts a tool's output states that a later step may need and no other line of a projection
 * keeps: a commit's hash (git's line for a commit it made, or a hash it printed alone), where git's
 * work left the branch (a bisect's result, a rebase, a reset, a checkout or a push: no commit
 * made), a diff's files (each with the lines it adds and removes and its index line's blobs), a
 * test run's tally, what a background job that ended printed last and what a delegated task
 * reported (a result's `summary`), the skill a session loaded, the failed items of a long listing
 * and the failed rows of a table, and the lines of a long output that the user's requests point at
 * (`shard 4`, `OPS-5609`). Read from the output by the rules below, the one place they are
 * described.
 *
 * @module
 */
import { isRecord } from "./content.ts";
import { cut } from "./excerpt.ts";
import type { ToolEvent } from "./events.ts";
import { COMMAND_TOOLS, JOB_OUTPUT_FIELDS, PROCESS_TOOLS, SKILL_TOOL } from "./hermes.ts";
import type { Row } from "./message.ts";
import type { Outcome } from "./outcome.ts";
import { isFailure } from "./outcome_words.ts";
import { SOME_FAILURES } from "./error_lines.ts";
import { isUserRequest } from "./requests.ts";
import { remembered } from "./remembered.ts";
import { sanitizeInline, withoutOverwrites } from "./sanitize.ts";
import { shellSegments, shellStep, subcommandOf } from "./shell_words.ts";
import { headAndTail, lineAt, lineCount, markedLines } from "./text_lines.ts";
import { type DiffFile, diffFiles } from "./unified_diff.ts";

/** What an output fact is. */
export type OutputFactKind =
  | "commit"
  | "git result"
  | "hash"
  | "saved"
  | "diff"
  | "tally"
  | "report"
  | "skill"
  | "failed item"
  | "pointed";

/** One fact of an output: its kind and the line that states it (sanitised). */
export interface OutputFact {
  readonly kind: OutputFactKind;
  readonly text: string;
}

// git's line for a commit it made (`[main 0490c43] message`), at the start of any line of an output.
const COMMIT_LINE = /^\[[^\]\s]{1,200} (?:\(root-commit\) )?[0-9a-f]{7,40}\] .*$/gm;
// A hash git printed on a line of its own (`git rev-parse HEAD`, `git log --format=%H`, `git log`'s
// `commit …` line): a commit's, or a tree's or a blob's (`git merge-tree --write-tree`).
const HASH_LINE = /^(?:commit )?[0-9a-f]{7,40}$/gm;
// Where a test runner saved its report, the way back to the failures it lists: Gradle's
// (`> There were failing tests. See the report at: file:///a/build/reports/tests/test/index.html`),
// pytest's (`- generated xml file: /a/junit.xml -`), and the marks that find them fast.
const SAVED_REPORT =
  /^(?:> )?(?:There were failing tests\. )?See the report at: \S+$|^-* ?generated xml file: \S+(?: -*)?$/gm;
const SAVED_REPORT_MARKS = ["report at: ", "xml file: "];
// git's lines for where its work left the branch, each with the subcommands that print it: the
// commit a bisect found, a rebase that ended, a reset, a checkout or a stash, a push's update of a
// remote branch (`5e2a9c1… is the first bad commit`, `Successfully rebased and updated
// refs/heads/fix`, `HEAD is now at 7b3e5f0 Merge …`, `   b90c6e4..7c5e2b8  main -> main`,
// ` * [new branch]      fix -> fix`). A push asked for a dry run (`-n`, `--dry-run`) moved nothing.
const GIT_RESULTS: ReadonlyArray<{ readonly by: ReadonlySet<string>; readonly line: RegExp }> = [
  { by: new Set(["bisect"]), line: /^[0-9a-f]{7,40} is the first bad commit$/gm },
  { by: new Set(["rebase", "pull"]), line: /^Successfully rebased and updated \S+$/gm },
  {
    by: new Set(["reset", "checkout", "switch", "stash", "rebase", "merge"]),
    line: /^HEAD is now at [0-9a-f]{7,40}\b.*$/gm,
  },
  {
    by: new Set(["push"]),
    line:
      /^(?:[ \t]*[+ ]?[ \t]*[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}[ \t]+\S+ -> \S+.*|[ \t]*\* \[new (?:branch|tag)\][ \t]+\S+ -> \S+)$/gm,
  },
];
const DRY_RUN = /^(?:-n|--dry-run)$/;
// What pytest counts in its tally (`2 failed, 140 passed, 1 warning in 3.1s`), and Vitest.
const TALLY_WORDS = "passed|failed|errors?|skipped|xfailed|xpassed|deselected";
const VITEST_WORDS = "failed|passed|skipped|todo";
// What Playwright and Mocha count on a line of its own besides pytest's words, and such a line.
const PART_TALLY_WORDS = "flaky|interrupted|did not run|passing|failing|pending";
const PART_TALLY = String.raw`\d+ (?:passed|failed|skipped|${PART_TALLY_WORDS})(?: \([\d.]+m?s\))?`;
// How Maven Surefire's tally begins, after Maven's level tag (`[INFO] `, `[ERROR] `).
const MAVEN_TAG = String.raw`(?:\[[A-Z]+\] )?`;
const SUREFIRE_TALLY = "Tests run: ";
// The forms of a test run's tally line, each with where it must stand in the line, and a part of
// it that every line holding it holds, written to be found fast (its first characters fixed).
// (The count is looked behind, so a search for the form starts at its word, not at every digit.)
const TALLY_FORMS: ReadonlyArray<{ form: string; start?: true; end?: true; mark: string }> = [
  // pytest's counts make the whole line (`2 failed, 140 passed, 1 warning in 3.1s`).
  {
    form: String
      .raw`(?<=^\d+ )(?:${TALLY_WORDS})(?:, \d+ (?:${TALLY_WORDS}|warnings?))*(?: in [\d.]+ ?s\b.*)?`,
    end: true,
    mark: String.raw`\d (?:${TALLY_WORDS})`,
  },
  { form: String.raw`Ran \d+ tests? in `, start: true, mark: String.raw`Ran \d` },
  // Gradle's for a test task (`47 tests completed, 1 failed, 2 skipped`).
  {
    form: String.raw`\d+ tests? completed(?:, \d+ (?:failed|skipped))*`,
    start: true,
    end: true,
    mark: " completed",
  },
  {
    form: String.raw`(?:OK|FAILED) \((?:failures|errors|skipped)=`,
    start: true,
    mark: String.raw`(?:OK|FAILED) \(`,
  },
  { form: String.raw`Tests?:\s.*\d+ total`, start: true, mark: String.raw`Tests?:[^\S\n]` },
  { form: String.raw`test result: `, start: true, mark: "test result: " },
  {
    form: String.raw`(?:ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\)|\[(?:build|setup) failed\])`,
    start: true,
    end: true,
    mark: String.raw`(?:ok|FAIL)[^\S\n]`,
  },
  {
    form: String.raw`\d+% tests passed, \d+ tests? failed out of \d+`,
    start: true,
    mark: "% tests passed, ",
  },
  // Maven Surefire's for a module, after Maven's level tag (a test class's line goes on with the
  // time it took, and is none).
  {
    form: String.raw`${MAVEN_TAG}${SUREFIRE_TALLY}\d+, Failures: \d+, Errors: \d+, Skipped: \d+`,
    start: true,
    end: true,
    mark: String.raw`${SUREFIRE_TALLY}\d`,
  },
  // Playwright's and Mocha's, a count a line (`  1 failed`, `  1 flaky`, `  41 passed (38.2s)`;
  // `  2 passing (15ms)`, `  1 failing`): each a part of the run's tally.
  {
    form: PART_TALLY,
    start: true,
    end: true,
    mark: String.raw`\d (?:${PART_TALLY_WORDS})`,
  },
  // RSpec's (`312 examples, 3 failures, 2 pending`), and with errors outside examples.
  {
    form: String
      .raw`\d+ examples?, \d+ failures?(?:, \d+ pending)?(?:, \d+ errors? occurred outside of examples)?`,
    start: true,
    end: true,
    mark: String.raw`\d examples?, \d`,
  },
  // Vitest's (`Tests  2 failed | 87 passed (89)`).
  {
    form: String
      .raw`Tests {2}\d+ (?:${VITEST_WORDS})(?: \| \d+ (?:${VITEST_WORDS}))* \(\d+\)`,
    start: true,
    end: true,
    mark: String.raw`Tests {2}\d`,
  },
  // A checker's count of what it found: mypy's (`Found 3 errors in 2 files (checked 12 source
  // files)`, `Success: no issues found in 12 source files`), Ruff's (`Found 3 errors.`), ESLint's
  // (`✖ 5 problems (3 errors, 2 warnings)`).
  {
    form: String
      .raw`Found \d+ errors?(?: in \d+ files? \(checked \d+ source files?\)|\.)|Success: no issues found in \d+ source files?`,
    start: true,
    end: true,
    mark: String.raw`Found \d|Success: no issues found`,
  },
  // Valgrind's, after the process id it writes on each line (`==12345== ERROR SUMMARY: 0 errors
  // from 0 contexts (suppressed: 0 from 0)`).
  {
    form: String.raw`(?:==\d+== )?ERROR SUMMARY: \d+ errors? from \d+ contexts?`,
    start: true,
    mark: "ERROR SUMMARY: ",
  },
  {
    form: String.raw`✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)`,
    start: true,
    end: true,
    mark: String.raw`✖ \d`,
  },
  // What Terraform's plan would change and what an apply or a destroy changed (`Plan: 0 to add, 1
  // to change, 0 to destroy.`, `Apply complete! Resources: 1 added, 0 changed, 0 destroyed.`).
  {
    form: String
      .raw`Plan: \d+ to (?:import|add)(?:, \d+ to (?:add|change|destroy))+\.|(?:Apply|Destroy) complete! Resources: \d+ (?:imported|added|destroyed)`,
    start: true,
    mark: String.raw`Plan: \d|complete! Resources: `,
  },
];
/**
 * The line a test run ends with, counting what passed and failed: pytest's `2 failed, 140 passed
 * in 3.1s`, unittest's `Ran 12 tests in 0.4s` and `FAILED (failures=2)`, Jest's `Tests: 2 failed,
 * 40 total`, cargo's `test result: FAILED. 3 passed; 1 failed`, Go's `FAIL\tpkg\t0.1s` (or
 * `[build failed]`), CTest's `95% tests passed, 1 tests failed out of 20`, Maven Surefire's `Tests
 * run: 42, Failures: 2, Errors: 0, Skipped: 1`, Vitest's `Tests  2 failed | 87 passed (89)`, each
 * count of Playwright's and Mocha's (`1 failed`, `41 passed (38.2s)`, `1 failing`), RSpec's `312
 * examples, 3 failures, 2 pending`; and
 * the like line of a checker (mypy's `Found 3 errors in 2 files (checked 12 source files)`, Ruff's,
 * ESLint's, Valgrind's `ERROR SUMMARY: 0 errors from 0 contexts`) and of Terraform (`Plan: 0 to add, 1 to change, 0 to destroy.`).
 */
export const TALLY: RegExp = new RegExp(
  TALLY_FORMS.map(({ form, start, end }) => `${start ? "^" : ""}${form}${end ? "$" : ""}`)
    .join("|"),
);
// What every tally line holds: each form's mark (one pass over a text finds the lines to test).
const TALLY_MARK = new RegExp(TALLY_FORMS.map(({ mark }) => mark).join("|"), "g");
/**
 * The last `most` lines of `text` that are a test run's {@linkcode TALLY} (rules around them left
 * on), in the order printed; more than the last only after a target's tally (cargo tallies its unit
 * tests, then its doc-tests; Go each package). When none of them counts failures but an earlier
 * one does (Go's `FAIL` package before the `ok` ones after it), the newest that does takes the
 * place of the oldest of them.
 */
function lastTallies(text: string, most: number): string[] {
  const found: string[] = [];
  // The lines holding a tally's mark are read from the end, no further than the tallies asked
  // for, and past the last only when it is a target's (cargo's and Go's tally each; other
  // runners' last tally counts the whole run).
  const starts = markedLines(text, TALLY_MARK);
  for (let index = starts.length - 1; index >= 0; index--) {
    if (found.length === most || (found.length === 1 && !TARGET_TALLY.test(found[0] as string))) {
      break;
    }
    const line = lineAt(text, starts[index] as number);
    if (TALLY.test(withoutRules(line))) found.unshift(line);
  }
  if (found.length < most || found.some(countsFailures)) return found;
  const failing = newestFailingTally(text);
  return failing === undefined ? found : [failing, ...found.slice(1)];
}

// A tally of one test target of a run: cargo's `test result: …`, Go's `ok`/`FAIL` for a package,
// Maven Surefire's for a module; or of one part of a run's: Playwright's and Mocha's counts.
const TARGET_TALLY = new RegExp(
  String.raw`^\s*(?:test result: |(?:ok|FAIL)\s|${MAVEN_TAG}${SUREFIRE_TALLY}|${PART_TALLY}\s*$)`,
);
// The words one of which every tally that counts failures holds.
const FAILURE_WORDS = ["FAIL", " failed", " error", "Failures: ", "Errors: "];

/**
 * The newest tally of `text` that counts failures, read from the end among the lines that hold a
 * failure's word only.
 */
function newestFailingTally(text: string): string | undefined {
  // Where each word last stands before the line read; found again only once passed, so each is
  // looked for through the text once.
  const hits = FAILURE_WORDS.map((word) => text.lastIndexOf(word));
  for (let before = text.length; before > 0;) {
    FAILURE_WORDS.forEach((word, index) => {
      if ((hits[index] as number) >= before) hits[index] = text.lastIndexOf(word, before - 1);
    });
    const hit = Math.max(...hits);
    if (hit === -1) return undefined;
    const start = text.lastIndexOf("\n", hit) + 1;
    const end = text.indexOf("\n", hit);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (countsFailures(line) && TALLY.test(withoutRules(line))) return line;
    before = start - 1;
  }
  return undefined;
}

// A runner's word for a target that failed, as it writes it.
const FAILED_WORD = /\bFAIL(?:ED)?\b/;
// A count of failures Surefire writes after its word (`Failures: 2`, `Errors: 1`).
const COUNTED_FAILURES = /\b(?:Failures|Errors): [1-9]/;

/** Whether a tally line counts failures: a runner's FAIL, or a count of failures that is not 0. */
function countsFailures(line: string): boolean {
  return FAILED_WORD.test(line) || SOME_FAILURES.test(line) || COUNTED_FAILURES.test(line);
}

// Each outcome's last tallies, once read.
const TALLIES = new WeakMap<Outcome, readonly string[]>();

/**
 * The last tallies of a command's output (at most three, in the order printed; see
 * {@linkcode lastTallies}) within the head and tail read for facts. Read once per outcome for all
 * who quote them (the facts, a result's excerpt).
 */
function outputTallies(outcome: Outcome): readonly string[] {
  return remembered(
    TALLIES,
    outcome,
    () => lastTallies(headAndTail(outcome.detail, HEAD_CHARS, TAIL_CHARS), MOST_PER_KIND),
  );
}

/** The last of a command's {@linkcode outputTallies} that counts failures, if one does. */
export function failingTally(outcome: Outcome): string | undefined {
  return outputTallies(outcome).findLast(countsFailures);
}

/**
 * The tally of a command's output: the last of its {@linkcode outputTallies} that counts failures,
 * else the last.
 */
export function outputTally(outcome: Outcome): string | undefined {
  const tallies = outputTallies(outcome);
  return failingTally(outcome) ?? tallies.at(-1);
}

// The fields that hold an item's status (in any case: AWS writes `State`), and the statuses that
// say it failed.
const STATUS_FIELDS = ["status", "conclusion", "state", "result", "outcome", "phase", "health"];
const FAILED_STATUSES = [
  "failure",
  "failed",
  "error",
  "errored",
  "cancelled",
  "timed_out",
  "unhealthy",
  "degraded",
];
// An item of a listing whose status says it failed, and the whole line that holds it.
const FAILED_STATUS = new RegExp(
  `"(?:${STATUS_FIELDS.join("|")})"\\s*:\\s*"(?:${FAILED_STATUSES.join("|")})"`,
  "i",
);
const FAILED_ITEM_LINE = new RegExp(`^.*${FAILED_STATUS.source}.*$`, "gim");
// A table printed for a terminal (`kubectl get pods`, `docker ps -a`, `helm list`): a header of
// upper-case column names parted by a tab or two spaces or more, one of them a status field; each
// line after it up to a blank line is a row, its cells where the header's names stand.
const COLUMN_GAP = /\t| {2,}/;
const COLUMN_NAME = /^[A-Z][A-Z0-9_.()/-]*(?: [A-Z][A-Z0-9_.()/-]*)?$/;
const STATUS_COLUMN = new RegExp(`\\b(?:${STATUS_FIELDS.join("|").toUpperCase()})\\b`, "g");
// The states a container or a pod cannot run in, as Kubernetes writes them.
const STUCK_STATES = [
  "CrashLoopBackOff",
  "ImagePullBackOff",
  "ErrImagePull",
  "OOMKilled",
  "Evicted",
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
  "Init:Error",
  "Init:CrashLoopBackOff",
];
// A status cell that says its row failed: a failed status, a state a container cannot run in,
// Docker's exit with an error (`Exited (1) 2 minutes ago`) or its check that one is unhealthy.
const FAILED_CELL = new RegExp(
  `^(?:${
    [...FAILED_STATUSES, ...STUCK_STATES].join("|")
  })$|^Exited \\([1-9]\\d*\\)|\\(unhealthy\\)$`,
  "i",
);
// A listing printed as one JSON document is read as a document up to this size.
const MOST_DOCUMENT_CHARS = 1024 * 1024;
const DOCUMENT_START = /^\s*[{[]/;
// How deep in a document its listing is looked for (`{"data": {"runs": [...]}}` is 2 deep).
const LISTING_DEPTH = 3;
// A listing of one item a line is long enough to hide an item at this many lines; its failed
// items stand out while they are at most this share of it.
const LISTING_LINES = 20;
const FAILED_SHARE = 0.2;
// Pointers are looked for in outputs of this many lines or more (a short one is quoted anyway).
const POINTED_LINES = 10;
// The most lines one pointer may match in an output and still point at them.
const MOST_POINTED = 2;
// The most lines of one kind one output gives.
const MOST_PER_KIND = 3;
const LONGEST_FACT = 400;
// The longest text read for facts: the head and tail of a huge output hold what matters.
const HEAD_CHARS = 8000;
const TAIL_CHARS = 32000;

/** A word or name the conversation points at, as a pattern a line of output may contain. */
export type Pointer = RegExp;

// Names that carry a number (`OPS-5609`, `release/2.14`, `B-4906`), and a word followed by a
// number (`shard 4`, `run 84539`), which an output may write as `shard="4"`.
const NAME_WITH_NUMBER = /\b[A-Za-z][A-Za-z0-9]*(?:[-_/.][A-Za-z0-9]+)*[-_/.]\d[\w.-]*/g;
// A version (`Python 3.11`, `Django 4.2`) names the session's tools, which every output that
// prints its setup names too: it points at nothing.
const WORD_AND_NUMBER = /\b([A-Za-z]{3,20}) (\d{1,9})\b(?!\.\d)/g;
const HAS_WORD = /[\p{L}\p{N}]/u;
const MOST_POINTERS = 200;
// How a process result says its job ended.
const ENDED: ReadonlySet<string> = new Set(["succeeded", "failed", "killed", "relayed", "answer"]);
const LONGEST_POINTING = 600;

/**
 * What the user's requests point at: names that carry a number, and a word followed by a number
 * (`shard 4` matches `shard="4"` and `shard 4`), in requests short enough to point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pointersOf } from "./output_facts.ts";
 * const row = { role: "user", text: "Replay shard 4 and check OPS-5609." } as never;
 * const pointed = (line: string) => pointersOf([row]).some((pointer) => pointer.test(line));
 * assert.ok(pointed('ledger_quarantine_total{shard="4"} 18'));
 * assert.ok(!pointed('ledger_quarantine_total{shard="14"} 2'));
 * ```
 */
export function pointersOf(rows: readonly Row[]): Pointer[] {
  const sources = new Set<string>();
  for (const row of rows) {
    // A long message (a task's whole specification) names too much to point at anything.
    if (!isUserRequest(row) || row.text.length > LONGEST_POINTING) continue;
    const text = row.text;
    for (const match of text.matchAll(NAME_WITH_NUMBER)) {
      sources.add(`(?<![\\w/.-])${RegExp.escape(match[0])}(?![\\w/-])`);
    }
    for (const match of text.matchAll(WORD_AND_NUMBER)) {
      sources.add(`\\b${RegExp.escape(match[1] as string)}\\W{1,3}${match[2]}(?!\\d)`);
    }
  }
  return [...sources].slice(0, MOST_POINTERS).map((source) => new RegExp(source, "i"));
}

/**
 * The facts of one tool event's output (see the module's description): of a command, a skill or
 * a result that reports a summary, not of a file read or a search; none for a call without a
 * result or a result Hermes pruned.
 */
export function outputFacts(event: ToolEvent, pointers: readonly Pointer[]): OutputFact[] {
  const outcome = event.outcome;
  const tool = event.call.name;
  if (event.resultRow === undefined || outcome.stub) return [];
  const json = outcome.result;
  // What a program printed, a skill, a task's report: not a file's contents or search hits.
  const summaries = json ? reports(json) : [];
  if (!COMMAND_TOOLS.has(tool) && tool !== SKILL_TOOL && summaries.length === 0) return [];
  const facts: OutputFact[] = [];
  // A line is stated without rules framing it (a report that is a tally is the tally), and only
  // when it has a word (not a row of progress dots).
  const add = (kind: OutputFactKind, line: string) => {
    const text = cut(sanitizeInline(unframed(line)), LONGEST_FACT);
    if (HAS_WORD.test(text) && !facts.some((fact) => fact.text === text)) {
      facts.push({ kind, text });
    }
  };
  if (tool === SKILL_TOOL && json && typeof json.name === "string") {
    add(
      "skill",
      typeof json.description === "string" ? `${json.name}: ${json.description}` : json.name,
    );
  }
  for (const report of summaries) add("report", report);
  // A background job that ended: what it printed last is what it reports.
  const printed = withoutOverwrites(
    JOB_OUTPUT_FIELDS.map((field) => json?.[field])
      .find((value): value is string => typeof value === "string") ?? "",
  );
  if (PROCESS_TOOLS.has(tool) && ENDED.has(outcome.kind)) {
    for (const line of printed.split("\n").filter((line) => line.trim() !== "").slice(-2)) {
      add("report", line);
    }
  }
  // Each rule is one pass over the output, finding whole lines; most outputs hold none.
  const text = headAndTail(outcome.detail, HEAD_CHARS, TAIL_CHARS);
  const some = (kind: OutputFactKind, rule: RegExp) => {
    for (const line of (text.match(rule) ?? []).slice(0, MOST_PER_KIND)) add(kind, line);
  };
  // Most outputs hold neither a commit line nor a diff: their marks are looked for first.
  if (text.includes("] ")) some("commit", COMMIT_LINE);
  const git = gitSubcommands(event.call.args.command);
  if (git.size > 0) {
    for (const { by, line } of GIT_RESULTS) {
      if ([...by].some((subcommand) => git.has(subcommand))) some("git result", line);
    }
    // A hash a result line already names (bisect's `commit …` after it) is stated once.
    const hashes = (text.match(HASH_LINE) ?? []).filter((line) =>
      !facts.some((fact) => fact.text.includes(line.replace(/^commit /, "")))
    );
    for (const line of hashes.slice(0, MOST_PER_KIND)) add("hash", line);
  }
  if (SAVED_REPORT_MARKS.some((mark) => text.includes(mark))) some("saved", SAVED_REPORT);
  for (const file of diffFiles(text).slice(0, MOST_PER_KIND)) add("diff", diffFact(file));
  for (const tally of outputTallies(outcome)) add("tally", withoutRules(tally));
  if (!isFailure(outcome)) {
    for (const item of failedItems(outcome.detail, text).slice(0, MOST_PER_KIND)) {
      add("failed item", item);
    }
    for (const row of failedRows(text).slice(0, MOST_PER_KIND)) add("failed item", row);
  }
  // Only a long output is searched for pointed lines (lines counted no further than that asks).
  const pointable = pointers.length > 0 && lineCount(text, POINTED_LINES) >= POINTED_LINES;
  for (const pointer of pointable ? pointers : []) {
    if (!pointer.test(text)) continue;
    // A pointer that matches many lines points at none of them.
    const pointed = text.match(new RegExp(`^.*(?:${pointer.source}).*$`, "gim")) ?? [];
    if (pointed.length <= MOST_POINTED) { for (const line of pointed) add("pointed", line.trim()); }
  }
  return facts;
}

/**
 * The failed items of a long listing, while they stand out (at most a fifth of its items): of a
 * listing printed as one JSON document (on one line, or indented), each failed item's own fields;
 * else each line whose status says it failed (one item a line). `text` is the part of `output`
 * read for facts; a quote and a failed status must be in it for lines to be searched.
 */
function failedItems(output: string, text: string): string[] {
  const items = listedItems(output);
  if (items !== undefined) {
    // A document's lines are parts of items, so its length says whether it can hide one: longer
    // than a fact's line, no line quotes it whole.
    if (output.length <= LONGEST_FACT) return [];
    const failed = items.filter(isFailedItem);
    return failed.length <= items.length * FAILED_SHARE ? failed.map(itemFields) : [];
  }
  // Lines are counted no further than the rule asks.
  if (lineCount(text, LISTING_LINES) < LISTING_LINES) return [];
  if (!text.includes('"') || !FAILED_STATUS.test(text)) return [];
  const lines = text.match(FAILED_ITEM_LINE) ?? [];
  return lines.length <= lineCount(text) * FAILED_SHARE ? lines.map((line) => line.trim()) : [];
}

/**
 * The rows of the tables in `text` whose status says they failed, while they stand out: some of
 * the rows, not all, and at most a fifth of them or as many as a kind's facts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failedRows } from "./output_facts.ts";
 * const pods = "NAME     READY   STATUS             RESTARTS\napi-1    1/1     Running            0\n" +
 *   "api-2    0/1     CrashLoopBackOff   14\napi-3    1/1     Running            0";
 * assert.deepEqual(failedRows(pods), ["api-2    0/1     CrashLoopBackOff   14"]);
 * ```
 */
export function failedRows(text: string): string[] {
  const failed: string[] = [];
  let rows = 0;
  // Each table is read from its header, its rows no further than a blank line; a line within a
  // table read is one of its rows, so each line is read once.
  let read = 0;
  for (const start of markedLines(text, STATUS_COLUMN)) {
    if (start < read) continue;
    const header = lineAt(text, start);
    const columns = tableColumns(header);
    if (columns === undefined) continue;
    const tabbed = header.includes("\t");
    for (read = start + header.length + 1; read < text.length;) {
      const row = lineAt(text, read);
      if (row.trim() === "") break;
      rows++;
      const cell = tabbed
        ? row.split("\t")[columns.index]
        : row.slice(columns.from, columns.to ?? row.length);
      if (cell !== undefined && FAILED_CELL.test(cell.trim())) failed.push(row.trim());
      read += row.length + 1;
    }
  }
  const standsOut = failed.length < rows &&
    failed.length <= Math.max(MOST_PER_KIND, rows * FAILED_SHARE);
  return standsOut ? failed : [];
}

/**
 * Where a table's status column stands in its `header` line: its index among the names, and where
 * its cells start and end (the next name's start); `undefined` when the line is no table's header
 * (fewer than three names, or a word that is no column's name).
 */
function tableColumns(
  header: string,
): { index: number; from: number; to: number | undefined } | undefined {
  const names = header.trim().split(COLUMN_GAP);
  if (names.length < 3 || !names.every((name) => COLUMN_NAME.test(name))) return undefined;
  const index = names.findIndex((name) => STATUS_FIELDS.includes(name.toLowerCase()));
  if (index === -1) return undefined;
  // A name's place is found after the one before it (two names may share words).
  let from = 0;
  const starts = names.map((name) => (from = header.indexOf(name, from)));
  const next = starts[index + 1];
  return { index, from: starts[index] as number, to: next };
}

/**
 * The items of the longest listing (an array of objects; none when it holds none) in `output`
 * when it is one JSON document that states a failed status; `undefined` for any other output.
 * The document is searched level by level, no deeper than `LISTING_DEPTH` (no recursion).
 */
function listedItems(output: string): Record<string, unknown>[] | undefined {
  if (output.length > MOST_DOCUMENT_CHARS || !DOCUMENT_START.test(output)) return undefined;
  if (!FAILED_STATUS.test(output)) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(output);
  } catch {
    return undefined;
  }
  let longest: Record<string, unknown>[] = [];
  let level: unknown[] = [document];
  for (let depth = 0; depth < LISTING_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (Array.isArray(value)) {
        const items = value.filter(isRecord);
        if (items.length > longest.length) longest = items;
      } else if (isRecord(value)) { for (const child of Object.values(value)) next.push(child); }
    }
    level = next;
  }
  return longest;
}

/**
 * Whether a listing's item has a status field that says it failed: its own, or one of a field
 * that is an object (`"TargetHealth": {"State": "unhealthy"}`, `"status": {"phase": "Failed"}`).
 */
function isFailedItem(item: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(item).some(([field, value]) =>
    isRecord(value)
      ? Object.entries(value).some(([inner, status]) => isFailedStatus(inner, status))
      : isFailedStatus(field, value)
  );
}

function isFailedStatus(field: string, status: unknown): boolean {
  return typeof status === "string" && STATUS_FIELDS.includes(field.toLowerCase()) &&
    FAILED_STATUSES.includes(status.toLowerCase());
}

/**
 * An item as its fact shows it, as JSON in the order printed: its fields of plain values, and of a
 * field that is an object (`"error": {"code": …, "message": …}`) that object's plain values.
 */
function itemFields(item: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(item).flatMap(([key, value]) => {
    if (isPlain(value)) return [[key, value]];
    if (!isRecord(value)) return [];
    const inner = Object.entries(value).filter(([, field]) => isPlain(field));
    return inner.length > 0 ? [[key, Object.fromEntries(inner)]] : [];
  });
  return JSON.stringify(Object.fromEntries(fields));
}

/** Whether a JSON value is a plain one: a string, number, boolean or null. */
function isPlain(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** How a diff's fact counts the lines its file adds and removes (`+3 -2`), which no output says. */
export const DIFF_COUNTS: RegExp = /(?<=\s)\+\d+ -\d+(?=,|$)/;

/** A diff's file as a fact: its name, the lines added and removed, the blobs of its index line. */
function diffFact(file: DiffFile): string {
  const blobs = file.blobs === undefined ? "" : `, index ${file.blobs}`;
  return `${file.path} +${file.added} -${file.removed}${blobs}`;
}

/**
 * The subcommands git runs in a command line's steps (`push`, `rebase`, …; none when it runs no
 * git); a push asked for a dry run is none.
 */
function gitSubcommands(command: unknown): Set<string> {
  const found = new Set<string>();
  if (typeof command !== "string" || !command.includes("git")) return found;
  for (const segment of shellSegments(command) ?? []) {
    const step = shellStep(segment);
    if (step?.program !== "git") continue;
    const subcommand = subcommandOf(step.args) ?? "";
    if (subcommand === "push" && step.args.some((arg) => DRY_RUN.test(arg))) continue;
    found.add(subcommand);
  }
  return found;
}

/** What a result reports of itself: its `summary` words, and those of each of its `results`. */
function reports(json: Readonly<Record<string, unknown>>): string[] {
  const found: string[] = [];
  if (typeof json.summary === "string") found.push(json.summary);
  for (const item of Array.isArray(json.results) ? json.results.slice(0, MOST_PER_KIND) : []) {
    if (isRecord(item) && typeof item.summary === "string") found.push(item.summary);
  }
  return found;
}

/** A line without the rules around it (pytest's `===== 2 failed in 1s =====`). */
export function withoutRules(line: string): string {
  const trimmed = line.trim();
  // Most lines have no rule: only those that begin or end with one are searched.
  return RULE_ENDS.has(trimmed[0] as string) || RULE_ENDS.has(trimmed.at(-1) as string)
    ? trimmed.replace(/^[=-]{3,} | [=-]{3,}$/g, "")
    : trimmed;
}

const RULE_ENDS: ReadonlySet<string> = new Set(["=", "-"]);

/**
 * A line without the rules that frame it on both sides (`===== 2 failed in 1s =====`); a line
 * that only starts with one keeps it (Go's `=== RUN TestLoad`).
 */
function unframed(line: string): string {
  const trimmed = line.trim();
  return RULE_ENDS.has(trimmed[0] as string) && RULE_ENDS.has(trimmed.at(-1) as string)
    ? withoutRules(trimmed)
    : trimmed;
}
