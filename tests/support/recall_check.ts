/**
 * Runs `vcc bench recall` on one input and asserts what CI requires of it: no outcome stated
 * wrong, windows scored at every default budget, a PASS line. Its table goes to the test output.
 *
 * @module
 */
import assert from "node:assert/strict";
import { writeAll } from "../../src/wire/mod.ts";
import { runVcc } from "./vcc_harness.ts";

/** Runs `vcc bench recall ARGS…` and checks its verdict and table. */
export async function checkRecall(args: readonly string[]): Promise<void> {
  const run = await runVcc(["bench", "recall", ...args], Deno.makeTempDirSync());
  writeAll(Deno.stdout, run.stdout);
  const wrong = run.stdout.split("\n").filter((line) => /^(WRONG|FAIL)/.test(line));
  assert.equal(run.code, 0, wrong.join("\n"));
  for (const budget of ["1500", "4000", "8000"]) {
    assert.match(run.stdout, new RegExp(`^\\S+ +${budget} +[1-9]`, "m"), budget);
  }
  assert.match(run.stdout, /^PASS; report: /m);
}
