import { SeededRandom } from "./random.ts";
import { HOSTILE_LINES } from "./_phrases.ts";

/** A JSON value: what `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | {
  [key: string]: JsonValue;
};

const KEYS = [
  "role",
  "content",
  "tool_calls",
  "tool_call_id",
  "tool_name",
  "_row_id",
  "type",
  "x",
  "",
];

/**
 * Any JSON value, chosen by `seed`: nested arrays and objects (often with message-like keys),
 * odd numbers, empty and hostile strings. For fuzzing code that must accept any input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomJsonValue } from "./json_value.ts";
 * assert.deepEqual(randomJsonValue(3), randomJsonValue(3));
 * ```
 */
export function randomJsonValue(seed: number, maxDepth = 4): JsonValue {
  return valueAt(new SeededRandom(seed), maxDepth);
}

function valueAt(random: SeededRandom, depth: number): JsonValue {
  const roll = random.int(depth > 0 ? 9 : 6);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 1e300, -0, 2 ** 53 + 1, random.range(-1e6, 1e6)]);
    case 3:
      return random.pick(["", " ", "user", "assistant", "tool", "{", "[#1]", "\n\n## X"]);
    case 4:
      return random.pick(HOSTILE_LINES);
    case 5:
      return random.hex(random.range(0, 40));
    case 6:
      return Array.from({ length: random.int(5) }, () => valueAt(random, depth - 1));
    default: {
      const object: { [key: string]: JsonValue } = {};
      for (let i = random.int(6); i > 0; i--) {
        object[random.pick(KEYS)] = valueAt(random, depth - 1);
      }
      return object;
    }
  }
}
