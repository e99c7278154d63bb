/**
 * `vcc bench recall` on real windows: every input below is projected at 1500, 4000 and 8000
 * tokens and must state no outcome the record contradicts; across the corpora, most commands'
 * final outcomes must be stated, and right, at the small budgets. Its table is printed with the test's
 * output. Adding an input is one line. The stores the live Hermes sessions leave are scored by
 * `hermes_live_test.ts`, after the sessions ran.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { checkRecall } from "../support/recall_check.ts";
import { runVcc } from "../support/vcc_harness.ts";

interface RecallInput {
  readonly name: string;
  readonly args: readonly string[];
  /** A path the input needs; the test is ignored, saying so, when it is absent. */
  readonly needs?: string;
}

/** A folder of windows, named by its path. */
function folder(path: string): RecallInput {
  return { name: path, args: [path], needs: path };
}

const INPUTS: readonly RecallInput[] = [
  folder("../shared/corpus/swe-agent"),
  folder("../shared/corpus/mini-swe-agent"),
  { name: "the demo session", args: ["--demo"] },
];

for (const input of INPUTS) {
  const absent = input.needs !== undefined && !existsSync(input.needs);
  Deno.test({
    name: `vcc bench recall states no outcome wrong on ${input.name}` +
      (input.needs === undefined ? "" : ` (ignored when ${input.needs} is absent)`),
    ignore: absent,
    fn: () => checkRecall(input.args),
  });
}

const CORPORA = ["../shared/corpus/swe-agent", "../shared/corpus/mini-swe-agent"];
// The least share of commands whose final outcome is stated right, at each budget (tokens).
const LEAST_RIGHT: ReadonlyArray<readonly [number, number]> = [[1_500, 0.85], [4_000, 0.99]];

Deno.test({
  name: "the corpora's commands are stated with their right final outcome at small budgets " +
    "(ignored when the corpora are absent)",
  ignore: CORPORA.some((path) => !existsSync(path)),
  fn: async () => {
    const run = await runVcc(["bench", "recall", ...CORPORA], Deno.makeTempDirSync());
    const report = /^PASS; report: (.+)$/m.exec(run.stdout)?.[1];
    assert.ok(report !== undefined, run.stdout);
    const totals: ReadonlyArray<{
      corpus: string;
      budgetTokens: number;
      commands: { checkable: number; right: number };
    }> = JSON.parse(Deno.readTextFileSync(report)).totals;
    for (const [budget, least] of LEAST_RIGHT) {
      const all = totals.find((row) => row.corpus === "all" && row.budgetTokens === budget);
      assert.ok(all !== undefined, `${budget}`);
      const share = all.commands.right / all.commands.checkable;
      assert.ok(
        share >= least,
        `${budget} tokens: ${all.commands.right}/${all.commands.checkable}`,
      );
    }
  },
});
