/**
 * The oracle's reading of an error a command reported although it exited 0: among the last five
 * non-empty lines of its output, the last that begins `error:`, `fatal:` or `panic:` (any case,
 * possibly with a bracketed code as in `error[E0308]:`), `SomethingError: `/`SomethingException: `,
 * `npm ERR!` or `Traceback (most recent call last)`. Programs that print files, listings or search
 * hits (their output is content, not their own report) report nothing this way; neither does a
 * command line whose program cannot be told.
 *
 * @module
 */

const REPORT =
  /^(?:(?:error|fatal|panic)(?:\[[^\]]+\])?:\s*\S|[A-Z]\w*(?:Error|Exception):\s|npm ERR!|Traceback \(most recent call last\))/i;
const CONTENT = [
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
];

/** The error line an exit-0 command printed, or `undefined`. */
export function printedError(command: string, output: string): string | undefined {
  const program = firstProgram(command);
  if (program === undefined || CONTENT.includes(program)) return undefined;
  const lines = output.split("\n").map((line) => line.trim()).filter((line) => line.length > 0);
  return lines.slice(-5).findLast((line) => REPORT.test(line));
}

/**
 * The program of a command line's first step that is not a `cd` (what a pipeline after it filters
 * is still that step's output). Quoted strings are blanked first; a line with a substitution or an
 * unbalanced quote cannot be told. Steps split at `|`, `;`, `&` and newlines.
 */
function firstProgram(command: string): string | undefined {
  if (/\$\(|`/.test(command)) return undefined;
  const unquoted = command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
  if (/["]/.test(unquoted) || (unquoted.match(/'/g) ?? []).length % 2 !== 0) return undefined;
  const steps = unquoted.split(/\|\||&&|[|;&\n]/).map((step) => step.trim()).filter(Boolean);
  const step = steps.find((candidate) => !/^cd(?:\s|$)/.test(candidate));
  const word = step?.split(/\s+/).find((token) => !/^\w+=/.test(token));
  return word?.split("/").at(-1);
}
