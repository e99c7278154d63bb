import {
  errorFingerprint,
  type ErrorLine,
  errorLineOf,
  errorLines,
  isRelayedFailure,
} from "./error_lines.ts";
import {
  commandSteps,
  isSearch,
  operandsOf,
  printsContent,
  type ShellSegment,
  type ShellStep,
  shellStep,
  subcommandOf,
} from "./shell_words.ts";
import { linesFromEnd } from "./text_lines.ts";
import { isWrittenFile } from "./written_files.ts";

// Errors are reported at the end of an output; only its last lines are read.
const LAST_LINES = 5;
const TAIL_CHARS = 4000;
// The most error lines printed anywhere that the report quotes.
const PRINTED_LINES = 3;
// Programs that print the files they are given (or a part of them).
const FILE_PRINTERS = new Set(["cat", "head", "tail", "less", "more", "nl", "sed", "awk", "bat"]);
// A word that names a file: it holds a directory or an extension.
const FILE_WORD = /^[^-][^\s]*[./]/;
// A search hit's file before the line it quotes (`src/a.py:12:`, `src/a.py-12-`, `src/a.py:`).
const HIT_FILE = /^([^\s:]+?)(?::|-\d+-)/;
// git's subcommands that print what people wrote (commit messages, notes, names), and how git
// reports an error of its own.
const GIT_WRITTEN_TEXT: ReadonlySet<string> = new Set([
  "log",
  "show",
  "shortlog",
  "reflog",
  "blame",
  "branch",
  "tag",
  "describe",
]);
const GIT_REPORT = /^(?:fatal|error|warning): /;

/**
 * The error lines of a command line's output as what it ran printed them (see `error_lines.ts`):
 * when the line only prints or searches files (`cat`, `sed -n`, `head`, `grep`, … and pipes
 * between them) and every file it names is one people write (source, configuration,
 * documentation: their lines say what they hold, not what happened), none but the programs' own
 * reports (`cat: a.py: No such file or directory`); and none among a search's hits in such files,
 * nor in what git prints that people wrote (`git log`'s commit messages) but git's own reports. A
 * log shown or searched keeps its errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandErrorLines } from "./error_output.ts";
 * assert.deepEqual(commandErrorLines("sed -n 1,80p tests/test_io.py", "    # FAIL when empty"), []);
 * assert.equal(commandErrorLines("grep -rn FAIL src logs", "src/a.py:3: # FAIL x\nlogs/b.log:9:FAIL y").length, 1);
 * assert.equal(commandErrorLines("tail -n 50 app.log", "ERROR order A-1 declined").length, 1);
 * ```
 */
export function commandErrorLines(command: string, output: string): ErrorLine[] {
  const lines = errorLines(output);
  // Most outputs print no error line: the command line is read only for those that do.
  if (lines.length === 0) return lines;
  const steps = commandSteps(command)?.steps ?? [];
  const first = steps[0] && shellStep(steps[0]);
  // git printing what people wrote (commit messages, branch names): only its own reports.
  if (first?.program === "git" && GIT_WRITTEN_TEXT.has(subcommandOf(first.args) ?? "")) {
    return lines.filter((line) => GIT_REPORT.test(line.text));
  }
  // Only a line that starts by printing or searching files can show their content.
  if (first === undefined || !(FILE_PRINTERS.has(first.program) || isSearch(first))) return lines;
  const readers = steps.map(shellStep);
  if (printsWrittenFiles(steps, readers)) {
    const reporters = readers.map((reader) => `${reader?.program}: `);
    return lines.filter((line) => reporters.some((reporter) => line.text.startsWith(reporter)));
  }
  return isSearch(first) ? lines.filter((line) => !isHitInWrittenFile(line.text)) : lines;
}

/**
 * Whether a command line's steps only print or search files people write: one pipeline of such
 * programs, none of them redirected, naming at least one file and only such files.
 */
function printsWrittenFiles(
  steps: readonly ShellSegment[],
  readers: readonly (ShellStep | undefined)[],
): boolean {
  const files: string[] = [];
  for (const [index, step] of steps.entries()) {
    const reader = readers[index];
    if (reader === undefined || !(FILE_PRINTERS.has(reader.program) || isSearch(reader))) {
      return false;
    }
    if (index < steps.length - 1 && step.then !== "|") return false;
    // A redirected step writes a file (`cat > a.py <<EOF`) or reads one: it shows none.
    if (operandsOf(reader.args).length !== reader.args.length) return false;
    files.push(...reader.args.filter((word) => FILE_WORD.test(word)));
  }
  return files.length > 0 && files.every(isWrittenFile);
}

/** Whether an output line is a search's hit in a file people write. */
function isHitInWrittenFile(line: string): boolean {
  const file = HIT_FILE.exec(line)?.[1];
  return file !== undefined && FILE_WORD.test(file) && isWrittenFile(file);
}

/**
 * What a command that exited 0 still printed as an error, or `undefined`: one of the last lines of
 * its output that starts like an error report (not for programs that print content: `cat`, `git
 * log`, …, whose output is no report of theirs); else the error lines it printed anywhere that a
 * log level tags or that name an exception as raised, up to three distinct ones, for any program
 * but a search, whose output is hits. The errors in a log a command shows are errors the session
 * met. `printedLines` are the output's error lines, when the caller already read them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportedError } from "./error_output.ts";
 * assert.equal(reportedError("./deploy.sh", "Uploading…\nError: Authentication Failed\n"), "Error: Authentication Failed");
 * assert.equal(reportedError("sed -n 1,400p app.log", "ok\n2026-12-01 ERROR order A-1 declined"), "ERROR order A-1 declined");
 * assert.equal(reportedError("grep -rn ERROR logs", "logs/a:1:ERROR x"), undefined);
 * ```
 */
export function reportedError(
  command: string,
  output: string,
  printedLines: readonly ErrorLine[] = commandErrorLines(command, output),
): string | undefined {
  // Every error line of its last lines is one of its error lines (its tail is always read).
  if (printedLines.length === 0) return undefined;
  const step = firstStep(command);
  if (step === undefined) return undefined;
  if (!printsContent(step)) {
    // The last report is the most specific (a traceback ends with its exception), unless it only
    // relays that a step failed: the step's own, printed before it, says what.
    const report = lastLines(output).map(errorLineOf).findLast((line) => line !== undefined);
    if (report !== undefined) {
      const own = isRelayedFailure(report.text)
        ? printedLines.findLast((line) => !isRelayedFailure(line.text))
        : report;
      return (own ?? report).text;
    }
  }
  if (isSearch(step)) return undefined;
  const seen = new Set<string>();
  // Outputs print the same line many times: each text is fingerprinted once.
  const seenTexts = new Set<string>();
  const printed: string[] = [];
  for (const line of printedLines) {
    if (printed.length === PRINTED_LINES) break;
    // A report in a program's words counts only at the end (an early `Error: retrying` was got
    // past); a level's tag or a raised exception counts anywhere.
    if (line.kind === "report" || seenTexts.has(line.text)) continue;
    seenTexts.add(line.text);
    const fingerprint = errorFingerprint(line.text);
    if (seen.has(fingerprint)) continue;
    seen.add(fingerprint);
    printed.push(line.text);
  }
  return printed.length === 0 ? undefined : printed.join(" … ");
}

/** The last `LAST_LINES` lines of `output` that are not blank, within its last `TAIL_CHARS`. */
function lastLines(output: string): string[] {
  const lines: string[] = [];
  for (const line of linesFromEnd(output, Math.max(0, output.length - TAIL_CHARS))) {
    if (line.trim() !== "") lines.unshift(line);
    if (lines.length === LAST_LINES) break;
  }
  return lines;
}

/**
 * The step whose output a command line shows: its first after any `cd DIR &&` (a pipeline only
 * filters what that step printed), when the line can be read.
 */
function firstStep(command: string): ShellStep | undefined {
  const first = commandSteps(command)?.steps[0];
  return first && shellStep(first);
}
