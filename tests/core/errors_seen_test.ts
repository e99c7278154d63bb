/**
 * Errors Seen: the error lines outputs printed, whatever the exit code, told apart by their
 * fingerprints. The windows are the shapes the replay bench plants (a large log printed by a
 * command that exits 0, tagged lines in other scripts); the expected lines are written by hand.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { callRows } from "../support/call_rows.ts";

/** The lines of a section of `body`, its heading left out. */
function section(body: string, heading: string): string[] {
  const start = body.indexOf(`${heading}\n`);
  if (start === -1) return [];
  const rest = body.slice(start + heading.length + 1);
  const end = rest.indexOf("\n\n");
  return (end === -1 ? rest : rest.slice(0, end)).split("\n");
}

function logWindow(first: number) {
  const log = [
    ...Array.from(
      { length: 400 },
      (_, i) => `2026-12-01 10:${String(i % 60).padStart(2, "0")}:00 INFO request ${i} ok`,
    ),
    "2026-12-01 10:11:12 ERROR payment declined for order A-1204 (card ending 4242)",
    "2026-12-01 10:11:13 ERROR payment declined for order A-1377 (card ending 1881)",
    "2026-12-01 10:12:00 FATAL ledger writer stopped: disk quota exceeded on /var/lib/ledger",
    "[错误] 库存同步失败 SKU KX-9 仓库 3",
    "2026-12-01 10:13:00 INFO shutting down",
  ].join("\n");
  return [
    { role: "user", content: "Find out why the payments fail.", _row_id: first },
    {
      role: "assistant",
      content: "",
      _row_id: first + 1,
      tool_calls: [{
        id: `c${first}`,
        type: "function",
        function: {
          name: "terminal",
          arguments: JSON.stringify({ command: "sed -n 1,500p logs/app.log" }),
        },
      }],
    },
    {
      role: "tool",
      tool_call_id: `c${first}`,
      _row_id: first + 2,
      content: JSON.stringify({ output: log, exit_code: 0, error: null }),
    },
  ];
}

Deno.test("errors printed by a command that exited 0 are listed once each, with counts, and said on its line", () => {
  const { body } = project(logWindow(10), { budgetTokens: 1500, sessionId: "s" });
  assert.match(
    body,
    /^- ERROR payment declined for order A-1204 \(card ending 4242\) ×2, numbers vary \(first at \[#12\]\)$/m,
  );
  assert.match(
    body,
    /^- FATAL ledger writer stopped: disk quota exceeded on \/var\/lib\/ledger \(first at \[#12\]\)$/m,
  );
  assert.match(body, /^- \[错误\] 库存同步失败 SKU KX-9 仓库 3 \(first at \[#12\]\)$/m);
  assert.doesNotMatch(body, /INFO request/, "lines no level tags as errors are not errors");
  assert.match(
    body,
    /`sed -n 1,500p logs\/app\.log` — succeeded \(exit 0\) but printed an error \[#12\]/,
  );
});

Deno.test("an error seen again after a compaction adds to its count", () => {
  const first = project(logWindow(10), { budgetTokens: 4000, sessionId: "s" }).body;
  const { body } = project(logWindow(20), { budgetTokens: 4000, sessionId: "s", previous: first });
  assert.match(
    body,
    /^- ERROR payment declined for order A-1204 \(card ending 4242\) ×4, numbers vary \(first at \[#12\]\)$/m,
  );
  assert.equal(body.match(/^- ERROR payment declined/gm)?.length, 1, "one line for the one error");
});

/** A window that reads each of `paths` with read_file, each file holding `lines` as read_file numbers them. */
function readWindow(paths: readonly string[], lines: (path: string) => string[]) {
  return [
    { role: "user", content: "Look at these files.", _row_id: 1 },
    ...paths.flatMap((path, i) => [
      {
        role: "assistant",
        content: "",
        _row_id: 10 + 2 * i,
        tool_calls: [{
          id: `r${i}`,
          type: "function",
          function: { name: "read_file", arguments: JSON.stringify({ path }) },
        }],
      },
      {
        role: "tool",
        tool_call_id: `r${i}`,
        _row_id: 11 + 2 * i,
        content: JSON.stringify({
          content: lines(path).map((line, n) => `${n + 1}|${line}`).join("\n"),
          total_lines: lines(path).length,
        }),
      },
    ]),
  ];
}

Deno.test("a log read with read_file has its error lines listed; a source, config or document file has none", () => {
  // Files people write: their lines say what they hold, not what happened.
  const written = [
    "config/logging.yaml",
    "src/payments/retry.py",
    "web/App.TSX",
    "deploy/Dockerfile",
    "docs/errors.md",
    "pyproject.toml",
    "internal/store/store.go",
  ];
  // Files a program wrote as it ran (or of a kind not known).
  const printed = ["logs/app.log", "/var/log/syslog", "nohup.out", "ci/job.log.1", "build/output"];
  const lineOf = (path: string) => `2026-12-01 10:00:00 ERROR write failed in ${path}`;
  const { body } = project(
    readWindow([...written, ...printed], (path) => [
      "level: error",
      "# FATAL: never reached",
      "Error: token expired",
      lineOf(path),
    ]),
    { budgetTokens: 8000, sessionId: "s" },
  );
  const start = body.indexOf("## Errors Seen");
  const seen = body.slice(start, body.indexOf("\n\n", start));
  for (const path of written) assert.ok(!seen.includes(path), `${path} is a file people write`);
  for (const path of printed) {
    assert.ok(seen.includes(`- ERROR write failed in ${path}`), `${path} is read as a log`);
  }
});

Deno.test("an error a result prints in its output and again in its error field is seen once", () => {
  const traceback = 'Traceback (most recent call last):\n  File "<cell>", line 1, in <module>\n' +
    "ValueError: ledger 3 is unbalanced\n";
  const call = (id: string, row: number) => ({
    role: "assistant",
    content: "",
    _row_id: row,
    tool_calls: [{
      id,
      type: "function",
      function: { name: "execute_code", arguments: JSON.stringify({ code: "check(3)" }) },
    }],
  });
  const window = [
    { role: "user", content: "Check ledger 3.", _row_id: 1 },
    call("a", 2),
    {
      role: "tool",
      tool_call_id: "a",
      _row_id: 3,
      content: JSON.stringify({
        status: "error",
        output: `\n--- stderr ---\n${traceback}`,
        exit_code: 1,
        error: traceback,
      }),
    },
    call("b", 4),
    {
      role: "tool",
      tool_call_id: "b",
      _row_id: 5,
      // Here the error field says what the output does not.
      content: JSON.stringify({
        status: "error",
        output: "ERROR ledger 4 read failed",
        exit_code: 1,
        error: "KeyError: 'ledger_4'",
      }),
    },
  ];
  const { body } = project(window, { budgetTokens: 4000, sessionId: "s" });
  assert.match(body, /^- ValueError: ledger 3 is unbalanced \(first at \[#3\]\)$/m);
  assert.match(body, /^- ERROR ledger 4 read failed \(first at \[#5\]\)$/m);
  assert.match(body, /^- KeyError: 'ledger_4' \(first at \[#5\]\)$/m);
});

Deno.test("a merge conflict is kept with the file it is in", () => {
  const output = "Auto-merging tally/__init__.py\n" +
    "CONFLICT (content): Merge conflict in tally/__init__.py\n" +
    "Automatic merge failed; fix conflicts and then commit the result.\n";
  const window = [
    { role: "user", content: "Merge feature_2 into main.", _row_id: 1 },
    {
      role: "assistant",
      content: "",
      _row_id: 2,
      tool_calls: [{
        id: "m",
        type: "function",
        function: {
          name: "terminal",
          arguments: JSON.stringify({ command: "git merge feature_2" }),
        },
      }],
    },
    {
      role: "tool",
      tool_call_id: "m",
      _row_id: 3,
      content: JSON.stringify({ output, exit_code: 1, error: null }),
    },
  ];
  const { body } = project(window, { budgetTokens: 1500, sessionId: "s" });
  assert.match(
    body,
    /^- CONFLICT \(content\): Merge conflict in tally\/__init__\.py \(first at \[#3\]\)$/m,
  );
  assert.match(
    body,
    /^- \[#2\] terminal `git merge feature_2` — failed \(exit 1\) \[#3\]: CONFLICT \(content\): Merge conflict in tally\/__init__\.py/m,
  );
});

/** A failing pytest run as pytest prints it: each failure's block with its `E` lines, then the
 * short summary naming each failed test and what it raised (long messages cut short). */
function pytestRun(random: SeededRandom, failures: readonly Failure[]): string {
  const lines = [
    "============================= test session starts ==============================",
    "",
  ];
  for (const { test, error, message } of failures) {
    lines.push(`_____ ${test.split("::")[1]} _____`, "", `    def ${test.split("::")[1]}():`);
    lines.push(`>       ledger.settle(${random.range(1, 99)})`, "", `E       ${error}: ${message}`);
    lines.push("", `tests/test_ledger.py:${random.range(10, 300)}: ${error}`);
  }
  lines.push("=========================== short test summary info ============================");
  for (const { test, error, message } of failures) {
    const said = `${error}: ${message}`;
    lines.push(`FAILED ${test} - ${said.length > 60 ? `${said.slice(0, 57)}...` : said}`);
  }
  lines.push(`${failures.length} failed, ${random.range(10, 90)} passed in 2.31s`);
  return lines.join("\n");
}

/** A `pytest -q` call ([#2]) and its failed run printing `output` ([#3]). */
function pytestRows(output: string) {
  return [
    {
      role: "assistant",
      content: "",
      _row_id: 2,
      tool_calls: [{
        id: "c1",
        type: "function",
        function: { name: "terminal", arguments: JSON.stringify({ command: "pytest -q" }) },
      }],
    },
    {
      role: "tool",
      tool_call_id: "c1",
      _row_id: 3,
      content: JSON.stringify({ output, exit_code: 1 }),
    },
  ];
}

interface Failure {
  readonly test: string;
  readonly error: string;
  readonly message: string;
}

Deno.test("a failed test printed in its block and in pytest's summary is one error, named by its test", () => {
  for (let seed = 1; seed <= 25; seed++) {
    const random = new SeededRandom(seed);
    const failures: Failure[] = Array.from({ length: random.range(1, 4) }, (_, i) => ({
      // Tests apart by more than a number (numbers are masked in fingerprints).
      test: `tests/test_ledger.py::test_${["settle", "refund", "batch", "export"][i]}_${
        random.pick(["twice", "late", "empty"])
      }`,
      error: random.pick(["KeyError", "ValueError", "ledger.errors.SettlementError"]),
      message: random.chance(0.5)
        ? `'sku-${random.hex(4)}'`
        : `batch ${random.range(1, 9)} of shard ${random.hex(6)} was settled twice by the writer`,
    }));
    const window = [
      { role: "user", content: "Make the ledger tests pass.", _row_id: 1 },
      ...pytestRows(pytestRun(random, failures)),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 8000 });
    const seen = section(body, "## Errors Seen");
    const summaryLines = seen.filter((line) => line.startsWith("- FAILED "));
    assert.equal(summaryLines.length, failures.length, `seed ${seed}:\n${seen.join("\n")}`);
    for (const { test } of failures) {
      assert.ok(summaryLines.some((line) => line.includes(test)), `seed ${seed}: ${test}`);
    }
    // What the summary lines stand for is not listed again on its own, nor counted twice.
    assert.deepEqual(
      seen.filter((line) => line.includes(": ") && !line.startsWith("- FAILED ")).filter((line) =>
        failures.some(({ error }) => line.startsWith(`- ${error.split(".").at(-1)}:`))
      ),
      [],
      `seed ${seed}:\n${seen.join("\n")}`,
    );
    assert.ok(summaryLines.every((line) => !/ ×\d/.test(line)), `seed ${seed}`);
  }
});

Deno.test("an exception no test summary names stays an error of its own", () => {
  const output = [
    "E       KeyError: 'sku-1'",
    "WARNING retry: ConnectionResetError: peer closed",
    "ConnectionResetError: peer closed",
    "FAILED tests/test_a.py::test_x - KeyError: 'sku-1'",
    "1 failed, 3 passed",
  ].join("\n");
  const window = pytestRows(output);
  const seen = section(
    project(window, { sessionId: "s", budgetTokens: 8000 }).body,
    "## Errors Seen",
  );
  assert.deepEqual(seen, [
    "- ConnectionResetError: peer closed (first at [#3])",
    "- FAILED tests/test_a.py::test_x - KeyError: 'sku-1' (first at [#3])",
  ]);
});

Deno.test("test runs' tallies are no errors seen, whatever they count", () => {
  const random = new SeededRandom(43);
  const tallies = [
    () =>
      `test result: FAILED. ${random.range(1, 90)} passed; ${random.range(1, 9)} failed; 0 ignored`,
    () => `FAIL\tgithub.com/dev/orbit/internal/store\t0.0${random.range(10, 99)}s`,
  ];
  const rows = [];
  for (let run = 0; run < 4; run++) {
    const failing = `test kernel::tests::${["alpha", "beta", "gamma", "delta"][run]} ... FAILED`;
    rows.push(...callRows(2 + 2 * run, "terminal", { command: "cargo test" }, {
      output: `${failing}\n${random.pick(tallies)()}`,
      exit_code: 101,
    }));
  }
  const { body } = project([{ role: "user", content: "Fix the tests.", _row_id: 1 }, ...rows], {
    sessionId: "s",
    budgetTokens: 8000,
  });
  const seen = section(body, "## Errors Seen");
  assert.deepEqual(seen.filter((line) => /test result|\bFAIL\s+github/.test(line)), [], body);
  assert.equal(seen.filter((line) => line.includes("... FAILED")).length, 4, body);
});

// Summaries that count errors, each with its count, and what a run prints around them.
const SUMMARIES = [
  (n: number) => `==71422== ERROR SUMMARY: ${n} errors from ${n} contexts (suppressed: 0 from 0)`,
  (n: number) => `[ERROR] build: ${n} errors, 3 warnings`,
  (n: number) => `ERROR SUMMARY: ${n} errors`,
];
const AROUND_SUMMARY = ["==71422== HEAP SUMMARY:", "==71422== All heap blocks were freed", ""];

Deno.test("a run whose summary counts no errors printed none, the same command's earlier run did", () => {
  const random = new SeededRandom(53);
  for (let trial = 0; trial < 40; trial++) {
    const summary = random.pick(SUMMARIES);
    const command = "valgrind --leak-check=full ./bench/fir_bench --taps 64";
    const output = (n: number) =>
      [...AROUND_SUMMARY.slice(0, random.range(0, 3)), summary(n)].join("\n");
    const errors = random.range(1, 40);
    const window = [
      { role: "user", content: "Fix the leak.", _row_id: 1 },
      ...callRows(2, "terminal", { command }, { output: output(errors), exit_code: 0 }),
      ...callRows(4, "terminal", { command }, { output: output(0), exit_code: 0 }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const runs = body.split("\n").find((line) => line.startsWith("- [#2] `valgrind"));
    assert.ok(
      runs?.endsWith(
        "— succeeded (exit 0) but printed an error [#3], then succeeded (exit 0) [#5]",
      ),
      `${summary(errors)}\n${body}`,
    );
    const seen = body.split("## Errors Seen\n")[1]?.split("\n\n")[0] ?? "";
    assert.ok(!seen.includes("×2"), seen);
  }
});

Deno.test("a type checker's errors are listed, and its run piped to tail says it printed an error", () => {
  const random = new SeededRandom(41);
  const messages = [
    "Argument of type 'string' is not assignable to parameter of type 'number'.",
    "Property 'total' does not exist on type 'Order'.",
    "Cannot find name 'ledger'.",
    "Object is possibly 'undefined'.",
  ];
  for (let trial = 0; trial < 20; trial++) {
    // tsc's plain and pretty places, C#'s (with its project), each error's code and place random.
    const errors = Array.from({ length: random.range(1, 4) }, (_, index) => {
      const file = `src/${random.pick(["server", "orders", "ledger"])}${index}.ts`;
      const [line, column] = [random.range(1, 400), random.range(1, 80)];
      const code = random.range(1000, 9999);
      const message = messages[index] as string;
      return random.pick([
        `${file}(${line},${column}): error TS${code}: ${message}`,
        `${file}:${line}:${column} - error TS${code}: ${message}`,
        `Program${index}.cs(${line},${column}): error CS${code}: ${message} [/src/app/app.csproj]`,
      ]);
    });
    const filler = Array.from(
      { length: random.range(0, 30) },
      (_, i) => `  ${i} | const x${i} = 1;`,
    );
    const output = [...filler, ...errors, "", `Found ${errors.length} errors.`].join("\n");
    const rows = [
      { role: "user", _row_id: 1, content: "Type-check the project." },
      ...callRows(2, "terminal", { command: "npx tsc --noEmit 2>&1 | tail -40" }, {
        output,
        exit_code: 0,
        error: null,
      }),
    ];
    const { body } = project(rows, { budgetTokens: 4000, sessionId: "s" });
    const seen = section(body, "## Errors Seen");
    assert.deepEqual(seen, errors.map((error) => `- ${error} (first at [#3])`), output);
    assert.match(
      body,
      /^- \[#2\] `npx tsc --noEmit 2>&1 \| tail -40` — ran \(exit 0 of tail\) but printed an error \[#3\]$/m,
    );
  }
});

Deno.test("Errors Seen counts an error's lines alike but for their numbers, says when they vary, and keeps names apart", () => {
  // Errors whose numbers are values (masked), and whose digits end a name or a code (kept).
  const VALUED = [
    (n: number) => `ELIFECYCLE Command failed with exit code ${n}.`,
    (n: number) => `ERROR payment declined for order A-${n}`,
    (n: number) => `FATAL worker ${n} lost its lease after ${n * 3}s`,
    // A test run again is the same test: its retry's mark is no other error.
    (n: number) =>
      `✘  7 [chromium] › cart.spec.ts:40:5 › applies a coupon${
        n % 2 ? " (retry #1)" : ""
      } (${n}.1s)`,
  ];
  const NAMED = [
    (n: number) => `--- FAIL: TestRetry/max_retries_${n} (0.30s)`,
    (n: number) => `src/a.ts(3,7): error TS23${n}5: Argument is not assignable.`,
    (n: number) => `FAILED tests/test_search_${n}.py::test_rank - AssertionError`,
  ];
  for (let seed = 1; seed <= 30; seed++) {
    const random = new SeededRandom(seed);
    const printed: string[] = [];
    const valued = random.pick(VALUED);
    const times = random.range(2, 5);
    const numbers = Array.from({ length: times }, () => random.range(1, 9));
    for (const n of numbers) printed.push(valued(n));
    const named = random.pick(NAMED);
    const names = [
      ...new Set(Array.from({ length: random.range(1, 4) }, () => random.range(0, 9))),
    ];
    for (const n of names) printed.push(named(n));
    const reversed = random.chance(0.5);
    const rows = [
      { role: "user", content: "Run it.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "./run-all" }, {
        output: (reversed ? printed.toReversed() : printed).join("\n"),
        exit_code: 1,
      }),
    ];
    const seen = section(project(rows, { budgetTokens: 8000 }).body, "## Errors Seen");
    // The entry shows the line printed first, and counts every line alike but for its numbers.
    // Shown as sanitised: runs of spaces as one.
    const first = valued((reversed ? numbers.at(-1) : numbers.at(0)) as number).replace(/ +/g, " ");
    const varies = new Set(numbers).size > 1 ? ", numbers vary" : "";
    assert.ok(
      seen.includes(`- ${first} ×${times}${varies} (first at [#3])`),
      `seed ${seed}: ${first}\n${seen.join("\n")}`,
    );
    for (const n of names) {
      assert.equal(
        seen.filter((line) => line.startsWith(`- ${named(n)} (first at`)).length,
        1,
        `${seed}: ${named(n)}\n${seen.join("\n")}`,
      );
    }
  }
});
