/**
 * Facts from Outputs on generated outputs: the planted line (a commit, a diff's index, a failed
 * item among many, the line a request points at, a job's last words, a delegated task's report)
 * sits at a random place in a long output of a command that succeeded; the oracle is the planted
 * line itself, and its neighbours must not be taken for it.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";
import { callRows, type Row } from "../support/call_rows.ts";

/** The section's lines. */
function facts(body: string): string[] {
  const section = /## Facts from Outputs\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
  return section.split("\n").filter((line) => line.startsWith("- "));
}

/** `lines` with `planted` at a random place among them. */
function around(random: SeededRandom, lines: string[], planted: string): string {
  const at = random.int(lines.length + 1);
  return [...lines.slice(0, at), planted, ...lines.slice(at)].join("\n");
}

Deno.test("Facts from Outputs keeps the planted line of a long output, and only it", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = new SeededRandom(seed);
    const shard = random.range(1, 40);
    const hash = random.hex(7);
    const blobs = `${random.hex(7)}..${random.hex(7)}`;
    const failed = random.range(10_000, 99_999);
    const noise = (count: number, line: (index: number) => string) =>
      Array.from({ length: count }, (_, index) => line(index));
    const added = random.range(1, 30);
    const removed = random.range(0, 30);
    const runs = noise(
      60,
      (index) => `{"id":${index + 1},"branch":"main","conclusion":"success"}`,
    );
    const metrics = noise(
      50,
      (index) => `ledger_quarantine_total{shard="${index + 41}"} ${index}`,
    );
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: `Replay shard ${shard} and tell me what CI says.` },
      ...callRows(2, "terminal", { command: "git commit -am fix" }, {
        output: `[main ${hash}] fix\n 1 file changed`,
        exit_code: 0,
      }),
      ...callRows(4, "terminal", { command: "git diff" }, {
        output: `diff --git a/x.py b/x.py\nindex ${blobs} 100644\n--- a/x.py\n+++ b/x.py\n` +
          `@@ -1,${removed + 1} +1,${added + 1} @@\n context\n` +
          [...noise(removed, (index) => `-old ${index}`), ...noise(added, (i) => `+new ${i}`)]
            .join("\n"),
        exit_code: 0,
      }),
      ...callRows(6, "terminal", { command: "ci runs" }, {
        output: around(random, runs, `{"id":${failed},"branch":"main","conclusion":"failure"}`),
        exit_code: 0,
      }),
      ...callRows(8, "execute_code", { code: "print(metrics)" }, {
        status: "success",
        output: around(random, metrics, `ledger_quarantine_total{shard="${shard}"} 18`),
      }),
      ...callRows(10, "delegate_task", { goal: "find callers" }, {
        results: [{ status: "completed", summary: `2 call sites: a.py:${shard}, b.py:3.` }],
      }),
      ...callRows(12, "process", { action: "wait", session_id: "proc_1" }, {
        status: "exited",
        exit_code: 0,
        output: `reading\nreplayed ${failed} batches, 0 dropped\n`,
      }),
    ];
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    const has = (pattern: RegExp) => lines.some((line) => pattern.test(line));
    assert.ok(has(new RegExp(`^- \\[#3\\] terminal commit: \\[main ${hash}\\] fix$`)), `${seed}`);
    assert.ok(
      has(new RegExp(`^- \\[#5\\] terminal diff: x\\.py \\+${added} -${removed}, index ${blobs}$`)),
      `${seed}`,
    );
    assert.ok(has(new RegExp(`^- \\[#7\\] terminal failed item: .*"id":${failed},`)), `${seed}`);
    assert.ok(has(new RegExp(`^- \\[#9\\] execute_code line: .*shard="${shard}"\\} 18$`)));
    assert.ok(!has(/shard="(?:4[1-9]|[5-9]\d)"/), `seed ${seed}: only the line pointed at`);
    assert.ok(
      has(new RegExp(`^- \\[#11\\] delegate_task reported: 2 call sites: a\\.py:${shard},`)),
    );
    assert.ok(has(new RegExp(`^- \\[#13\\] process reported: replayed ${failed} batches`)));
  }
});

Deno.test("Facts from Outputs takes no tool's version the request names for a pointer, and no wordless line", () => {
  const TOOLS = [
    "Python",
    "Django",
    "Node",
    "Postgres",
    "Ruby",
    "Rails",
    "Go",
    "Java",
    "Terraform",
  ];
  for (let seed = 1; seed <= 30; seed++) {
    const random = new SeededRandom(seed);
    const tool = random.pick(TOOLS);
    const major = random.range(1, 20);
    const minor = random.range(0, 40);
    const shard = random.range(1, 40);
    const passed = random.range(5, 400);
    // Every run prints its setup (the tool at its full version) before its own lines.
    const setup = `platform linux -- ${tool} ${major}.${minor}.${
      random.range(0, 9)
    }, plugins 1.5.0`;
    const run = (lines: string[]) => [setup, ...lines].join("\n");
    const filler = Array.from({ length: 20 }, (_, index) => `step ${index + 100} done`);
    const rows: Row[] = [
      {
        role: "user",
        _row_id: 1,
        content: `On ${tool} ${major}.${minor}, replay shard ${shard} and run the suite.`,
      },
      ...callRows(2, "terminal", { command: "./replay --all" }, {
        output: run([...filler, `replayed shard ${shard}: 3 dropped`]),
        exit_code: 0,
      }),
      ...callRows(4, "process", { action: "wait", session_id: "proc_1" }, {
        status: "exited",
        exit_code: 0,
        output: run([...filler, `${passed} passed in 4.1s`, ".".repeat(random.range(3, 60))]),
      }),
      ...callRows(6, "process", { action: "wait", session_id: "proc_2" }, {
        status: "exited",
        exit_code: 0,
        output: run([...filler, `${"=".repeat(random.range(3, 30))} ${passed} passed in 4.1s ===`]),
      }),
    ];
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    assert.ok(lines.some((line) => line.includes(`replayed shard ${shard}: 3 dropped`)), `${seed}`);
    assert.deepEqual(lines.filter((line) => line.includes("platform")), [], `seed ${seed}`);
    assert.deepEqual(
      lines.filter((line) => !/[\p{L}\p{N}]/u.test(line.replace(/^- \[#\d+\] \w+ \w+:/, ""))),
      [],
    );
    // The job's last words and its tally are one fact, stated without its rules.
    const tallies = lines.filter((line) => line.includes(`${passed} passed in 4.1s`));
    assert.equal(tallies.length, 2, `seed ${seed}: ${tallies.join(" | ")}`);
    assert.ok(tallies.every((line) => line.endsWith(`: ${passed} passed in 4.1s`)), `${seed}`);
  }
});

Deno.test("Facts from Outputs keeps where git's work left the branch, none of it called a commit made", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = new SeededRandom(seed);
    const hash = random.hex(40);
    const branch = `fix/${random.pick(["rounding", "retry", "ledger"])}-${random.range(1, 99)}`;
    const filler = (count: number) =>
      Array.from({ length: count }, (_, index) => `Bisecting: ${index} revisions left to test`);
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Find the commit that broke it and rebase." },
      ...callRows(2, "terminal", { command: "git bisect run make test" }, {
        output: [
          ...filler(random.range(1, 30)),
          `${hash} is the first bad commit`,
          `commit ${hash}`,
          "Author: Dev <dev@example.com>",
        ].join("\n"),
        exit_code: 0,
      }),
      ...callRows(4, "terminal", { command: "git rebase origin/main" }, {
        output: `Successfully rebased and updated refs/heads/${branch}.`,
        exit_code: 0,
      }),
      ...callRows(6, "terminal", { command: `git reset --hard ${hash.slice(0, 7)}` }, {
        output: `HEAD is now at ${hash.slice(0, 7)} Switch split to half-even`,
        exit_code: 0,
      }),
      // Not git: the same words from another program state nothing.
      ...callRows(8, "terminal", { command: "./report.sh" }, {
        output: `${hash} is the first bad commit`,
        exit_code: 0,
      }),
      ...callRows(10, "terminal", { command: `git push -u origin ${branch}` }, {
        output: [
          "Enumerating objects: 9, done.",
          "To github.com:acme/ledger.git",
          `   ${hash.slice(0, 7)}..${hash.slice(-7)}  ${branch} -> ${branch}`,
          ` * [new tag]         v0.${seed} -> v0.${seed}`,
          `branch '${branch}' set up to track 'origin/${branch}'.`,
        ].join("\n"),
        exit_code: 0,
      }),
    ];
    // A dry run moves nothing; a log printed beside git names no result of its.
    const pushed = `   ${hash.slice(7, 14)}..${hash.slice(20, 27)}  main -> main`;
    rows.push(
      ...callRows(12, "terminal", { command: "git push --dry-run origin main" }, {
        output: `To github.com:acme/ledger.git\n${pushed}`,
        exit_code: 0,
      }),
      ...callRows(14, "terminal", { command: "tail -3 deploy.log && git status --short" }, {
        output: `${pushed}\nHEAD is now at ${hash.slice(30, 37)} deploy`,
        exit_code: 0,
      }),
    );
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    // No commit was made: none of them is a commit's line.
    assert.deepEqual(lines.filter((line) => line.includes(" commit: ")), []);
    assert.deepEqual(lines.filter((line) => line.includes(" git result: ")), [
      `- [#3] terminal git result: ${hash} is the first bad commit`,
      `- [#5] terminal git result: Successfully rebased and updated refs/heads/${branch}.`,
      `- [#7] terminal git result: HEAD is now at ${hash.slice(0, 7)} Switch split to half-even`,
      `- [#11] terminal git result: ${hash.slice(0, 7)}..${hash.slice(-7)} ${branch} -> ${branch}`,
      `- [#11] terminal git result: * [new tag] v0.${seed} -> v0.${seed}`,
    ]);
  }
});

Deno.test("Facts from Outputs keeps where a test runner saved its report", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = new SeededRandom(seed);
    const module = random.pick(["core", "api", "billing"]);
    const gradle = `> There were failing tests. See the report at: ` +
      `file:///srv/app/${module}/build/reports/tests/test/index.html`;
    const xml = `/tmp/reports/junit-${random.hex(4)}.xml`;
    // pytest frames the line with rules (`---- generated xml file: /a/j.xml ----`).
    const junit = `${"-".repeat(random.range(3, 30))} generated xml file: ${xml} ${
      "-".repeat(random.range(3, 30))
    }`;
    const noise = (count: number) =>
      Array.from({ length: count }, (_, index) => `> Task :${module}:step${index}`);
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the tests." },
      ...callRows(2, "terminal", { command: "./gradlew test" }, {
        output: [...noise(random.range(0, 30)), gradle, "BUILD FAILED in 9s"].join("\n"),
        exit_code: 1,
      }),
      ...callRows(4, "terminal", { command: "pytest --junitxml=/tmp/reports/j.xml" }, {
        output: [...noise(random.range(0, 30)), junit, "3 passed in 0.1s"].join("\n"),
        exit_code: 0,
      }),
      // A report named in prose is no saved report.
      ...callRows(6, "terminal", { command: "cat NOTES.md" }, {
        output: "The nightly job publishes its report; see the report at the dashboard",
        exit_code: 0,
      }),
    ];
    const saved = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.includes(" saved: "));
    assert.deepEqual(saved, [
      `- [#3] terminal saved: ${gradle}`,
      `- [#5] terminal saved: generated xml file: ${xml}`,
    ]);
  }
});

Deno.test("Facts from Outputs keeps a hash git printed alone, and no hex a program printed", () => {
  for (let seed = 1; seed <= 10; seed++) {
    const random = new SeededRandom(seed);
    const full = random.hex(40);
    const short = random.hex(7);
    const other = random.hex(12);
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Commit it and give me the hash." },
      ...callRows(2, "terminal", {
        command:
          `git add -A && git -c user.name=dev commit -qm 'tally ${seed}' && git log --format=%H -1`,
      }, { output: full, exit_code: 0 }),
      ...callRows(4, "terminal", { command: "cd repo && git rev-parse --short HEAD" }, {
        output: `${short}\n`,
        exit_code: 0,
      }),
      ...callRows(6, "terminal", {
        command: "python3 -c 'import secrets; print(secrets.token_hex(6))'",
      }, {
        output: other,
        exit_code: 0,
      }),
    ];
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    assert.deepEqual(lines, [
      `- [#3] terminal hash: ${full}`,
      `- [#5] terminal hash: ${short}`,
    ]);
  }
});

Deno.test("Facts from Outputs quotes nothing from a short output or one without such lines", () => {
  const rows: Row[] = [
    { role: "user", _row_id: 1, content: "List the files of shard 4." },
    ...callRows(2, "terminal", { command: "ls" }, { output: "shard 4\nb.txt", exit_code: 0 }),
  ];
  assert.deepEqual(facts(project(rows, { budgetTokens: 8_000 }).body), []);
});

// The fields listings name an item's status with, and the statuses that say it failed, as APIs
// print them.
const STATUS_FIELDS = ["status", "conclusion", "state", "result", "outcome"];
const FAILED = ["failure", "failed", "error", "errored", "cancelled", "timed_out", "FAILED"];

/** A listing of `count` runs as one JSON document, the runs at `failedAt` failed. */
function runListing(random: SeededRandom, count: number, failedAt: ReadonlySet<number>) {
  const field = random.pick(STATUS_FIELDS);
  const runs = Array.from({ length: count }, (_, index) => ({
    id: 70_000 + index * 7 + random.int(7),
    branch: random.pick(["main", "dev", `feat/${random.hex(4)}`]),
    [field]: failedAt.has(index) ? random.pick(FAILED) : random.pick(["success", "skipped"]),
    steps: [{ name: "test", secs: random.range(1, 90) }],
  }));
  // A bare array, or the array under a key of a page object (`{"workflow_runs": [...]}`).
  const document = random.pick([true, false]) ? runs : { total: count, page: 1, runs };
  // On one line, as an API answers, or indented, as `jq .` prints it.
  return { runs, text: JSON.stringify(document, null, random.pick([0, 2])) };
}

Deno.test("Facts from Outputs keeps the failed items of a listing printed as one JSON document", () => {
  for (let seed = 1; seed <= 30; seed++) {
    const random = new SeededRandom(seed);
    const count = random.range(20, 300);
    const failedAt = new Set([random.int(count), random.int(count)]);
    const { runs, text } = runListing(random, count, failedAt);
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Which CI run failed?" },
      ...callRows(2, "terminal", { command: "gh api runs" }, { output: text, exit_code: 0 }),
    ];
    const items = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.startsWith("- [#3] terminal failed item: "));
    const ids = runs.map((run) => run.id);
    const shown = ids.filter((id) => items.some((line) => line.includes(`"id":${id},`)));
    const failedIds = [...failedAt].map((index) => ids[index]).sort();
    assert.deepEqual(shown.sort(), failedIds, `seed ${seed}:\n${items.join("\n")}`);
    for (const index of failedAt) {
      const run = runs[index]!;
      assert.ok(items.some((line) => line.includes(`"branch":"${run.branch}"`)), `seed ${seed}`);
    }
  }
});

Deno.test("Facts from Outputs finds a failed item by a status its object field holds, in any case", () => {
  // [the field holding the status object, the status field, a healthy and a failed value]
  const SHAPES = [
    ["TargetHealth", "State", "healthy", "unhealthy"],
    ["status", "phase", "Running", "Failed"],
    ["health", "status", "HEALTHY", "UNHEALTHY"],
    ["check", "Result", "passed", "error"],
  ] as const;
  for (let seed = 1; seed <= 30; seed++) {
    const random = new SeededRandom(seed);
    const [holder, field, healthy, failed] = random.pick(SHAPES);
    const count = random.range(20, 120);
    const failedAt = random.int(count);
    const items = Array.from({ length: count }, (_, index) => ({
      Id: `10.42.${random.range(0, 30)}.${index}`,
      Port: 8080,
      [holder]: { [field]: index === failedAt ? failed : healthy },
      Group: `svc-${random.range(1, 9)}`,
    }));
    const text = JSON.stringify(items, null, random.pick([0, 2, 4]));
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Are all targets healthy?" },
      ...callRows(2, "terminal", { command: "aws elbv2 describe-target-health" }, {
        output: text,
        exit_code: 0,
      }),
    ];
    const shown = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.startsWith("- [#3] terminal failed item: "));
    assert.equal(shown.length, 1, `seed ${seed}: ${shown.join("\n")}`);
    assert.ok(shown[0]!.includes(`"Id":"${items[failedAt]!.Id}"`), `seed ${seed}: ${shown[0]}`);
    assert.ok(shown[0]!.includes(`"${field}":"${failed}"`), `seed ${seed}: ${shown[0]}`);
  }
});

Deno.test("Facts from Outputs names the failed item of a few-item listing no line quotes whole", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = new SeededRandom(seed);
    const count = random.range(5, 19);
    const failed = random.int(count);
    const { runs } = runListing(random, count, new Set([failed]));
    // The failed item says why in an object of its own (whose own objects are left out).
    const why = {
      code: "E_PRICING",
      message: `TypeError at ${runs[failed]!.id}`,
      at: { line: 87 },
    };
    const listed = runs.map((run, index) => (index === failed ? { ...run, error: why } : run));
    const text = JSON.stringify(listed, null, random.pick([0, 2]));
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Which CI run failed?" },
      ...callRows(2, "terminal", { command: "gh api runs" }, { output: text, exit_code: 0 }),
    ];
    const items = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.startsWith("- [#3] terminal failed item: "));
    assert.equal(items.length, 1, `seed ${seed}: ${items}`);
    assert.ok(items[0]!.includes(`"id":${runs[failed]!.id},`), `seed ${seed}: ${items}`);
    assert.ok(
      items[0]!.endsWith(`"error":{"code":"E_PRICING","message":"${why.message}"}}`),
      `seed ${seed}: ${items}`,
    );
  }
});

Deno.test("Facts from Outputs names no failed item of a short listing or of one where many failed", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const random = new SeededRandom(seed);
    // Five small items, one failed, on one line no longer than a fact's: a line quotes it whole.
    const short = {
      text: JSON.stringify(
        Array.from({ length: 5 }, (_, index) => ({
          id: random.range(1, 999),
          status: index === 0 ? random.pick(FAILED) : "success",
        })),
      ),
    };
    assert.ok(short.text.length <= 400);
    const count = random.range(20, 100);
    // More than a fifth failed: failures are the listing's usual state, none stands out.
    const many = runListing(random, count, new Set(Array.from({ length: count }, (_, i) => i * 2)));
    for (const { text } of [short, many]) {
      const rows: Row[] = [
        { role: "user", _row_id: 1, content: "Which CI run failed?" },
        ...callRows(2, "terminal", { command: "gh api runs" }, { output: text, exit_code: 0 }),
      ];
      const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
      assert.ok(!lines.some((line) => line.includes("failed item")), `seed ${seed}: ${lines}`);
    }
  }
});

// The tally lines test runners end with, as printed, and the text a fact keeps of each.
const TALLIES: ReadonlyArray<readonly [string, string]> = [
  ["===== 2 failed, 140 passed in 3.12s =====", "2 failed, 140 passed in 3.12s"],
  ["=========== 12 deselected in 0.40s ===========", "12 deselected in 0.40s"],
  ["Ran 12 tests in 0.412s", "Ran 12 tests in 0.412s"],
  ["47 tests completed, 1 failed, 2 skipped", "47 tests completed, 1 failed, 2 skipped"],
  ["12 tests completed, 3 failed", "12 tests completed, 3 failed"],
  ["FAILED (failures=2, errors=1)", "FAILED (failures=2, errors=1)"],
  ["Tests:       2 failed, 40 total", "Tests: 2 failed, 40 total"],
  [
    "test result: FAILED. 3 passed; 1 failed; 0 ignored",
    "test result: FAILED. 3 passed; 1 failed; 0 ignored",
  ],
  [
    "ok  \tgithub.com/dev/orbit/internal/store\t0.012s",
    "ok github.com/dev/orbit/internal/store 0.012s",
  ],
  [
    "FAIL\tgithub.com/acme/shipd/internal/health [build failed]",
    "FAIL github.com/acme/shipd/internal/health [build failed]",
  ],
  ["95% tests passed, 1 tests failed out of 20", "95% tests passed, 1 tests failed out of 20"],
  [
    "[ERROR] Tests run: 42, Failures: 2, Errors: 0, Skipped: 1",
    "[ERROR] Tests run: 42, Failures: 2, Errors: 0, Skipped: 1",
  ],
  [
    "Tests run: 43, Failures: 0, Errors: 0, Skipped: 1",
    "Tests run: 43, Failures: 0, Errors: 0, Skipped: 1",
  ],
  ["      Tests  2 failed | 87 passed (89)", "Tests 2 failed | 87 passed (89)"],
  ["312 examples, 3 failures, 2 pending", "312 examples, 3 failures, 2 pending"],
  [
    "==48377== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)",
    "==48377== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)",
  ],
  ["1 example, 0 failures", "1 example, 0 failures"],
  [
    "0 examples, 0 failures, 1 error occurred outside of examples",
    "0 examples, 0 failures, 1 error occurred outside of examples",
  ],
  [
    "Found 3 errors in 2 files (checked 12 source files)",
    "Found 3 errors in 2 files (checked 12 source files)",
  ],
  ["Success: no issues found in 12 source files", "Success: no issues found in 12 source files"],
  ["Found 7 errors.", "Found 7 errors."],
  ["✖ 5 problems (3 errors, 2 warnings)", "✖ 5 problems (3 errors, 2 warnings)"],
  [
    "Plan: 1 to import, 0 to add, 2 to change, 0 to destroy.",
    "Plan: 1 to import, 0 to add, 2 to change, 0 to destroy.",
  ],
  [
    "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.",
    "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.",
  ],
];

Deno.test("Facts from Outputs keeps a run's tally, whichever runner, checker or Terraform printed it", () => {
  const random = new SeededRandom(11);
  for (const [printed, kept] of TALLIES) {
    const noise = Array.from(
      { length: random.range(20, 80) },
      (_, index) =>
        random.pick([
          `collecting item ${index}`,
          `tests/test_${index}.py::test_case PASSED`,
          "",
          // Lines that begin as a tally does, and are none.
          "ok",
          "Tests:",
          `Ran ${index} tests`,
          `${index} tests completed in the nightly job, see the dashboard`,
          `${index} passed validation`,
          `ok\tnot a package`,
          `Found ${index} files to check`,
          `Found ${index} errors in the log above`,
          `${index} examples, see the docs`,
          `==${index}== HEAP SUMMARY:`,
          `Plan: review step ${index}`,
          `✖ ${index} skipped`,
          // A test class's Surefire line goes on with its time: no tally of the run.
          `Tests run: ${index}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.${index} s - in T${index}`,
        ]),
    );
    // Some runners print more after their tally: a few lines, or a whole report.
    const after = Array.from(
      { length: random.pick([random.range(0, 3), random.range(8, 40)]) },
      () => random.pick(["see the log for details", "ok", "Tests:", `FAILED (see above)`]),
    );
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the tests." },
      ...callRows(2, "terminal", { command: "make test" }, {
        output: [...noise, printed, ...after].join("\n"),
        exit_code: 1,
      }),
    ];
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    assert.deepEqual(lines, [`- [#3] terminal tally: ${kept}`], printed);
  }
});

Deno.test("Facts from Outputs keeps the tally of each of a run's last test targets, in order", () => {
  const random = new SeededRandom(19);
  for (let trial = 0; trial < 40; trial++) {
    // cargo tallies its unit tests, each integration test file and its doc-tests in turn.
    const targets = random.range(2, 6);
    const tallies = Array.from(
      { length: targets },
      (_, target) =>
        `test result: ok. ${random.int(200) + target * 1000} passed; 0 failed; 0 ignored; ` +
        `0 measured; 0 filtered out; finished in ${random.range(1, 9)}.0${target}s`,
    );
    const output = tallies.flatMap((tally, target) => [
      `     Running unittests src/lib.rs (target/debug/deps/t${target}-0a1b)`,
      "",
      ...Array.from({ length: random.range(1, 30) }, (_, index) => `test t${index} ... ok`),
      "",
      tally,
      "",
    ]).join("\n");
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the tests." },
      ...callRows(2, "terminal", { command: "cargo test" }, { output, exit_code: 0 }),
    ];
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    const kept = tallies.slice(-3).map((tally) => `- [#3] terminal tally: ${tally}`);
    assert.deepEqual(lines, kept, output);
  }
});

Deno.test("Facts from Outputs keeps a run's last tallies, a failing one among them", () => {
  const random = new SeededRandom(31);
  for (let trial = 0; trial < 40; trial++) {
    const packages = Array.from(
      { length: random.range(5, 20) },
      (_, index) => `internal/p${index}`,
    );
    const failed = new Set([random.int(packages.length), random.int(packages.length)]);
    const lines = packages.map((name, index) =>
      failed.has(index)
        ? random.pick([
          `FAIL\tgithub.com/acme/shipd/${name} [build failed]`,
          `FAIL\tgithub.com/acme/shipd/${name}\t0.0${index}s`,
        ])
        : `ok  \tgithub.com/acme/shipd/${name}\t0.${index}s`
    );
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the tests." },
      ...callRows(2, "terminal", { command: "go test ./..." }, {
        output: [...lines, "FAIL"].join("\n"),
        exit_code: 1,
      }),
    ];
    const kept = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.startsWith("- [#3] terminal tally: "));
    const shown = (line: string) => `- [#3] terminal tally: ${line.replace(/\s+/g, " ")}`;
    // The last three packages' lines; when none of them failed, the newest failed one in place
    // of the oldest of them.
    const last = [lines.length - 3, lines.length - 2, lines.length - 1];
    const newestFailed = Math.max(...failed);
    const chosen = last.some((index) => failed.has(index))
      ? last
      : [newestFailed, ...last.slice(1)];
    const expected = chosen.map((index) => lines[index] as string);
    assert.deepEqual(kept, expected.map(shown), lines.join("\n"));
  }
});

Deno.test("Facts from Outputs keeps the counts of a summary printed a count a line (Playwright, Mocha)", () => {
  const random = new SeededRandom(37);
  for (let trial = 0; trial < 40; trial++) {
    const playwright = random.chance(0.5);
    const words = playwright
      ? ["failed", "flaky", "skipped", "did not run", "passed"]
      : ["passing", "failing", "pending"];
    const counts = words.filter((_, index) => index === words.length - 1 || random.chance(0.5))
      .map((word) => {
        const timed = word === "passed" || word === "passing";
        return `${random.range(1, 60)} ${word}${
          timed ? ` (${random.range(1, 90)}.${random.int(10)}s)` : ""
        }`;
      });
    const output = [
      `Running ${random.range(10, 90)} tests using 4 workers`,
      ...Array.from(
        { length: random.range(1, 20) },
        (_, index) => `  ✓  ${index} [chromium] › a.spec.ts:${index}:3 › works (0.${index}s)`,
      ),
      "",
      ...counts.flatMap((
        count,
      ) => [`  ${count}`, `    [chromium] › b.spec.ts:${random.range(2, 90)}:5 › case`]),
    ].join("\n");
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the e2e tests." },
      ...callRows(2, "terminal", { command: "npx playwright test" }, { output, exit_code: 1 }),
    ];
    const kept = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.startsWith("- [#3] terminal tally: "));
    // The last three counts; when none of them counts failures, the one that does in place of
    // the oldest of them.
    const failing = counts.find((count) => / fail(?:ed|ing)$/.test(count));
    const last = counts.slice(-3);
    const expected = failing === undefined || last.includes(failing) || last.length < 3
      ? last
      : [failing, ...last.slice(1)];
    assert.deepEqual(kept, expected.map((count) => `- [#3] terminal tally: ${count}`), output);
  }
});

Deno.test("Facts from Outputs takes no count of something else for a test run's tally", () => {
  const random = new SeededRandom(29);
  const lookalikes = [
    (n: number) => `psql: error: connection to server on port ${n} failed: FATAL: password`,
    (n: number) => `upload attempt ${n} failed, retrying in ${n}s`,
    (n: number) => `${n} errors found in config/app.yaml`,
    (n: number) => `shard ${n} passed validation in ${n} ms`,
    (n: number) => `[${n} skipped] rate limited`,
  ];
  for (const lookalike of lookalikes) {
    const output = Array.from(
      { length: random.range(20, 40) },
      () => lookalike(random.range(2, 9000)),
    ).join("\n");
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Check the service." },
      ...callRows(2, "terminal", { command: "./check.sh" }, { output, exit_code: 1 }),
    ];
    const lines = facts(project(rows, { budgetTokens: 8_000 }).body);
    assert.deepEqual(lines.filter((line) => line.includes(" tally: ")), [], output);
  }
});

Deno.test("Facts from Outputs keeps the Surefire tallies of a reactor build's last modules", () => {
  const random = new SeededRandom(47);
  for (let trial = 0; trial < 30; trial++) {
    const modules = random.range(2, 6);
    const failing = random.int(modules);
    const tallies = Array.from({ length: modules }, (_, index) => {
      const tag = index === failing ? "[ERROR]" : "[INFO]";
      const failures = index === failing ? random.range(1, 4) : 0;
      return `${tag} Tests run: ${
        random.range(5, 90)
      }, Failures: ${failures}, Errors: 0, Skipped: ${random.int(3)}`;
    });
    const output = tallies.flatMap((tally, index) => [
      `[INFO] Building m${index} 1.0 [${index + 1}/${modules}]`,
      `[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in m${index}.T`,
      "[INFO] Results:",
      tally,
    ]).concat(["[INFO] BUILD FAILURE"]).join("\n");
    const rows: Row[] = [
      { role: "user", _row_id: 1, content: "Run the tests." },
      ...callRows(2, "terminal", { command: "mvn -B test -fae" }, { output, exit_code: 1 }),
    ];
    const kept = facts(project(rows, { budgetTokens: 8_000 }).body)
      .filter((line) => line.startsWith("- [#3] terminal tally: "));
    // The last three modules' tallies; when none of them failed, the failing one in place of the
    // oldest of them.
    const last = tallies.slice(-3).map((_, i) => tallies.length - Math.min(3, tallies.length) + i);
    const chosen = last.includes(failing) ? last : [failing, ...last.slice(1)];
    assert.deepEqual(kept, chosen.map((i) => `- [#3] terminal tally: ${tallies[i]}`), output);
  }
});

/** `rows` as a program prints a table for a terminal: columns padded to line up, or parted by tabs. */
function printedTable(rows: readonly (readonly string[])[], tabbed: boolean): string {
  if (tabbed) return rows.map((row) => row.join("\t")).join("\n");
  const widths = (rows[0] as readonly string[]).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] as string).length))
  );
  return rows.map((row) =>
    row.map((cell, column) =>
      column === row.length - 1 ? cell : cell.padEnd((widths[column] as number) + 3)
    ).join("")
  ).join("\n");
}

// Tables as kubectl, Docker and Helm print them: the header, then a row's cells given its name and
// status. Docker's status and Helm's update time hold single spaces.
const TABLES = [
  {
    command: "kubectl -n payments get pods",
    header: ["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
    row: (name: string, status: string) => [name, "1/1", status, "0", "3h"],
    healthy: ["Running", "Completed", "ContainerCreating"],
    failed: ["CrashLoopBackOff", "Error", "ImagePullBackOff", "OOMKilled", "Init:Error"],
  },
  {
    command: "docker ps -a",
    header: ["CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "NAMES"],
    row: (
      name: string,
      status: string,
    ) => ["a1b2c3d4e5f6", "app:dev", '"run"', "1 hour ago", status, name],
    healthy: ["Up 3 minutes", "Exited (0) 2 minutes ago", "Up 1 hour (healthy)"],
    failed: ["Exited (1) 2 minutes ago", "Exited (137) 5 seconds ago", "Up 3 minutes (unhealthy)"],
  },
  {
    command: "helm list -A",
    header: ["NAME", "NAMESPACE", "REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION"],
    row: (
      name: string,
      status: string,
    ) => [name, "default", "4", "2026-12-01 10:00:00 +0000 UTC", status, "api-1.2.0", "1.2.0"],
    healthy: ["deployed", "superseded"],
    failed: ["failed"],
  },
];

Deno.test("Facts from Outputs names the failed rows of a table while they stand out", () => {
  let named = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const random = new SeededRandom(seed);
    const table = random.pick(TABLES);
    const count = random.range(2, 40);
    const failing = random.pick([0, 1, 1, 2, 3, random.range(1, count)]);
    const failedAt = new Set(Array.from({ length: failing }, () => random.int(count)));
    const names = Array.from({ length: count }, (_, index) => `svc-${random.hex(5)}-${index}`);
    const rows = names.map((name, index) =>
      table.row(name, random.pick(failedAt.has(index) ? table.failed : table.healthy))
    );
    const tabbed = random.chance(0.2);
    // Words after the table (kubectl's warnings, a note) are no rows of it.
    const after = random.chance(0.5) ? "\n\nWarning: 2 Failed pods were evicted earlier" : "";
    const output = `${printedTable([table.header, ...rows], tabbed)}${after}`;
    const body = project([
      { role: "user", _row_id: 1, content: "What is failing in staging?" },
      ...callRows(2, "terminal", { command: table.command }, { output, exit_code: 0 }),
    ], { budgetTokens: 8_000 }).body;
    const items = facts(body).filter((line) => line.startsWith("- [#3] terminal failed item: "));
    const standsOut = failedAt.size > 0 && failedAt.size < count &&
      failedAt.size <= Math.max(3, count / 5);
    const expected = standsOut ? [...failedAt].sort((a, b) => a - b).slice(0, 3) : [];
    const shown = names.flatMap((name, index) =>
      items.some((line) =>
          line.includes(` ${name} `) || line.endsWith(` ${name}`) ||
          line.includes(`: ${name} `)
        )
        ? [index]
        : []
    );
    assert.deepEqual(shown, expected, `seed ${seed}:\n${output}\n${items.join("\n")}`);
    named += shown.length;
  }
  assert.ok(named > 20, `${named} rows named`);
});
