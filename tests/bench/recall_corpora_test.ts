/**
 * `vcc bench recall` on real windows: every input below is projected at 1500, 4000 and 8000
 * tokens and must state no outcome the record contradicts. Its table is printed with the test's
 * output. Adding an input is one line. The stores the live Hermes sessions leave are scored by
 * `hermes_live_test.ts`, after the sessions ran.
 */
import { existsSync } from "node:fs";
import { checkRecall } from "../support/recall_check.ts";

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
