import { commandSteps, shellStep } from "./shell_words.ts";

// A line that reports an error in its own words: `Error: …`, `fatal: …`, `error[E0308]: …`,
// `ValueError: …`, `npm ERR! …`, or a traceback header.
const ERROR_LINE =
  /^(?:(?:error|fatal|panic)(?:\[[^\]]{1,40}\])?:\s*\S|[A-Z][A-Za-z0-9]*(?:Error|Exception):\s|npm ERR!|Traceback \(most recent call last\))/i;
// Errors are reported at the end of an output; only its last lines are read.
const LAST_LINES = 5;
const TAIL_CHARS = 4000;
// Programs whose output is content (files, logs, search hits) rather than their own report.
const CONTENT_PROGRAMS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "nl",
  "sed",
  "awk",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "ls",
  "tree",
  "wc",
  "diff",
  "git",
  "echo",
  "printf",
  "jq",
]);

/**
 * The line in which a command that exited 0 still reported an error, or `undefined`: one of the
 * last lines of its output that starts like an error report. Commands that print content (`cat`,
 * `grep`, `git log`, …) report nothing of their own, so their output is never read this way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportedError } from "./error_output.ts";
 * assert.equal(reportedError("./deploy.sh", "Uploading…\nError: Authentication Failed\n"), "Error: Authentication Failed");
 * assert.equal(reportedError("cat app.log", "Error: Authentication Failed"), undefined);
 * ```
 */
export function reportedError(command: string, output: string): string | undefined {
  const tail = output.length > TAIL_CHARS ? output.slice(-TAIL_CHARS) : output;
  const lines = tail.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  // The last report is the most specific (a traceback ends with its exception).
  const line = lines.slice(-LAST_LINES).findLast((candidate) => ERROR_LINE.test(candidate));
  if (line === undefined) return undefined;
  const program = firstProgram(command);
  return program === undefined || CONTENT_PROGRAMS.has(program) ? undefined : line;
}

/**
 * The program whose output a command line shows: its first step after any `cd DIR &&` (a pipeline
 * only filters what that step printed), when the line can be read.
 */
function firstProgram(command: string): string | undefined {
  const first = commandSteps(command)?.steps[0];
  return first && shellStep(first)?.program;
}
