/**
 * Runs `tasks`, at most `jobs` at a time (at least one), and returns their results in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pooled } from "./pooled.ts";
 * const tasks = [3, 1, 2].map((n) => () => new Promise<number>((done) => setTimeout(() => done(n), n)));
 * assert.deepEqual(await pooled(tasks, 2), [3, 1, 2]);
 * ```
 */
export async function pooled<T>(tasks: readonly (() => Promise<T>)[], jobs: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, worker));
  return results;
}
