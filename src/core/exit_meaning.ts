import {
  commandSteps,
  isSearch,
  printsContent,
  type ShellSegment,
  type ShellStep,
  shellStep,
  subcommandOf,
} from "./shell_words.ts";

/**
 * What a non-zero exit status means for programs whose documented answer it is: a search that
 * found nothing, a comparison or a plan that found differences, a test or a question that is false,
 * a service asked for its status that is not running.
 * These read as answers, not failures.
 */
export const EXIT_ANSWERS = ["no match", "differences found", "false", "not running"] as const;

/**
 * What a non-zero exit status means for programs that document it as "not finished yet": checks
 * still pending (`gh pr checks` exits 8). Neither a success nor a failure of what was asked about.
 */
export const EXIT_WAITS = ["checks pending"] as const;

/** Every documented meaning of a non-zero exit status: the answers and the waits. */
export const EXIT_MEANINGS = [...EXIT_ANSWERS, ...EXIT_WAITS] as const;

/** One of {@linkcode EXIT_MEANINGS}. */
export type ExitMeaning = typeof EXIT_MEANINGS[number];

/**
 * A program's documented answer: the status it exits with and what that status means, when the
 * step (and what it printed) is one that answers so.
 */
interface AnswerRule {
  readonly status: number;
  readonly meaning: ExitMeaning;
  readonly answers: (step: ShellStep, output: string) => boolean;
}

const COMPARISONS = new Set(["diff", "cmp"]);
const TESTS = new Set(["test", "[", "[["]);
// Infrastructure planners whose `plan -detailed-exitcode` exits 2 when the plan holds changes.
const PLANNERS = new Set(["terraform", "tofu", "terragrunt"]);
// A service manager asked where a service stands exits 3 when it is not running (the LSB's status
// code, systemd's for `status` and `is-active`), and says so: `Active: inactive (dead)`, `failed`.
const SERVICE_QUERIES: Readonly<Record<string, ReadonlySet<string>>> = {
  systemctl: new Set(["status", "is-active"]),
  service: new Set(["status"]),
};
const NOT_RUNNING = /\b(?:inactive|failed|dead)\b/;
// GitHub's CLI lists a pull request's checks and exits 8 while some are pending (1 when one failed).
const PENDING_CHECK = /\bpending\b/i;

// Every documented answer, by status; a step answers by the first rule that holds for it.
const ANSWER_RULES: readonly AnswerRule[] = [
  { status: 1, meaning: "no match", answers: (step, output) => foundNothing(step, output) },
  {
    status: 1,
    meaning: "differences found",
    answers: ({ program, args }) =>
      COMPARISONS.has(program) || (program === "git" && args[0] === "diff" && isExitCodeDiff(args)),
  },
  {
    status: 2,
    meaning: "differences found",
    answers: ({ program, args }) =>
      ((PLANNERS.has(program) && subcommandOf(args) === "plan") ||
        (program === "helm" && args[0] === "diff")) && args.some(isDetailedExitCode),
  },
  {
    status: 1,
    meaning: "false",
    answers: ({ program }, output) => TESTS.has(program) && isSilent(output),
  },
  {
    status: 1,
    meaning: "false",
    answers: ({ program, args }, output) =>
      program === "git" && args[0] === "merge-base" && args.includes("--is-ancestor") &&
      isSilent(output),
  },
  {
    status: 3,
    meaning: "not running",
    answers: ({ program, args }, output) => {
      const asked = SERVICE_QUERIES[program];
      const words = args.filter((arg) => !arg.startsWith("-"));
      const [query, units] = program === "service"
        ? [words[1], words.slice(0, 1)]
        : [words[0], words.slice(1)];
      // Of one service, named whole: of several, one not running says nothing of the others.
      return asked !== undefined && query !== undefined && asked.has(query) &&
        units.length === 1 && !/[*?[]/.test(units[0] as string) && NOT_RUNNING.test(output);
    },
  },
  {
    status: 8,
    meaning: "checks pending",
    answers: ({ program, args }, output) =>
      program === "gh" && args[0] === "pr" && args[1] === "checks" && PENDING_CHECK.test(output),
  },
];

/**
 * The meaning of a command's exit status when it is an answer rather than a failure, or
 * `undefined`. Claimed only when it is certain: the status is the one the program documents for
 * its answer (1 for a search, a comparison, a test; 2 for a plan asked for `-detailed-exitcode`;
 * 3 for a service's status; 8 for `gh pr checks`), the command line is one program (after `cd
 * DIR &&` steps, which print an error when they fail), and the output agrees (a search that
 * printed nothing or, counting its hits, counts of 0; a test that printed nothing; a status that
 * says inactive or failed; a listing of checks with one pending). A pipeline's status is its last
 * program's (unless the line sets `pipefail`), so a pipeline ending in a search that found
 * nothing found no match. A list or anything the reader cannot follow claims nothing, because
 * then another program may have set the status. The program is read past environment
 * assignments, wrappers and its path (`LC_ALL=C /usr/bin/grep`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitMeaning } from "./exit_meaning.ts";
 * assert.equal(exitMeaning("cd /repo && grep -rn needle src", 1, ""), "no match");
 * assert.equal(exitMeaning("grep -rn needle src | grep -v test", 1, ""), "no match");
 * assert.equal(exitMeaning("grep -rn needle src | head", 1, ""), undefined);
 * assert.equal(exitMeaning("grep -c ERROR app.log", 1, "0"), "no match");
 * assert.equal(exitMeaning("diff -u a.txt b.txt", 1, "--- a.txt\n+++ b.txt"), "differences found");
 * assert.equal(exitMeaning("terraform -chdir=infra plan -detailed-exitcode", 2, "Plan: 1 to add"), "differences found");
 * assert.equal(exitMeaning("terraform plan", 2, ""), undefined);
 * ```
 */
export function exitMeaning(
  command: string,
  exitCode: number,
  output: string,
): ExitMeaning | undefined {
  if (!ANSWER_RULES.some((rule) => rule.status === exitCode)) return undefined;
  const read = commandSteps(command);
  // A `cd` before the program that failed ran nothing after it: its status is the `cd`'s.
  if (read !== undefined && read.cd.length > 0 && CD_FAILED.test(output)) return undefined;
  const steps = read?.steps;
  if (steps !== undefined && isPipeline(steps, command)) {
    const last = shellStep(steps.at(-1) as ShellSegment);
    return exitCode === 1 && last !== undefined && foundNothing(last, output)
      ? "no match"
      : undefined;
  }
  const step = steps?.length === 1 ? shellStep(steps[0] as ShellSegment) : undefined;
  if (step === undefined) return undefined;
  return answerOf(step, exitCode, output);
}

/** What `status` answers for `step`, which printed `output`, by the first rule that holds. */
function answerOf(step: ShellStep, status: number, output: string): ExitMeaning | undefined {
  return ANSWER_RULES.find((rule) => rule.status === status && rule.answers(step, output))
    ?.meaning;
}

function isSilent(output: string): boolean {
  return output.trim() === "";
}

/** The status a line's work ended with as the line echoed it, and what that status answers. */
export interface EchoedStatus {
  readonly status: number;
  readonly meaning?: ExitMeaning;
}

// `echo`'s expansion of the status before it: `$?` or `${?}`.
const LAST_STATUS = /\$\?|\$\{\?\}/;
const MOST_STATUS_DIGITS = 3;

/**
 * The exit status a line's work ended with, as the line echoed it last (`./gradlew build; echo
 * "gradle exit=$?"` printing `gradle exit=0`): when the line is that work (one step, or steps
 * joined by `&&`, no pipeline), then `;` or a newline, then an `echo` whose only expansion is
 * `$?`, and the output's last line is what that echo prints. The line's own status is the echo's,
 * which says nothing of the work; this one does. What it answers is claimed as for the work run
 * alone (`grep -n TODO a.py; echo $?` printing only `1` found no match).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { echoedStatus } from "./exit_meaning.ts";
 * assert.deepEqual(echoedStatus('./gradlew build; echo "exit=$?"', "BUILD FAILED\nexit=1"), { status: 1 });
 * assert.deepEqual(echoedStatus("grep -n TODO a.py; echo $?", "1"), { status: 1, meaning: "no match" });
 * assert.equal(echoedStatus("make | tee b.log; echo $?", "0"), undefined);
 * ```
 */
export function echoedStatus(command: string, output: string): EchoedStatus | undefined {
  if (!LAST_STATUS.test(command)) return undefined;
  const steps = commandSteps(command)?.steps;
  if (steps === undefined || steps.length < 2) return undefined;
  const echo = steps.at(-1) as ShellSegment;
  const work = steps.slice(0, -1);
  const separator = work.at(-1)?.then;
  if (echo.words[0] !== "echo" || (separator !== ";" && separator !== "\n")) return undefined;
  if (work.slice(0, -1).some((step) => step.then !== "&&")) return undefined;
  const said = echo.words.slice(1);
  if (said.some((word) => word.startsWith("-"))) return undefined;
  const parts = said.join(" ").split(LAST_STATUS);
  if (parts.length !== 2 || parts.some((part) => /[$`]/.test(part))) return undefined;
  const [before = "", after = ""] = parts;
  const printed = output.trimEnd();
  const last = printed.slice(printed.lastIndexOf("\n") + 1).trim();
  const form = new RegExp(
    `^${RegExp.escape(before.trim())}\\s*(\\d{1,${MOST_STATUS_DIGITS}})\\s*${
      RegExp.escape(after.trim())
    }$`,
  );
  const status = form.exec(last)?.[1];
  if (status === undefined) return undefined;
  const code = Number(status);
  const step = work.length === 1 ? shellStep(work[0] as ShellSegment) : undefined;
  const rest = printed.slice(0, Math.max(0, printed.lastIndexOf("\n")));
  const meaning = step === undefined ? undefined : answerOf(step, code, rest);
  return meaning === undefined ? { status: code } : { status: code, meaning };
}

// The shell's report that a `cd` failed (`bash: line 1: cd: /srv/confg: No such file or directory`).
const CD_FAILED =
  /(?:^|\n)(?:[^\n]*: )?cd: [^\n]*: (?:No such file or directory|Not a directory|Permission denied)/;

// A search that counts its hits (`grep -c`, `--count`): a count option, alone or among others.
const COUNT_OPTION = /^(?:--count|-[a-zA-Z]*c[a-zA-Z]*)$/;
// What a count of no hits prints: `0`, or `file:0` for each file searched.
const NO_HITS = /^(?:.*:)?0$/;

/**
 * Whether a search step's output shows it found nothing: it printed nothing, or, counting its
 * hits, only counts of 0 (`grep -c` prints `0` and exits 1).
 */
function foundNothing(step: ShellStep, output: string): boolean {
  if (!isSearch(step)) return false;
  const printed = output.trim();
  if (printed === "") return true;
  return step.args.some((arg) => COUNT_OPTION.test(arg)) &&
    printed.split("\n").every((line) => NO_HITS.test(line.trim()));
}

function isDetailedExitCode(arg: string): boolean {
  return arg === "-detailed-exitcode" || arg === "--detailed-exitcode";
}

function isExitCodeDiff(args: readonly string[]): boolean {
  return args.includes("--exit-code") || args.includes("--quiet") || args.includes("--no-index");
}

// Steps that only set up the line's work (where it runs, its environment, a pause): whose status
// the line's says nothing of is no loss.
const SETUP = new Set([
  "cd",
  "pushd",
  "popd",
  "export",
  "unset",
  "set",
  "source",
  ".",
  "sleep",
  "true",
  ":",
  "mkdir",
]);

/**
 * The program whose exit status a command line's status is when that status says nothing of work
 * run before it: the line's last step, when an earlier step that does work (not one that prints
 * content, `cat a.py | head`, or sets the line up, `export X=1`) may have failed without the line
 * failing — piped into another program (`pytest 2>&1 | tail -50`, without `pipefail`), followed by
 * `;`, a newline or `&` (`pytest; echo done`), or caught by a later `||` (`make || true`); `?`
 * when its name is no plain word. `undefined` for a line whose status is its work's: one step,
 * steps joined by `&&`, or one pipeline and an `exit ${PIPESTATUS[0]}` that passes on its first
 * program's status, when that program does the work.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusPasser } from "./exit_meaning.ts";
 * assert.equal(statusPasser("cd /repo && python -m pytest -x 2>&1 | tail -50"), "tail");
 * assert.equal(statusPasser("git stash && pytest -q 2>&1 | tail -1"), "tail");
 * assert.equal(statusPasser("pytest -q > log.txt 2>&1; tail -5 log.txt"), "tail");
 * assert.equal(statusPasser("make build || true"), "true");
 * assert.equal(statusPasser("go test ./... 2>&1 | tee t.log; exit ${PIPESTATUS[0]}"), undefined);
 * assert.equal(statusPasser("cat app.py | head -20"), undefined);
 * assert.equal(statusPasser("pip install -e . && python -m pytest -x"), undefined);
 * ```
 */
export function statusPasser(command: string): string | undefined {
  // A line of one step is read no further.
  if (!/[|;&\n]/.test(command)) return undefined;
  const steps = commandSteps(command)?.steps;
  if (steps === undefined || steps.length < 2) return undefined;
  const last = shellStep(steps.at(-1) as ShellSegment);
  if (last === undefined) return undefined;
  if (exitsWithWorkStatus(steps, last)) return undefined;
  const pipefail = command.includes(PIPEFAIL);
  const hidden = steps.slice(0, -1).some((step, index) => {
    const work = shellStep(step);
    if (work === undefined || printsContent(work) || SETUP.has(work.program)) {
      return false;
    }
    if (step.then === "|") return !pipefail;
    // After `&&` a failure ends the line with its status, unless a later `||` catches it or a
    // later `;`, newline or `&` runs the rest anyway.
    if (step.then === "&&") {
      return steps.slice(index + 1, -1).some((later) => later.then !== "&&" && later.then !== "|");
    }
    return true;
  });
  if (!hidden) return undefined;
  const compound = COMPOUND_ENDS[last.program];
  if (compound !== undefined) return compound;
  return PLAIN_NAME.test(last.program) ? last.program : UNNAMED_PROGRAM;
}

// The word that ends a compound command the line ends with, and how its status is named: a loop's
// is its last run's, an `if`'s or a `case`'s the branch's that ran (`done` names no program).
const COMPOUND_ENDS: Readonly<Record<string, string>> = { done: "loop", fi: "if", esac: "case" };

// `exit ${PIPESTATUS[0]}`'s argument: the status of the first program of the pipeline before it.
const FIRST_PIPE_STATUS = /^"?\$\{PIPESTATUS\[0\]\}"?$/;

/**
 * Whether a line ends by exiting with the status of the first program of the pipeline that makes
 * up the rest of it (`go test ./... 2>&1 | tee test.log; exit ${PIPESTATUS[0]}`): its status is
 * then that program's, when that program does work.
 */
function exitsWithWorkStatus(steps: readonly ShellSegment[], last: ShellStep): boolean {
  if (last.program !== "exit" || last.args.length !== 1) return false;
  if (!FIRST_PIPE_STATUS.test(last.args[0] as string)) return false;
  const pipeline = steps.slice(0, -1);
  if (pipeline.slice(0, -1).some((step) => step.then !== "|")) return false;
  const work = shellStep(pipeline[0] as ShellSegment);
  return work !== undefined && !printsContent(work) && !SETUP.has(work.program);
}

// How a program is named in a summary line: a plain word, else `?` (a name is the line's own text).
const PLAIN_NAME = /^[\w.+-]{1,64}$/;
const UNNAMED_PROGRAM = "?";

/** Whether `steps` are one pipeline of several programs whose status is its last one's. */
function isPipeline(steps: readonly ShellSegment[], command: string): boolean {
  return steps.length > 1 && steps.slice(0, -1).every((step) => step.then === "|") &&
    !command.includes(PIPEFAIL);
}

// What makes a pipeline's status its first failing program's instead of its last one's.
const PIPEFAIL = "pipefail";
