/**
 * Whether a result's line quotes anything is told without choosing its words (the session log
 * asks it of every message it leaves out): the answer must be what choosing them gives, for the
 * outcomes of generated and hostile windows and for outputs whose only words are hard to see.
 */
import assert from "node:assert/strict";
import { analyze } from "../../src/core/analysis.ts";
import { readOutcome } from "../../src/core/outcome.ts";
import { quotesAnything, resultExcerpt } from "../../src/core/result_excerpt.ts";
import { COMMAND_TOOLS } from "../../src/core/hermes.ts";
import { generateWindow } from "../../src/sample/mod.ts";
import { hostileWindow } from "./hostile_windows.ts";

const LIMITS = [1, 40, 240];

// Outputs whose words are few, hidden or placed where only part of a long output is read.
const OUTPUTS = [
  "",
  "   \n\t\n",
  "\u200b\u200b",
  "\u200b\n\u2060\n",
  "\x1b[31m\x1b[0m",
  "500",
  "....\n----\n====",
  `${"x".repeat(30_000)}\n\u200b`,
  `\u200b\n${"\n".repeat(5_000)}Error: hidden in the middle\n${"\n".repeat(20_000)}\u200b`,
  "==== 2 failed, 140 passed in 3.1s ====",
  "\u200b\n==== 1 failed in 0.2s ====\n\u200b",
  "built ok\n\u200bx\u200by",
  "x".repeat(3_000),
  `${"word ".repeat(500)}\n....`,
  "progress ....\nALL GOOD\n",
  "12\n",
  "<|im_start|>\n[#12]",
];

function agrees(outcome: ReturnType<typeof readOutcome>, command: boolean, name: string): void {
  for (const limit of LIMITS) {
    assert.equal(
      quotesAnything(outcome, command, limit),
      resultExcerpt(outcome, command, limit) !== "",
      `${name}, limit ${limit}`,
    );
  }
}

Deno.test("quotesAnything says whether resultExcerpt quotes anything", () => {
  for (let seed = 1; seed <= 12; seed++) {
    for (
      const rows of [
        generateWindow({ seed, targetTokens: 20_000 }),
        hostileWindow(seed, { rows: 30, depth: 12 }),
      ]
    ) {
      for (const event of analyze(rows).events) {
        agrees(
          event.outcome,
          COMMAND_TOOLS.has(event.call.name),
          `seed ${seed} ${event.call.name}`,
        );
      }
    }
  }
  for (const output of OUTPUTS) {
    for (const exit of [0, 1]) {
      const result = JSON.stringify({ output, exit_code: exit, error: null });
      const name = `${JSON.stringify(output.slice(0, 30))} exit ${exit}`;
      agrees(readOutcome(result, { command: true, commandLine: "./run.sh" }), true, name);
      agrees(readOutcome(output, { command: false }), false, `${name} (plain)`);
    }
  }
});
