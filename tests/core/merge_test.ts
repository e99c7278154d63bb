/** Re-compaction: what carries forward from the previous projection and what stays byte-identical. */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";

type Row = Record<string, unknown>;

function session(
  firstId: number,
  steps: ReadonlyArray<readonly [string, Record<string, unknown>, unknown]>,
): Row[] {
  const rows: Row[] = [];
  let id = firstId;
  steps.forEach(([tool, args, result], index) => {
    const callId = `c${firstId}_${index}`;
    rows.push({
      role: "assistant",
      _row_id: id++,
      content: "",
      tool_calls: [{
        id: callId,
        type: "function",
        function: { name: tool, arguments: JSON.stringify(args) },
      }],
    });
    rows.push({
      role: "tool",
      _row_id: id++,
      tool_call_id: callId,
      tool_name: tool,
      content: typeof result === "string" ? result : JSON.stringify(result),
    });
  });
  return rows;
}

function section(body: string, heading: string): string | undefined {
  const start = body.indexOf(`${heading}\n`);
  if (start === -1) return undefined;
  const end = body.indexOf("\n\n## ", start);
  return body.slice(start, end === -1 ? undefined : end);
}

const first: Row[] = [
  { role: "user", _row_id: 1, content: "Make the importer handle empty CSV files." },
  ...session(2, [
    ["terminal", { command: "pytest tests/test_import.py" }, {
      output: "E   ValueError: empty file\n1 failed",
      exit_code: 1,
    }],
    ["read_file", { path: "importer/csv.py" }, "1|import csv"],
    ["patch", { path: "importer/csv.py", old_string: "a", new_string: "b" }, { success: true }],
    ["terminal", { command: "pytest tests/test_import.py" }, { output: "3 passed", exit_code: 0 }],
    ["terminal", { command: "mypy importer" }, {
      output: "importer/csv.py:3: error: Missing return",
      exit_code: 1,
    }],
  ]),
];
// A request followed by 80 successful commands: more than a small budget can show.
const longRun: Row[] = [
  { role: "user", _row_id: 1, content: "Run every step." },
  ...session(
    2,
    Array.from(
      { length: 80 },
      (_, i) =>
        ["terminal", { command: `make step${i}` }, {
          output: `step ${i} done`,
          exit_code: 0,
        }] as const,
    ),
  ),
];
const second: Row[] = session(100, [["read_file", { path: "docs/import.md" }, "1|# Import"]]);

Deno.test("project() keeps untouched merged sections byte-identical", () => {
  const before = project(first, { sessionId: "s" }).body;
  const after = project(second, { sessionId: "s", previous: before }).body;
  for (const heading of ["## Goal", "## Errors & Fixes", "## Errors Seen", "## Commands Run"]) {
    assert.equal(section(after, heading), section(before, heading), heading);
  }
  // The read that worked after mypy's one failure is the agent moving on, as in one window.
  assert.match(section(before, "## Blocked") ?? "", /`mypy importer`/);
  assert.equal(section(after, "## Blocked"), undefined);
  assert.match(
    section(after, "## Relevant Files") ?? "",
    /importer\/csv\.py — read \[#4\]; modified \(patched\) \[#6\]\n- docs\/import\.md — read \[#100\]$/,
  );
});

Deno.test("project() judges a failure an earlier projection listed in Blocked as one window would", async (t) => {
  const failing = (command: string, exit: number) =>
    ["terminal", { command }, { output: `${command}: failed`, exit_code: exit }] as const;
  const passing = (command: string) =>
    ["terminal", { command }, { output: "done", exit_code: 0 }] as const;
  type Step = ReturnType<typeof failing> | ReturnType<typeof passing>;
  const report = "python3 scripts/report.py --format=table --columns=account,posted,status " +
    "--sort=posted --limit=500 --ledger=data/ledger_05.txt --title=quarterly-settlement-overview";
  const cases: ReadonlyArray<readonly [string, Step[], Step[], boolean]> = [
    ["failed once, then the agent moved on", [failing("make lint", 2)], [passing("ls")], false],
    [
      "failed, retried and failed again, then other work",
      [failing("make lint", 2), failing("make lint", 2)],
      [passing("ls")],
      true,
    ],
    [
      "retried and failing, then the same work done with other settings",
      [
        failing("python3 report.py --region=south --timeout=60", 3),
        failing("python3 report.py --region=south --timeout=60", 3),
      ],
      [passing("python3 report.py --region=south --timeout=300")],
      false,
    ],
    [
      "retried and failing, then other items of the same program done",
      [
        failing("python3 report.py --region=south", 3),
        failing("python3 report.py --region=south", 3),
      ],
      [passing("python3 report.py --region=north"), passing("python3 report.py --region=east")],
      true,
    ],
    [
      "failed once, and nothing worked since",
      [failing("make lint", 2)],
      [failing("ls x", 2)],
      true,
    ],
    [
      "a long command, shown shortened, retried and failing, then its work done",
      [failing(`${report} --timeout=60`, 3), failing(`${report} --timeout=60`, 3)],
      [passing(`${report} --timeout=300`)],
      false,
    ],
    [
      "a long command, shown shortened, retried and failing, then another item done",
      [failing(`${report} --region=south`, 3), failing(`${report} --region=south`, 3)],
      [passing(`${report} --region=north`)],
      true,
    ],
  ];
  for (const [name, earlier, later, stuck] of cases) {
    await t.step(name, () => {
      const firstWindow = [
        { role: "user", _row_id: 1, content: "Ship it." },
        ...session(2, earlier),
      ];
      const secondWindow = session(100, later);
      const merged = project(secondWindow, {
        previous: project(firstWindow, { sessionId: "s" }).body,
        sessionId: "s",
      }).body;
      const whole = project([...firstWindow, ...secondWindow], { sessionId: "s" }).body;
      const blocked = (body: string) =>
        /`(?:make lint|python3 (?:scripts\/)?report\.py[^`]*)`/.test(
          section(body, "## Blocked") ?? "",
        );
      assert.equal(blocked(merged), stuck, "merged");
      assert.equal(blocked(whole), stuck, "one window");
    });
  }
});

Deno.test("project() carries the goal, files and commands forward and updates what changed", () => {
  const before = project(first, { sessionId: "s" }).body;
  const fixedLater = session(200, [["terminal", { command: "mypy importer" }, {
    output: "Success: no issues found",
    exit_code: 0,
  }]]);
  const after = project(fixedLater, { sessionId: "s", previous: before }).body;
  assert.match(after, /## Goal\n\[#1\] Make the importer handle empty CSV files\./);
  assert.match(
    after,
    /- \[#10\] `mypy importer` — failed \(exit 1\) \[#11\], then succeeded \(exit 0\) \[#201\]/,
  );
  assert.match(
    after,
    /- \[#10\] terminal `mypy importer` — failed \(exit 1\) \[#11\]: [^\n]* → fixed at \[#201\]/,
  );
  assert.equal(section(after, "## Blocked"), undefined, "the fixed command leaves Blocked");
});

Deno.test("project() ignores what Hermes appended and survives its redaction", () => {
  const before = project(first, { sessionId: "s" }).body;
  const stored = "[CONTEXT COMPACTION — REFERENCE ONLY] earlier turns below\n" +
    before.replaceAll("importer/csv.py", "importer/***.py") +
    "\n\n## Anchor Index (mechanically extracted, exact)\n- ValueError\n\n## User Messages (verbatim, newest first)\n> hi" +
    "\n\n## Context Recovery\nUse session_search.\n\n--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";
  const after = project(second, { sessionId: "s", previous: stored }).body;
  assert.ok(!after.includes("Anchor Index"));
  assert.ok(!after.includes("User Messages"));
  assert.ok(!after.includes("CONTEXT COMPACTION"));
  assert.match(after, /- importer\/\*\*\*\.py — read \[#4\]/);
});

Deno.test("project() counts every file it leaves out, oldest first, across merges", () => {
  const reads = Array.from(
    { length: 300 },
    (_, i) => ["read_file", { path: `src/m${i}.py` }, "1|x"] as const,
  );
  const listed = (body: string) =>
    (section(body, "## Relevant Files") ?? "").split("\n").filter((line) => line.startsWith("- "));
  const omittedFiles = (body: string) =>
    Number(
      /\((\d+) older files omitted\)/.exec(section(body, "## Relevant Files") ?? "")?.[1] ?? 0,
    );
  const before = project(session(1, reads), { budgetTokens: 1_500 }).body;
  assert.ok(listed(before).length < 300, "a small budget cannot list 300 files");
  assert.equal(listed(before).length + omittedFiles(before), 300);
  assert.ok(listed(before).at(-1)?.startsWith("- src/m299.py —"), "the newest stays");
  assert.ok(!listed(before).some((line) => line.startsWith("- src/m0.py —")), "the oldest goes");
  const more = Array.from(
    { length: 3 },
    (_, i) => ["read_file", { path: `lib/n${i}.py` }, "1|x"] as const,
  );
  const after = project(session(500, more), { budgetTokens: 1_500, previous: before }).body;
  assert.equal(listed(after).length + omittedFiles(after), 303);
  assert.ok(listed(after).some((line) => line.startsWith("- lib/n2.py —")));
  const roomy = project(session(1, reads), { budgetTokens: 16_000 }).body;
  assert.equal(listed(roomy).length, 300, "a larger budget lists every file");
});

Deno.test("project() keeps what matches the focus topic when the budget forces a choice", () => {
  const reads = Array.from(
    { length: 400 },
    (_, i) =>
      ["read_file", { path: i === 3 ? "src/auth/token.py" : `src/m${i}.py` }, "1|x"] as const,
  );
  const files = (focus?: string) =>
    section(
      project(session(1, reads), { budgetTokens: 1_500, ...(focus ? { focus } : {}) }).body,
      "## Relevant Files",
    ) ?? "";
  assert.ok(files("auth token").includes("src/auth/token.py"));
  assert.ok(!files().includes("src/auth/token.py"));
});

Deno.test("project() keeps the newest log lines and the structured sections under a small budget", () => {
  const { body, stats } = project(longRun, { budgetTokens: 600 });
  assert.ok(body.length <= 2_400);
  assert.ok(body.includes("## Goal\n[#1] Run every step."));
  assert.ok(body.includes("make step79"), "the newest command survives");
  assert.ok(stats.sections.log.omitted > 0);
  assert.match(body, /\(\d+ older log entries omitted\)/);
});

Deno.test("project() quotes a summary it did not write instead of dropping it", () => {
  const stock =
    "## Goal\nMigrate the billing service to Postgres 16 without downtime.\n\n## Constraints & Preferences\n- none";
  const { body, stats } = project(second, { previous: stock });
  assert.match(
    body,
    /## Earlier Summary \(quoted, not written by vcc\)\n> ## Goal\n> Migrate the billing service to Postgres 16 without downtime\.\n> ## Constraints & Preferences\n> - none(?:\n|$)/,
  );
  assert.equal(stats.sections.quotedLines.shown, 4);
  assert.doesNotMatch(body, /^## (?:Goal|Constraints)/m, "its headings stay quoted");
});

Deno.test("project() ignores the projection's own role labels in a focus topic", () => {
  const plain = project(longRun, { budgetTokens: 600 }).body;
  assert.equal(project(longRun, { budgetTokens: 600, focus: "user assistant tool" }).body, plain);
});

Deno.test("project() keeps requests in the order they were made across merges", () => {
  const before = project([{ role: "user", _row_id: 50, content: "Also update the docs." }]).body;
  // The head, unpinned after the first compaction, reaches the second window with its old row.
  const head = [{ role: "user", _row_id: 3, content: "Port the importer to Rust." }];
  const after = project(head, { previous: before }).body;
  assert.match(
    after,
    /## Goal\n\[#3\] Port the importer to Rust\.\n\[#50\] Also update the docs\.\n/,
  );
});

Deno.test("project() keeps requests apart by their rows, and unsaved ones by their words", () => {
  const first = project([
    { role: "user", content: "Rename the module." },
    { role: "user", content: "Then bump the version." },
    { role: "user", _row_id: 4, content: "Run the tests." },
  ]).body;
  const again = project([{ role: "user", _row_id: 9, content: "Run the tests." }], {
    previous: first,
  }).body;
  const goal = section(again, "## Goal") ?? "";
  assert.deepEqual(goal.split("\n").slice(1), [
    "[unsaved] Rename the module.",
    "[unsaved] Then bump the version.",
    "[#4] Run the tests.",
    "[#9] Run the tests.",
  ]);
});

Deno.test("project() cites by its row a request an earlier projection could not cite", async (t) => {
  // Hermes 0.22's words when it restates an unfinished request after a compaction boundary.
  const restated =
    "[STILL IN PROGRESS — this is the active request, restated after the compaction " +
    "boundary because it was not finished yet. Continue it; do not start over.]\n";
  const request = "Port the importer to Rust and keep the CLI flags as they are today.";
  const first = project([
    { role: "user", _row_id: 1, content: "Set up the workspace." },
    { role: "user", content: request },
  ]).body;
  assert.match(first, /^\[t2\] Port the importer/m);
  for (const content of [request, `${restated}${request}`]) {
    await t.step(content === request ? "asked" : "restated", () => {
      const again = project([{ role: "user", _row_id: 7, content }], { previous: first }).body;
      assert.deepEqual((section(again, "## Goal") ?? "").split("\n").slice(1), [
        "[#1] Set up the workspace.",
        `[#7] ${request}`,
      ]);
      assert.equal(
        section(again, "## Historical Task Snapshot"),
        `## Historical Task Snapshot\n[#7] ${request}`,
      );
    });
  }
});

Deno.test("project() merges a summary in the format of the engine vcc replaces, Goal included", () => {
  // The seed README's example output: our headings, outcomes without references, the log's note
  // under its heading.
  const previous = Deno.readTextFileSync(
    new URL("./fixtures/earlier_engine_summary.txt", import.meta.url),
  );
  for (const form of [previous, previous.replace(/^\(vcc projection.*$/m, "")]) {
    const window = [{ role: "user", content: "Now add a changelog entry.", _row_id: 1010 }];
    const { body, stats } = project(window, {
      previous: form,
      sessionId: "s1",
      budgetTokens: 3000,
    });
    assert.equal(stats.merged, true);
    assert.match(
      body,
      /^## Goal\nThe build in ~\/proj is red, please fix it and keep the public API unchanged\.\n\[#1010\] Now add a changelog entry\.$/m,
    );
    assert.match(
      body,
      /^- `cd ~\/proj && pytest -q` — failed \(exit 1\), then succeeded \(exit 0\)$/m,
    );
    assert.match(body, /^- \/home\/u\/proj\/proj\/core\.py — read; modified \(patched\)$/m);
    assert.match(
      body,
      /^- \[#1001\] terminal `cd ~\/proj && pytest -q` — failed \(exit 1\): E ImportError/m,
    );
    assert.doesNotMatch(body, /^> .*## Goal/m, "its sections are merged, not quoted");
  }
});
