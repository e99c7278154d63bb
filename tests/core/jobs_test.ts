/**
 * Background jobs and deferred tools, in the shapes Hermes writes them (live-hermes.md): a
 * background `terminal` call answers at once with a start notice whose `exit_code` is 0, and the
 * job's end arrives later in `process` results; on 0.22 the model reaches `process` (as
 * `process_manage`) and other deferred tools through `tool_call`. The expected lines are written
 * out by hand.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";
import { callRows, type Row } from "../support/call_rows.ts";

let nextRow = 1;
function call(id: string, name: string, args: Record<string, unknown>) {
  return {
    role: "assistant",
    content: "",
    _row_id: nextRow++,
    tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
  };
}
function result(id: string, name: string, content: Record<string, unknown>) {
  return {
    role: "tool",
    tool_call_id: id,
    tool_name: name,
    content: JSON.stringify(content),
    _row_id: nextRow++,
  };
}
/** A window's first rows, from row 1: the user's request, and `command` started as job `job`. */
function started(request: string, command: string, job: string) {
  nextRow = 1;
  return [
    { role: "user", content: request, _row_id: nextRow++ },
    call("c1", "terminal", { command, background: true }),
    result("c1", "terminal", { output: "Background process started", session_id: job }),
  ];
}
const bridged = (name: string, args: Record<string, unknown>) => ({
  calls: [{ name, arguments: args }],
});

function window() {
  nextRow = 1;
  return [
    {
      role: "user",
      content: "Run the slow job in the background and tell me how it ends.",
      _row_id: nextRow++,
    },
    call("c1", "terminal", { command: "sleep 3; echo done; exit 3", background: true }),
    result("c1", "terminal", {
      output: "Background process started",
      session_id: "proc_9f2c",
      exit_code: 0,
      error: null,
    }),
    call("c2", "tool_call", bridged("process_manage", { action: "poll", session_id: "proc_9f2c" })),
    result("c2", "tool_call", { session_id: "proc_9f2c", command: "sleep 3", status: "running" }),
    call("c3", "tool_call", bridged("process_manage", { action: "wait", session_id: "proc_9f2c" })),
    result("c3", "tool_call", {
      status: "exited",
      command: "sleep 3",
      exit_code: 3,
      output: "done",
    }),
    call("c4", "tool_call", bridged("session_search", { query: "proc_9f2c exit" })),
    result("c4", "tool_call", { success: true, results: [] }),
  ];
}

Deno.test("a background job is one command whose outcome is its process's final status", () => {
  const { body } = project(window(), { budgetTokens: 4000, sessionId: "s" });
  assert.match(
    body,
    /^- \[#2\] `sleep 3; echo done; exit 3 &` \(job proc_9f2c\) — started in background \[#3\], then still running \[#5\], then failed \(exit 3\) \[#7\]$/m,
  );
  assert.doesNotMatch(body, /succeeded \(exit 0\)/, "the start notice's exit code is no outcome");
  assert.doesNotMatch(
    body,
    /^- .*`process (poll|wait) proc_9f2c`/m,
    "the polls are runs, not commands",
  );
  assert.match(
    body,
    /^- \[#2\] terminal `sleep 3; echo done; exit 3 &` \(job proc_9f2c\) — failed \(exit 3\) \[#7\]/m,
  );
});

Deno.test("a call through tool_call reads as the call it carries", () => {
  const { body } = project(window(), { budgetTokens: 4000, sessionId: "s" });
  assert.doesNotMatch(body, /tool_call `\{"calls"/, "no line names the bridge's arguments");
  assert.match(body, /\[#8\] → session_search/);
});

Deno.test("the task list, which Hermes restores after a compaction, has no line in the log", () => {
  const todos = [{ id: "1", content: "check the ledger job", status: "pending" }];
  for (const tool of ["todo_list", "todo"]) {
    for (const bridge of [false, true]) {
      nextRow = 1;
      const rows = [
        { role: "user", content: "Track the job.", _row_id: nextRow++ },
        bridge ? call("c1", "tool_call", bridged(tool, { todos })) : call("c1", tool, { todos }),
        result("c1", bridge ? "tool_call" : tool, { todos }),
        call("c2", "terminal", { command: "ls jobs" }),
        result("c2", "terminal", { output: "ledger.log", exit_code: 0 }),
      ];
      const body = project(rows, { budgetTokens: 4000 }).body;
      assert.doesNotMatch(body, /check the ledger job|todo/, body);
      assert.match(body, /`ls jobs`/);
    }
  }
});

Deno.test("a job whose start an earlier projection listed takes its later runs there", () => {
  const first = project(window().slice(0, 5), { budgetTokens: 4000, sessionId: "s" }).body;
  const later = window().slice(5);
  const { body } = project(later, { budgetTokens: 4000, sessionId: "s", previous: first });
  assert.match(
    body,
    /^- \[#2\] `sleep 3; echo done; exit 3 &` \(job proc_9f2c\) — started in background \[#3\], then still running \[#5\], then failed \(exit 3\) \[#7\]$/m,
  );
});

Deno.test("a job whose end a wait and a poll both report failed once, and the agent moved on", () => {
  nextRow = 1;
  const rows = [
    {
      role: "user",
      content: "Build in the background, then balance the ledger.",
      _row_id: nextRow++,
    },
    call("c1", "terminal", { command: "sleep 1; echo build 7 done; exit 3", background: true }),
    result("c1", "terminal", {
      output: "Background process started",
      session_id: "proc_7",
      exit_code: 0,
    }),
    call("c2", "process", { action: "wait", session_id: "proc_7" }),
    result("c2", "process", { status: "exited", exit_code: 3, output: "build 7 done" }),
    call("c3", "process", { action: "poll", session_id: "proc_7" }),
    result("c3", "process", { status: "exited", exit_code: 3, output: "build 7 done" }),
    call("c4", "terminal", { command: "python3 scripts/ledger.py 20" }),
    result("c4", "terminal", { output: "balanced", exit_code: 0 }),
  ];
  const body = project(rows).body;
  assert.match(
    body,
    /^- \[#2\] `sleep 1; echo build 7 done; exit 3 &` \(job proc_7\) — started in background \[#3\], then failed \(exit 3\) \[#5\]$/m,
    "the poll repeats the end the wait reported: one run",
  );
  assert.doesNotMatch(body, /## Blocked/, "one run, failed once, then other work succeeded");
});

Deno.test("what is read of a job after it ended is no run of it, whatever its report says", async (t) => {
  // Reports Hermes gives of a job that already ended (live-hermes.md): a poll, a log read without
  // exit code, a kill that finds it gone, and the shell's closing `logout` in its output.
  const afterEnd: Record<string, Record<string, unknown>> = {
    poll: { status: "exited", exit_code: 3, output_preview: "build 7 done\nlogout\n" },
    log: { status: "exited", output: "build 7 done\nlogout", total_lines: 2 },
    kill: { status: "already_exited", error: "process already exited" },
  };
  for (const [action, report] of Object.entries(afterEnd)) {
    await t.step(action, () => {
      const rows = [
        ...started("Build in the background.", "sleep 1; echo build 7 done; exit 3", "proc_7"),
        call("c2", "process", { action: "wait", session_id: "proc_7" }),
        result("c2", "process", {
          status: "exited",
          exit_code: 3,
          output: "build 7 done\nlogout\n",
        }),
        call("c3", "process", { action, session_id: "proc_7" }),
        result("c3", "process", { session_id: "proc_7", ...report }),
      ];
      const { body } = project(rows, { budgetTokens: 4000, sessionId: "s" });
      assert.match(
        body,
        /^- \[#2\] `sleep 1; echo build 7 done; exit 3 &` \(job proc_7\) — started in background \[#3\], then failed \(exit 3\) \[#5\]$/m,
      );
      assert.doesNotMatch(body, /logout/, "the shell's closing line is none of the job's output");
      assert.deepEqual(
        body.match(/^- .*reported: build 7 done$/gm),
        ["- [#5] process reported: build 7 done"],
        "what the job printed last is its report, stated once, by the report of its end",
      );
    });
  }
});

Deno.test("a job's end told without its exit code is told by the later report that gives it, across compactions too", () => {
  const rows = [
    ...started("Start the watcher, then stop it.", "sleep 60; echo watcher 4", "proc_4"),
    call("c2", "process", { action: "kill", session_id: "proc_4" }),
    result("c2", "process", { status: "killed", session_id: "proc_4" }),
    call("c3", "process", { action: "poll", session_id: "proc_4" }),
    result("c3", "process", {
      status: "exited",
      exit_code: -15,
      completion_reason: "killed",
      session_id: "proc_4",
    }),
  ];
  const line =
    /^- \[#2\] `sleep 60; echo watcher 4 &` \(job proc_4\) — started in background \[#3\], then killed \(exit -15\) \[#7\]$/m;
  assert.match(project(rows, { budgetTokens: 4000, sessionId: "s" }).body, line);
  const first = project(rows.slice(0, 5), { budgetTokens: 4000, sessionId: "s" }).body;
  const later = project(rows.slice(5), { budgetTokens: 4000, sessionId: "s", previous: first });
  assert.match(first, /then killed \[#5\]$/m, "before the poll, the kill's answer tells the end");
  assert.match(later.body, line, "the poll after the kill is read in the next window");
});

Deno.test("a poll of a running job is quoted by what the job printed", () => {
  const rows = [
    ...started("Build in the background.", "make -j4 all", "proc_9"),
    call("c2", "process", { action: "poll", session_id: "proc_9" }),
    result("c2", "process", {
      session_id: "proc_9",
      status: "running",
      pid: 77,
      uptime_seconds: 4,
      output_preview: "compiling src/a.c\ncompiling src/b.c\n",
    }),
  ];
  const { body } = project(rows, { budgetTokens: 4000, sessionId: "s" });
  assert.match(body, /^\[#5\] ← process: compiling src\/a\.c … compiling src\/b\.c$/m);
});

Deno.test("a job whose end only a poll reports has what it printed last as its report", () => {
  const rows = [
    ...started("Build in the background.", "sleep 1; echo build 3 done", "proc_3"),
    call("c2", "process", { action: "poll", session_id: "proc_3" }),
    result("c2", "process", {
      session_id: "proc_3",
      status: "exited",
      exit_code: 0,
      output_preview: "build 3 done\nlogout\n",
    }),
  ];
  const { body } = project(rows, { budgetTokens: 4000, sessionId: "s" });
  assert.match(body, /^- \[#5\] process reported: build 3 done$/m);
  assert.doesNotMatch(body, /logout/);
});

Deno.test("what a job printed is read as its command printed it: the same outcome as run in the foreground", () => {
  // Hermes's process results name the job's command (`"command"`), so its exit status and output
  // are read in that command's light. Expected outcomes written out by hand for some, and for
  // generated ones the outcome the same command, output and exit status get in the foreground.
  const cases: ReadonlyArray<readonly [string, string, number, string]> = [
    [
      "make all | tee build.log",
      "cc a.c\na.c:3:1: error: expected ';'",
      0,
      "ran (exit 0 of tee) but printed an error",
    ],
    [
      "python3 train.py",
      "epoch 1\n2026-12-01 10:00:01 ERROR checkpoint not written: disk full",
      0,
      "succeeded (exit 0) but printed an error",
    ],
    ["python3 train.py", "epoch 1\nepoch 2\ndone", 0, "succeeded (exit 0)"],
    ["grep -rn TODO src", "", 1, "no match (exit 1)"],
  ];
  const random = new SeededRandom(5);
  const commands = [
    "python3 train.py --epochs 3",
    "make all | tee build.log",
    "grep -rn TODO src",
    "./deploy.sh staging",
    "npm run build || true",
    "diff -u a.txt b.txt",
    "tail -n 200 logs/app.log",
  ];
  const clean = [
    "epoch 1 loss=0.91",
    "compiling src/a.c",
    "uploaded 3 files",
    "--- a.txt",
    "+++ b.txt",
    "done",
  ];
  const errors = [
    "2026-12-01 10:00:01 ERROR payment declined order=A-1",
    "Error: Authentication Failed",
    "src/a.c:3:1: error: expected ';'",
    'Traceback (most recent call last):\n  File "t.py", line 4, in <module>\nValueError: bad shape',
    "[错误] 支付失败 订单 B-77",
  ];
  const generated = Array.from({ length: 60 }, () => {
    const lines = Array.from(
      { length: random.int(5) },
      () => random.pick(clean),
    );
    if (random.chance(0.5)) {
      lines.splice(random.int(lines.length + 1), 0, random.pick(errors));
    }
    return [
      random.pick(commands),
      lines.join("\n"),
      random.int(3),
      undefined,
    ] as const;
  });
  // The outcome a command line states for its run at `row`.
  const outcomeAt = (body: string, row: number) =>
    new RegExp(String.raw`^- \[#\d+\] .* (?:— |then )([^\[\n]+) \[#${row}\]`, "m").exec(body)?.[1];
  for (const [command, output, exitCode, expected] of [...cases, ...generated]) {
    nextRow = 1;
    const rows = [
      ...started("Run it in the background.", command, "proc_1"),
      call("c2", "process", { action: "wait", session_id: "proc_1" }),
      result("c2", "process", { status: "exited", command, exit_code: exitCode, output }),
      call("c3", "terminal", { command }),
      result("c3", "terminal", { output, exit_code: exitCode, error: null }),
    ];
    const { body } = project(rows, { budgetTokens: 4000, sessionId: "s" });
    const job = outcomeAt(body, 5);
    assert.ok(job !== undefined, `the job's line states an outcome\n${body}`);
    assert.equal(job, outcomeAt(body, 7), `${command} / exit ${exitCode} / ${output}\n${body}`);
    if (expected !== undefined) assert.equal(job, expected, `${command}\n${body}`);
  }
});

Deno.test("a job that failed is fixed by a later job of the same command line that succeeded", () => {
  const COMMANDS = ["pytest -n 4 tests/integration", "npm run e2e", "make -C build check"];
  for (let seed = 1; seed <= 40; seed++) {
    const random = new SeededRandom(seed);
    const command = random.pick(COMMANDS);
    // The same program run on another target: a job of it fixes nothing of the command's.
    const other = `${command} --shard=${random.range(2, 9)}`;
    const runs = Array.from({ length: random.range(2, 6) }, (_, index) => ({
      job: `proc_${seed}_${index}`,
      line: random.chance(0.25) ? other : command,
      exitCode: random.chance(0.5) ? 0 : 1,
    }));
    const rows: Row[] = [{ role: "user", _row_id: 1, content: "Run the suite until it passes." }];
    const ends: number[] = [];
    runs.forEach(({ job, line, exitCode }, index) => {
      const at = 2 + index * 4;
      rows.push(
        ...callRows(at, "terminal", { command: line, background: true }, {
          output: "Background process started",
          session_id: job,
          exit_code: 0,
        }),
        ...callRows(at + 2, "process", { action: "wait", session_id: job }, {
          status: "exited",
          exit_code: exitCode,
          output: exitCode === 0 ? "12 passed" : "1 failed, 11 passed",
        }),
      );
      ends.push(at + 3);
    });
    const { body } = project(rows, { budgetTokens: 8_000 });
    // Each job's line says it started; the log does not repeat the start notices.
    assert.doesNotMatch(body, /Background process started/, `seed ${seed}`);
    const errors = /## Errors & Fixes\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
    runs.forEach(({ job, line, exitCode }, index) => {
      if (exitCode === 0) return;
      const entry = errors.split("\n").find((text) => text.includes(`(job ${job})`));
      assert.ok(entry !== undefined, `seed ${seed}: ${job} is listed\n${body}`);
      // The oracle: the first run of the same line that succeeded after its last failure from here.
      const same = runs.map((run, at) => ({ ...run, at })).filter((run) => run.line === line);
      const lastFailure = same.findLast((run) => run.at >= index && run.exitCode !== 0)?.at ??
        index;
      const fix = same.find((run) => run.at > lastFailure && run.exitCode === 0);
      const fixed = / → fixed at \[#(\d+)\]$/.exec(entry)?.[1];
      assert.equal(
        fixed,
        fix === undefined ? undefined : String(ends[fix.at]),
        `seed ${seed}: ${job}\n${body}`,
      );
    });
  }
});

Deno.test("a job piped to tee reports what it printed last, as a terminal showed its progress bars", () => {
  const random = new SeededRandom(47);
  for (let trial = 0; trial < 20; trial++) {
    const total = random.range(100, 9000);
    // A progress bar redrawn in place: its states parted by carriage returns, on one line.
    const bar = [1, 25, 50, 75, 100].map((share) =>
      `${String(share).padStart(3)}%|${"█".repeat(share / 10)}| ${
        Math.round((total * share) / 100)
      }/${total} [00:${String(share % 60).padStart(2, "0")}<00:00, 2.9it/s]`
    ).join("\r");
    const saved = `Saved final model to checkpoints/run-${random.hex(4)}/final`;
    const metrics = `{'eval_loss': 1.${random.range(10, 99)}, 'eval_accuracy': 0.${
      random.range(100, 999)
    }}`;
    const job = `proc_${random.hex(6)}`;
    const command = "python train.py 2>&1 | tee logs/run.log";
    const rows = [
      ...started("Train it.", command, job),
      // Hermes's poll of a running job previews its output; its wait gives the end.
      call("c2", "process", { action: "poll", session_id: job }),
      result("c2", "process", {
        session_id: job,
        command,
        status: "running",
        output_preview: `loading data\n${bar.slice(0, bar.lastIndexOf("\r"))}`,
      }),
      call("c3", "process", { action: "wait", session_id: job }),
      result("c3", "process", {
        session_id: job,
        command,
        status: "exited",
        exit_code: 0,
        output: `loading data\n${bar}\n${saved}\n${metrics}\n`,
      }),
    ];
    const body = project(rows, { budgetTokens: 4000 }).body;
    const reported = body.split("\n").filter((line) =>
      line.startsWith("- [#7] process reported: ")
    );
    assert.deepEqual(reported, [
      `- [#7] process reported: ${saved}`,
      `- [#7] process reported: ${metrics}`,
    ], body);
    // A bar's earlier states are not shown, only what the terminal showed last.
    assert.doesNotMatch(body, / 25%\|/, body);
  }
});
