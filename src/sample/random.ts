/**
 * A small seeded pseudo-random generator (mulberry32). The same seed always yields the same
 * sequence, on every machine, which is what generated fixtures and golden files need.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SeededRandom } from "./random.ts";
 * const a = new SeededRandom(7), b = new SeededRandom(7);
 * assert.equal(a.int(100), b.int(100));
 * ```
 */
export class SeededRandom {
  #state: number;

  /** Starts the sequence for `seed` (any finite number; only its low 32 bits matter). */
  constructor(seed: number) {
    this.#state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** `length` lowercase hexadecimal digits. */
  hex(length: number): string {
    let text = "";
    while (text.length < length) text += this.int(16).toString(16);
    return text;
  }
}
