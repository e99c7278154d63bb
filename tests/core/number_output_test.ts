/**
 * What a command that succeeded printed is quoted on its line even when it is only a number (an
 * HTTP status from `curl -w`, a count from `wc -l`, an exit status echoed), among lines of rules
 * and dots that are not worth quoting.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { callRows } from "../support/call_rows.ts";

const COMMANDS = [
  "curl -s -o /dev/null -w '%{http_code}\\n' http://localhost:4000/api/orders/ord_1",
  "wc -l < data/rows.csv",
  "./check.sh; echo $?",
  "git rev-list --count HEAD",
];
const NOISE = ["....", "----", "====", ""];

Deno.test("a success that printed only a number has that number quoted on its log line", () => {
  const random = new SeededRandom(11);
  for (let trial = 0; trial < 80; trial++) {
    const number = String(random.pick([0, 3, 200, 404, 500, 17_204, random.int(1e9)]));
    const lines = Array.from({ length: random.range(0, 3) }, () => random.pick(NOISE));
    lines.push(number);
    const command = random.pick(COMMANDS);
    const window = [
      { role: "user", content: "Check the service.", _row_id: 1 },
      ...callRows(2, "terminal", { command }, { output: lines.join("\n"), exit_code: 0 }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const result = body.split("\n").find((line) => line.startsWith("[#3] "));
    assert.ok(result?.endsWith(`: ${number}`), `${JSON.stringify(lines)}\n${body}`);
  }
});
