/**
 * A short fingerprint of a call's identity (FNV-1a, 32 bits, as 8 hex digits). A line whose shown
 * text does not determine the call it names (a command cut to fit, or folded onto one line)
 * carries it, so the next compaction can tell two different calls with the same shown text apart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fingerprint } from "./fingerprint.ts";
 * assert.equal(fingerprint(""), "811c9dc5");
 * assert.equal(fingerprint("a"), "e40c292c");
 * ```
 */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
