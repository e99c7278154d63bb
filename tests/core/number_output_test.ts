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

Deno.test("a query's row of numbers is quoted on its log line, as psql prints it", () => {
  const random = new SeededRandom(17);
  for (let trial = 0; trial < 60; trial++) {
    const values = Array.from({ length: random.range(1, 4) }, () => String(random.int(1e6)));
    // psql's unaligned row (`-At`), a tab-separated one, or an aligned table with its header.
    const form = random.pick(["unaligned", "tabs", "table"]);
    const row = form === "unaligned"
      ? values.join("|")
      : form === "tabs"
      ? values.join("\t")
      : ` ${values.map((value) => value.padStart(8)).join(" | ")}`;
    const output = form === "table"
      ? [` ${values.map((_, i) => `c${i}`.padEnd(8)).join(" | ")}`, "-".repeat(30), row, "(1 row)"]
        .join("\n")
      : row;
    const window = [
      { role: "user", content: "Verify the backfill with a count.", _row_id: 1 },
      ...callRows(2, "terminal", { command: `psql "$DB" -Atc "select ${trial}"` }, {
        output,
        exit_code: 0,
      }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const result = body.split("\n").find((line) => line.startsWith("[#3] ")) ?? "";
    // Every value is quoted, in the order printed (the table's spacing folded).
    const quoted = values.map((value) => result.indexOf(value, result.indexOf(": ")));
    assert.ok(
      quoted.every((at, i) => at > 0 && (i === 0 || at > (quoted[i - 1] as number))),
      `${output}\n${body}`,
    );
  }
});

Deno.test("a long run of digits and separators that is no row of numbers is read once", () => {
  // Each of these would take exponential time to tell from a row if numbers could be parted in
  // more than one way.
  for (const line of ["1".repeat(60) + "x", "1 ".repeat(60) + "x", "1|".repeat(60) + "x"]) {
    const window = [
      { role: "user", content: "Check the counts.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "./count.sh" }, { output: line, exit_code: 0 }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    assert.doesNotMatch(body, /1{60}|(?:1 ){60}|(?:1\|){60}/, body);
  }
});

Deno.test("a query's one-letter answer is quoted on its log line, as psql prints a boolean", () => {
  const random = new SeededRandom(23);
  for (let trial = 0; trial < 40; trial++) {
    const answer = random.pick(["t", "f", "Y", "N"]);
    const column = random.pick(["pg_terminate_backend", "pg_cancel_backend", "exists", "is_ok"]);
    const output = ` ${column}\n${"-".repeat(column.length + 2)}\n ${answer}\n(1 row)\n`;
    const window = [
      { role: "user", content: "Stop the backend holding the lock.", _row_id: 1 },
      ...callRows(2, "terminal", { command: `psql -c "select ${column}(${random.int(1e5)})"` }, {
        output,
        exit_code: 0,
      }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const result = body.split("\n").find((line) => line.startsWith("[#3] "));
    assert.ok(result?.includes(` … ${answer} … (1 row)`), `${output}\n${body}`);
  }
  // Progress dots and rules still say nothing.
  const window = [
    { role: "user", content: "Build it.", _row_id: 1 },
    ...callRows(2, "terminal", { command: "make" }, { output: "....\n----\nx\n", exit_code: 0 }),
  ];
  const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
  assert.ok(body.split("\n").find((line) => line.startsWith("[#3] "))?.endsWith(": x"), body);
});
