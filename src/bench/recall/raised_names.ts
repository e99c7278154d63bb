/**
 * A line that reports a raised error: after leading space, an optional pytest `E` marker or a
 * pytest summary prefix (`FAILED … - `, `ERROR … - `), a class name ending in `Error` or
 * `Exception` (possibly qualified, `a.b.NameError`), then `:` or the end of the line.
 */
const RAISED_LINE =
  /^\s*(?:E\s+|(?:FAILED|ERROR)\s.*?\s-\s)?(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))(?::|$)/;

/**
 * The error names a failed result's output reports as raised, first-seen order: the last line of
 * a Python traceback (`KeyError: 'sku'`), pytest's `E   ImportError: …` and short summary lines,
 * a qualified `sqlalchemy.exc.OperationalError: …` (named `OperationalError`). Names that are
 * merely mentioned (`except KeyError:`, `raise ValueError(…)`, prose) are not counted.
 */
export function raisedNames(output: string): string[] {
  const names = new Set<string>();
  for (const line of output.split("\n")) {
    const match = RAISED_LINE.exec(line.trimEnd());
    if (match) names.add(match[1] as string);
  }
  return [...names];
}
