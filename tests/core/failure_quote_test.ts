/**
 * What a failed command's line quotes: the lines of its output that name the error, including a
 * program's report in its own words that carries no error word, wherever the output puts it among
 * lines that do not name one.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { callRows } from "../support/call_rows.ts";

const REPORTS = [
  "patch: **** malformed patch at line 79: @@ -1,3 +1,4 @@",
  "patch: **** Only garbage was found in the patch input.",
  "make: *** [Makefile:12: test] Error 2",
];
const AROUND = ["patching file src/a.py", "checking file docs/b.md", "Hunk #1 succeeded at 4.", ""];

Deno.test("a failed command's line quotes the report its program wrote in its own words", () => {
  const random = new SeededRandom(37);
  for (let trial = 0; trial < 60; trial++) {
    const report = random.pick(REPORTS);
    const lines = Array.from({ length: random.range(0, 6) }, () => random.pick(AROUND));
    lines.splice(random.int(lines.length + 1), 0, report);
    const window = [
      { role: "user", content: "Apply the fix.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "patch -p1 < fix.diff" }, {
        output: lines.join("\n"),
        exit_code: 2,
      }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const fixes = body.split("## Errors & Fixes\n")[1]!.split("\n\n")[0]!;
    assert.ok(fixes.includes(`— failed (exit 2) [#3]: ${report}`), `${lines.join("\n")}\n${fixes}`);
  }
});
