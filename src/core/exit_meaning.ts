import {
  commandSteps,
  CONTENT_PROGRAMS,
  isSearch,
  type ShellSegment,
  shellStep,
} from "./shell_words.ts";

/**
 * What exit status 1 means for programs whose documented answer it is: a search that found
 * nothing, a comparison that found differences, a test that is false. These read as answers, not
 * failures.
 */
export type ExitMeaning = "no match" | "differences found" | "false";

const COMPARISONS = new Set(["diff", "cmp"]);
const TESTS = new Set(["test", "[", "[["]);

/**
 * The meaning of a command's exit status when it is an answer rather than a failure, or
 * `undefined`. Claimed only when it is certain: the status is 1, the command line is one program
 * (after `cd DIR &&` steps, which print an error when they fail), and the output agrees (a search
 * that printed nothing, a test that printed nothing). A pipeline's status is its last program's
 * (unless the line sets `pipefail`), so a pipeline ending in a search that printed nothing found no
 * match. A list or anything the reader cannot follow claims nothing, because then another program
 * may have set the status. The program is read past environment assignments, wrappers and its path
 * (`LC_ALL=C /usr/bin/grep`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitMeaning } from "./exit_meaning.ts";
 * assert.equal(exitMeaning("cd /repo && grep -rn needle src", 1, ""), "no match");
 * assert.equal(exitMeaning("grep -rn needle src | grep -v test", 1, ""), "no match");
 * assert.equal(exitMeaning("grep -rn needle src | head", 1, ""), undefined);
 * assert.equal(exitMeaning("diff -u a.txt b.txt", 1, "--- a.txt\n+++ b.txt"), "differences found");
 * ```
 */
export function exitMeaning(
  command: string,
  exitCode: number,
  output: string,
): ExitMeaning | undefined {
  if (exitCode !== 1) return undefined;
  const steps = commandSteps(command)?.steps;
  const silent = output.trim() === "";
  if (steps !== undefined && isPipeline(steps, command)) {
    const last = shellStep(steps.at(-1) as ShellSegment);
    return last !== undefined && isSearch(last) && silent ? "no match" : undefined;
  }
  const step = steps?.length === 1 ? shellStep(steps[0] as ShellSegment) : undefined;
  if (step === undefined) return undefined;
  const { program, args } = step;
  if (isSearch(step)) {
    return silent ? "no match" : undefined;
  }
  if (
    COMPARISONS.has(program) || (program === "git" && args[0] === "diff" && isExitCodeDiff(args))
  ) {
    return "differences found";
  }
  if (TESTS.has(program)) return silent ? "false" : undefined;
  return undefined;
}

function isExitCodeDiff(args: readonly string[]): boolean {
  return args.includes("--exit-code") || args.includes("--quiet") || args.includes("--no-index");
}

// Programs that pass on what the work before them printed, whose own status says nothing of it.
const PASSERS_ON = new Set(["tail", "head", "cat", "tee", "less", "more", "wc", "sort", "uniq"]);
// Steps that stand in for a failure after `||`, exiting 0 whatever the work did.
const FALLBACKS = new Set(["true", ":", "echo", "printf"]);

/**
 * The program whose exit status a command line's status is when that program only passes on what
 * the work before it printed, so the status says nothing of the work: the last step of a pipeline
 * (`pytest 2>&1 | tail -50`, without `pipefail`) that passes output on (`tail`, `head`, `tee`, …),
 * or a fallback after `||` (`make || true`). `undefined` for any other line, and where the work is
 * itself a program that prints content (`cat a.py | head`, `grep -rn x | head`), whose status
 * matters little.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusPasser } from "./exit_meaning.ts";
 * assert.equal(statusPasser("cd /repo && python -m pytest -x 2>&1 | tail -50"), "tail");
 * assert.equal(statusPasser("make build || true"), "true");
 * assert.equal(statusPasser("cat app.py | head -20"), undefined);
 * assert.equal(statusPasser("python -m pytest -x"), undefined);
 * ```
 */
export function statusPasser(command: string): string | undefined {
  // Both a pipe and `||` write a `|`: a line without one is read no further.
  if (!command.includes("|")) return undefined;
  const steps = commandSteps(command)?.steps;
  if (steps === undefined || steps.length < 2) return undefined;
  const work = shellStep(steps[0] as ShellSegment);
  const last = shellStep(steps.at(-1) as ShellSegment);
  if (work === undefined || last === undefined || CONTENT_PROGRAMS.has(work.program)) {
    return undefined;
  }
  if (isPipeline(steps, command)) return PASSERS_ON.has(last.program) ? last.program : undefined;
  const fallback = steps.length === 2 && steps[0]?.then === "||";
  return fallback && FALLBACKS.has(last.program) ? last.program : undefined;
}

/** Whether `steps` are one pipeline of several programs whose status is its last one's. */
function isPipeline(steps: readonly ShellSegment[], command: string): boolean {
  return steps.length > 1 && steps.slice(0, -1).every((step) => step.then === "|") &&
    !command.includes(PIPEFAIL);
}

// What makes a pipeline's status its first failing program's instead of its last one's.
const PIPEFAIL = "pipefail";
