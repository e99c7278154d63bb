/** Where values are kept by key: a `Map`, or a `WeakMap` for values of a projection's objects. */
export interface Known<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/**
 * The value `known` holds for `key`, worked out by `work` and kept when it holds none: for values
 * asked for more than once in one projection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { remembered } from "./remembered.ts";
 * const known = new Map<string, number>();
 * let worked = 0;
 * const length = (text: string) => remembered(known, text, () => (worked++, text.length));
 * assert.equal(length("abc") + length("abc"), 6);
 * assert.equal(worked, 1);
 * ```
 */
export function remembered<K, V>(known: Known<K, V>, key: K, work: () => V): V {
  let value = known.get(key);
  if (value === undefined) {
    value = work();
    known.set(key, value);
  }
  return value;
}
