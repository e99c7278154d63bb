/**
 * A tool result's JSON object, also when Hermes appended its own notes after it (0.19's loop
 * detector writes `[Tool loop warning …]` under the JSON, so the text as a whole is no JSON
 * document).
 *
 * @module
 */
import { isRecord } from "./content.ts";

/** The longest result searched for the end of a leading object. */
const MAX_SCAN = 4 * 1024 * 1024;

/**
 * The JSON object `text` holds: the whole text, or the object it starts with when only notes
 * follow it; `undefined` when it starts with no complete object. The end is found by a scan (no
 * recursion), so any nesting depth is safe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultObject } from "./json_result.ts";
 * assert.deepEqual(resultObject('{"exit_code": 1}\n\n[Tool loop warning: same call]'), { exit_code: 1 });
 * assert.equal(resultObject("[1, 2]"), undefined);
 * ```
 */
export function resultObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{")) return undefined;
  const whole = parse(trimmed);
  if (whole !== undefined) return whole;
  const end = objectEnd(trimmed);
  return end === undefined ? undefined : parse(trimmed.slice(0, end));
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The index just past the object `text` starts with, by brackets outside strings. */
function objectEnd(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  const limit = Math.min(text.length, MAX_SCAN);
  for (let index = 0; index < limit; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return undefined;
}
