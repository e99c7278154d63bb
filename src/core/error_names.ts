/**
 * Error names a failed result reports as raised: exception classes at the start of a line (the
 * last line of a Python traceback, `Error: …`-style reports of other languages that name a class,
 * pytest's `E   ImportError: …` and its `FAILED test - ValueError: …` summaries), a qualified name
 * read as its class. Names an output merely mentions (`except KeyError:`, `raise ValueError(…)`,
 * a grep hit in source code) are not errors that happened, and are not counted.
 *
 * @module
 */

const RAISED =
  /^(?:E\s+|(?:FAILED|ERROR)\s.*?\s-\s)?(?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Z][A-Za-z0-9_]*(?:Error|Exception))(?::|$)/;
// Cheap pre-check: a text without either word names nothing.
const TRIGGER = /Error|Exception/;

/**
 * The distinct error names `output` reports as raised, in order of first appearance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { raisedNames } from "./error_names.ts";
 * assert.deepEqual(raisedNames("Traceback (most recent call last):\n  raise KeyError(k)\nKeyError: 'sku'"), ["KeyError"]);
 * assert.deepEqual(raisedNames("E   ImportError: cannot import name 'parse'"), ["ImportError"]);
 * ```
 */
export function raisedNames(output: string): string[] {
  if (!TRIGGER.test(output)) return [];
  const names = new Set<string>();
  for (const line of output.split("\n")) {
    const match = RAISED.exec(line.trim());
    if (match) names.add(match[1] as string);
  }
  return [...names];
}
