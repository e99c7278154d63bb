/** The recall bench: the oracle's facts, the reading of projections, the scores, the command. */
import assert from "node:assert/strict";
import {
  type CommandFact,
  raisedNames,
  readProjection,
  runRecall,
  scoreWindow,
  showsText,
  type WindowFacts,
  windowFacts,
} from "../../src/bench/recall/mod.ts";
import { runVcc, runVccOnStore, runVccWithoutStore, tempStore } from "../support/vcc_harness.ts";

function call(id: string, name: string, args: unknown) {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return { id, type: "function", function: { name, arguments: text } };
}

function calls(rowId: number, ...made: ReturnType<typeof call>[]) {
  return { role: "assistant", content: "", tool_calls: made, _row_id: rowId };
}

function result(rowId: number, id: string, content: unknown) {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  return { role: "tool", tool_call_id: id, content: text, _row_id: rowId };
}

const WINDOW = [
  { role: "user", content: "Make the tests pass", _row_id: 1 },
  { role: "user", content: "[System: the user is away]", _row_id: 2 },
  calls(3, call("c1", "terminal", { command: "pytest -q" })),
  result(4, "c1", {
    output: "E   ImportError: cannot import name 'x'\n" +
      "FAILED tests/test_a.py::test_a - KeyError: 'sku'",
    exit_code: 1,
    error: null,
  }),
  calls(
    5,
    call("c2", "terminal", { command: "grep -n TODO src", workdir: "/a" }),
    call("c3", "terminal", { command: "grep -n TODO src", workdir: "/b" }),
  ),
  result(6, "c2", { output: "", exit_code: 1, error: null }),
  result(7, "c3", { output: "src/a.py:1: TODO", exit_code: 0, error: null }),
  calls(
    8,
    call("c4", "read_file", { path: "src/app.py" }),
    call("c5", "patch", {
      mode: "patch",
      patch: "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n" +
        "*** Add File: src/new.py\n+x\n*** End Patch",
    }),
  ),
  result(9, "c4", "1|import os"),
  result(10, "c5", {
    success: false,
    error: 'Traceback (most recent call last):\n  File "db.py", line 3\n' +
      "sqlalchemy.exc.OperationalError: unable to open database file",
  }),
  calls(11, call("c6", "terminal", { command: "pytest -q" })),
  result(12, "c6", { output: "ValueError: only printed\n1 passed", exit_code: 0, error: null }),
  calls(13, call("c7", "execute_code", { code: "print(1)\nprint(2)" })),
  result(14, "c7", { status: "success", output: "1\n2" }),
  calls(15, call("c8", "terminal", "{not json")),
  result(16, "c8", { output: "", exit_code: 0 }),
  result(17, "elsewhere", { output: "", exit_code: 0 }),
  calls(18, call("c9", "terminal", { command: "make" })),
  result(19, "c9", "[terminal] ran `make` -> exit 2, 3 lines output"),
  calls(20, call("c10", "terminal", { command: "make check" })),
  calls(
    21,
    call("c11", "write_file", { path: " notes.md ", content: "x" }),
    call("c12", "search_files", { pattern: "TODO", path: "src" }),
  ),
  result(22, "c11", { success: true }),
  result(23, "c12", {
    error: "    except KeyError:\n        raise ValueError(x)\nError: boom",
  }),
  { role: "user", content: [{ type: "text", text: "Also update the docs" }], _row_id: 24 },
  { role: "user", content: "   ", _row_id: 25 },
];

Deno.test("windowFacts() takes no reply that only assents, approves or thanks for a request", () => {
  const users = [
    "Fix the failing import in src/app.py.",
    "yes, approve it",
    "OK. Go ahead!",
    "thanks",
    "Yes, and rerun the suite after it.",
  ].map((content, index) => ({ role: "user", content, _row_id: index + 1 }));
  assert.deepEqual(windowFacts(users).requests, [{ ref: "#1" }, { ref: "#5" }]);
});

Deno.test("windowFacts() lists distinct commands with their exit codes, files, errors, requests", () => {
  const facts = windowFacts(WINDOW);
  assert.deepEqual(facts.commands, [
    {
      tool: "terminal",
      text: "pytest -q",
      background: false,
      runs: [
        { callRef: "#3", resultRef: "#4", exit: 1 },
        { callRef: "#11", resultRef: "#12", exit: 0 },
      ],
      finalExit: 0,
      everFailed: true,
    },
    {
      tool: "terminal",
      text: "grep -n TODO src",
      workdir: "/a",
      background: false,
      runs: [{ callRef: "#5", resultRef: "#6", exit: 1 }],
      finalExit: 1,
      everFailed: true,
    },
    {
      tool: "terminal",
      text: "grep -n TODO src",
      workdir: "/b",
      background: false,
      runs: [{ callRef: "#5", resultRef: "#7", exit: 0 }],
      finalExit: 0,
      everFailed: false,
    },
    {
      tool: "execute_code",
      text: "print(1)\nprint(2)",
      background: false,
      runs: [{ callRef: "#13", resultRef: "#14" }],
      everFailed: false,
    },
    {
      tool: "terminal",
      text: "make",
      background: false,
      runs: [{ callRef: "#18", resultRef: "#19", exit: 2 }],
      finalExit: 2,
      everFailed: true,
    },
    {
      tool: "terminal",
      text: "make check",
      background: false,
      runs: [{ callRef: "#20" }],
      everFailed: false,
    },
  ]);
  assert.deepEqual(facts.files, [
    { path: "src/app.py", operations: ["read", "modified"] },
    { path: "src/new.py", operations: ["written"] },
    { path: "notes.md", operations: ["written"] },
    { path: "src", operations: ["searched"] },
  ]);
  assert.deepEqual(facts.errorNames, [
    { name: "ImportError", firstRef: "#4" },
    { name: "KeyError", firstRef: "#4" },
    { name: "OperationalError", firstRef: "#10" },
    // A command that exited 0 but printed an error line reports that line.
    { name: "ValueError: only printed", firstRef: "#12" },
  ]);
  assert.deepEqual(facts.requests, [{ ref: "#1" }, { ref: "#24" }]);
  assert.deepEqual(facts.unread, { unreadableCalls: 1, orphanResults: 1, repeatedCalls: 0 });
});

Deno.test("windowFacts() cites rows by position without ids and skips Hermes's re-stored calls", () => {
  const ls = (id: string) => ({
    role: "assistant",
    content: "",
    tool_calls: [call(id, "terminal", { command: "ls" })],
  });
  const facts = windowFacts([
    { role: "user", content: "list the files", timestamp: 90 },
    { ...ls("a"), timestamp: 100 },
    { role: "tool", tool_call_id: "a", content: '{"output":"x","exit_code":0}', timestamp: 101 },
    // The first exchange stored again after a compaction: same id, same time.
    { ...ls("a"), timestamp: 100 },
    { role: "tool", tool_call_id: "a", content: "[terminal] ran `ls` -> exit 0, 1 lines output" },
    ls("b"),
    { role: "tool", tool_call_id: "b", content: '{"output":"","exit_code":3}' },
    // An id used again at another time is a call of its own.
    ls("b"),
    { role: "tool", tool_call_id: "b", content: '{"output":"x","exit_code":0}', _row_id: "12" },
    // The request stored again; then the same words asked anew: one request either way.
    { role: "user", content: "list the files", timestamp: 90 },
    { role: "user", content: "list the files" },
  ]);
  assert.deepEqual(facts.commands, [{
    tool: "terminal",
    text: "ls",
    background: false,
    runs: [
      { callRef: "t2", resultRef: "t3", exit: 0, copies: ["t4", "t5"] },
      { callRef: "t6", resultRef: "t7", exit: 3 },
      { callRef: "t8", resultRef: "#12", exit: 0 },
    ],
    finalExit: 0,
    everFailed: true,
  }]);
  assert.deepEqual(facts.requests, [{ ref: "t1", copies: ["t10", "t11"] }]);
  assert.deepEqual(facts.unread, { unreadableCalls: 0, orphanResults: 0, repeatedCalls: 1 });
});

Deno.test("windowFacts() reads a job's process calls as its runs, and printed errors of programs only", () => {
  const facts = windowFacts([
    calls(1, call("p1", "process", { action: "kill", session_id: "proc_1" })),
    result(2, "p1", { status: "killed", exit_code: 0 }),
    calls(3, call("t1", "terminal", { command: "cat app.log" })),
    result(4, "t1", { output: "Error: Authentication Failed", exit_code: 0 }),
    calls(5, call("t2", "terminal", { command: "cd /srv && ./deploy.sh | tail -2" })),
    result(6, "t2", { output: "Uploading\nError: Authentication Failed", exit_code: 0 }),
  ]);
  // A job started before the window is the command `process ID`; a killed job has no exit.
  assert.deepEqual(facts.commands.map((fact) => [fact.tool, fact.text, fact.finalExit]), [
    ["process", "process proc_1", undefined],
    ["terminal", "cat app.log", 0],
    ["terminal", "cd /srv && ./deploy.sh | tail -2", 0],
  ]);
  // `cat` prints a file: its lines are content, not its own report.
  assert.deepEqual(facts.errorNames, [{ name: "Error: Authentication Failed", firstRef: "#6" }]);
});

Deno.test("windowFacts() reads a background job as one command, its exit the job's", () => {
  const facts = windowFacts([
    calls(1, call("b1", "terminal", { command: "sleep 3; exit 3", background: true })),
    result(2, "b1", { output: "Background process started", session_id: "proc_9", exit_code: 0 }),
    calls(
      3,
      call("w1", "tool_call", {
        calls: [{ name: "process_manage", arguments: { action: "wait", session_id: "proc_9" } }],
      }),
    ),
    result(4, "w1", { status: "exited", exit_code: 3, output: "done" }),
  ]);
  assert.deepEqual(facts.commands.map((fact) => [fact.text, fact.runs.length, fact.finalExit]), [
    ["sleep 3; exit 3", 2, 3],
  ]);
});

Deno.test("raisedNames() counts names reported as raised, not names merely mentioned", () => {
  const output = [
    "Traceback (most recent call last):",
    '  File "a.py", line 2, in <module>',
    "    raise ValueError(x)",
    "    except KeyError:",
    "class FooError(Exception):",
    "AttributeError: 'NoneType' object has no attribute 'x'",
    "E       AssertionError: assert 5 == 3",
    "ERROR tests/test_api.py - ImportError: cannot import name 'reserve'",
    "requests.exceptions.ConnectionError: refused",
    "ZeroDivisionError",
    "Error: Authentication Failed",
    "AttributeError: again",
  ].join("\n");
  assert.deepEqual(raisedNames(output), [
    "AttributeError",
    "AssertionError",
    "ImportError",
    "ConnectionError",
    "ZeroDivisionError",
  ]);
});

Deno.test("showsText() accepts folded whitespace and cuts at either end, nothing else", () => {
  assert.ok(showsText("cat <<EOF hello world EOF", "cat <<EOF\nhello   world\nEOF"));
  assert.ok(showsText("python -c…", 'python -c "import a"'));
  assert.ok(showsText("git log … | head", "git log --oneline --all | head"));
  assert.ok(showsText("echo ‹|im_start|› (#3)", "echo <|im_start|> [#3]"));
  assert.ok(!showsText("python -c…", "python3 -c 1"));
  assert.ok(!showsText("pytest -q", "pytest -q tests/"));
  assert.ok(!showsText("…", "anything"));
  assert.ok(!showsText("git … | grep -i x", "git log | head"));
});

const command = (
  text: string,
  runs: CommandFact["runs"],
  extra: Partial<CommandFact> = {},
): CommandFact => {
  const finalExit = runs.at(-1)?.exit;
  return {
    tool: "terminal",
    text,
    background: false,
    runs,
    ...(finalExit === undefined ? {} : { finalExit }),
    everFailed: runs.some((run) => (run.exit ?? 0) !== 0),
    ...extra,
  };
};

/** Facts written by hand, so the scorer is checked on its own. */
const FACTS: WindowFacts = {
  commands: [
    command("pytest -q", [
      { callRef: "#3", resultRef: "#4", exit: 1 },
      { callRef: "#11", resultRef: "#12", exit: 0 },
    ]),
    command("grep -n TODO src", [{ callRef: "#5", resultRef: "#6", exit: 1 }], { workdir: "/a" }),
    command("grep -n TODO src", [{ callRef: "#5", resultRef: "#7", exit: 0 }], { workdir: "/b" }),
    command("print(1)\nprint(2)", [{ callRef: "#13", resultRef: "#14" }], {
      tool: "execute_code",
    }),
    command('python -c "import a"', [{ callRef: "#20", resultRef: "#21", exit: 1 }]),
    command('python -c "import b"', [{ callRef: "#22", resultRef: "#23", exit: 0 }]),
    command("echo `date`", [{ callRef: "#30", resultRef: "#31", exit: 0 }]),
    command("cat <<EOF\nhello   world\nEOF", [{ callRef: "#32", resultRef: "#33", exit: 0 }]),
    command("make", [{ callRef: "#40", resultRef: "#41", exit: 2 }, { callRef: "#42" }]),
    command("find . -name '*.py' -newer setup.cfg | xargs grep -l TODO", [
      { callRef: "#50", resultRef: "#51", exit: 0 },
    ]),
  ],
  files: [
    { path: "src/app.py", operations: ["read", "modified"] },
    { path: "src/new.py", operations: ["written"] },
    { path: "docs/very/long/path.md", operations: ["read"] },
    { path: "notes.md", operations: ["written"] },
  ],
  errorNames: [
    { name: "ImportError", firstRef: "#4" },
    { name: "KeyError", firstRef: "#4" },
    { name: "OperationalError", firstRef: "#10" },
  ],
  requests: [{ ref: "#1" }, { ref: "#24", copies: ["#25"] }, { ref: "#26" }],
  unread: { unreadableCalls: 0, orphanResults: 0, repeatedCalls: 0 },
};

const PROJECTION = `## Historical Task Snapshot
[#24] Also update the docs

## Goal
[#1] Make the tests pass
[#25] Also update the docs
[#77] Something else
(1 older requests omitted; the full history is in the session store)

## Blocked
- [#5] terminal \`grep -n TODO src\` — failed (exit 1) [#6], no later success
- [#20] terminal \`python -c "import a"\` — failed (exit 1) [#21], no later success
- [#3] terminal \`pytest -q\` — failed (exit 1) [#4], no later success

## Errors & Fixes
- [#3] terminal \`pytest -q\` — failed (exit 1) [#4]: ImportError: x → fixed at [#12]
- [#20] terminal \`python -c "import a"\` — failed (exit 1) [#21]: boom → fixed at [#23]
- [#40] terminal \`make\` — failed (exit 3) [#41]
- [#8] read_file \`src/app.py\` — error [#9]: not found

## Errors Seen
- ImportError (first at [#4])
- sqlalchemy.exc.OperationalError (first at [#10])
- Traceback (first at [#4])
(2 older error names omitted; the full history is in the session store)

## Relevant Files
- src/app.py — read [#9]; modified (patched) [#10]
- src/new.py — read [#9]
- docs/very/long/pa… — read [#60]
- /home/dev — workdir [#5]

## Commands Run
- [#3] \`pytest -q\` — failed (exit 1) [#4], then succeeded (exit 0) [#12]
- [#5] \`grep -n TODO src\` — no match (exit 1) [#6]
- [#13] \`print(1) print(2)\` — ran (no exit code) [#14]
- [#20] \`python -c…\` — failed (exit 1) [#21], then succeeded (exit 0) [#23]
- [#30] \`\` echo \`date\` \`\` — succeeded (exit 0) [#31]
- [#32] \`cat <<EOF hello world EOF\` — succeeded (exit 2) [#33]
- [#40] \`make\` — failed (exit 2) [#41]
- [#50] \`find . -name '*.py'…xargs grep -l TODO\` — succeeded (exit 0) [#51]
- [#99] \`ls\` — succeeded (exit 0) [#100]
(3 older commands omitted; the full history is in the session store)

## Detailed Session Log (oldest first)
[#3] → terminal: \`pytest -q\`
`;

Deno.test("scoreWindow() tells a command run in a working directory by the directory its line changes to", () => {
  const facts = windowFacts([
    calls(
      1,
      call("a", "terminal", { command: "grep -n TODO src", workdir: "/srv/a" }),
      call("b", "terminal", { command: "grep -n TODO src", workdir: "/srv/my b" }),
    ),
    result(2, "a", { output: "", exit_code: 1 }),
    result(3, "b", { output: "src/x.py:1: TODO", exit_code: 0 }),
  ]);
  const score = (lines: string) =>
    scoreWindow(facts, readProjection(`## Commands Run\n${lines}`)).commands;
  const apart = score(
    "- [#1] `cd /srv/a && grep -n TODO src` — no match (exit 1) [#2]\n" +
      "- [#1] `cd '/srv/my b' && grep … src` — succeeded (exit 0) [#3]",
  );
  assert.equal(apart.present, 2);
  assert.equal(apart.right, 2);
  assert.equal(apart.wrong, 0);
  const same = score("- [#1] `grep -n TODO src` — no match (exit 1) [#2]");
  assert.equal(same.present, 0, "a line that names no directory could be either command's");
});

Deno.test("scoreWindow() counts lines that show two commands the same", () => {
  const facts = windowFacts([
    calls(1, call("a", "terminal", { command: "python -c 'import a'" })),
    result(2, "a", { output: "", exit_code: 0 }),
    calls(3, call("b", "terminal", { command: "python -c 'import b'" })),
    result(4, "b", { output: "", exit_code: 0 }),
    calls(5, call("c", "terminal", { command: "ls" })),
    result(6, "c", { output: "", exit_code: 0 }),
  ]);
  const shown = (display: string, again: string) =>
    scoreWindow(
      facts,
      readProjection(
        `## Commands Run\n- succeeded (exit 0) once each: [#2] \`${display}\`; [#4] \`${again}\`; [#6] \`ls\``,
      ),
    ).commands;
  assert.equal(shown("python -c…", "python -c…").sameText, 2);
  assert.equal(shown("python -c 'import a'", "python -c 'import b'").sameText, 0);
  assert.equal(shown("python -c…", "python -c…").present, 3, "each line still names its command");
});

Deno.test("scoreWindow() judges final outcomes by exit code and flags contradicted lines", () => {
  const score = scoreWindow(FACTS, readProjection(PROJECTION));
  assert.deepEqual(score.commands, {
    total: 10,
    checkable: 8,
    // pytest, execute_code, import a, echo, cat, make, find; not the two greps (ambiguous).
    present: 7,
    // pytest, echo, find.
    right: 3,
    // import a (merged with import b), cat (stated exit 2).
    wrong: 2,
    // make: exit 2 stated as final, the last run has no result.
    unproven: 1,
    kept: 9,
    omitted: 3,
    unmatched: 1,
    sameText: 0,
  });
  assert.deepEqual(score.wrong, [
    {
      section: "commands",
      ref: "#20",
      command: 4,
      reasons: [
        { kind: "final", detail: "final exit 0 stated, last run exited 1" },
        { kind: "run", detail: "exit 0 stated at [#23], not a run of this command" },
      ],
    },
    {
      section: "commands",
      ref: "#32",
      command: 7,
      reasons: [
        { kind: "final", detail: "final exit 2 stated, last run exited 0" },
        { kind: "run", detail: "exit 2 stated at [#33], that run exited 0" },
      ],
    },
    {
      section: "blocked",
      ref: "#3",
      command: 0,
      reasons: [{ kind: "noLaterSuccess", detail: "no later success stated, [#12] exited 0" }],
    },
    {
      section: "errorsFixes",
      ref: "#20",
      command: 4,
      reasons: [{ kind: "fix", detail: "fixed at [#23] stated, not a run of this command" }],
    },
    {
      section: "errorsFixes",
      ref: "#40",
      command: 8,
      reasons: [{ kind: "run", detail: "exit 3 stated at [#41], that run exited 2" }],
    },
  ]);
  assert.deepEqual(score.ambiguous, [
    { section: "commands", ref: "#5" },
    { section: "blocked", ref: "#5" },
  ]);
});

Deno.test("scoreWindow() checks files, error names and requests, and reads omission notes", () => {
  const score = scoreWindow(FACTS, readProjection(PROJECTION));
  assert.deepEqual(score.files, {
    total: 4,
    present: 3,
    // src/new.py is listed as read, never as written.
    operationsNamed: 2,
    kept: 4,
    omitted: 0,
    unmatched: 1,
  });
  assert.deepEqual(score.errorNames, { total: 3, present: 2, kept: 3, omitted: 2, unmatched: 1 });
  assert.deepEqual(score.requests, { total: 3, present: 2, kept: 3, omitted: 1, unmatched: 1 });
});

Deno.test("scoreWindow() judges a state citing a re-stored copy by the run it copies", () => {
  const facts: WindowFacts = {
    ...FACTS,
    commands: [
      command("cargo test", [
        { callRef: "#8", resultRef: "#9", exit: 2, copies: ["#40", "#41"] },
        { callRef: "#20", resultRef: "#21", exit: 0 },
      ]),
    ],
  };
  const line = (states: string) =>
    readProjection(`## Commands Run\n- [#8] \`cargo test\` — ${states}\n`);
  const right = scoreWindow(facts, line("failed (exit 2) [#9], then succeeded (exit 0) [#21]"));
  assert.equal(right.commands.right, 1);
  const copied = scoreWindow(facts, line("succeeded (exit 0) [#21], then failed (exit 2) [#41]"));
  assert.deepEqual(copied.wrong.map((wrong) => wrong.reasons), [[
    { kind: "final", detail: "final exit 2 stated, last run exited 0" },
  ]]);
});

Deno.test("scoreWindow() reads a run of several outcomes that names its last row", () => {
  const facts: WindowFacts = {
    ...FACTS,
    commands: [
      command("cargo test", [
        { callRef: "#8", resultRef: "#9", exit: 2 },
        { callRef: "#20", resultRef: "#21", exit: 0 },
        { callRef: "#22", resultRef: "#23", exit: 0 },
      ]),
    ],
  };
  const body =
    "## Commands Run\n- [#8] `cargo test` — failed (exit 2) [#9], then succeeded (exit 0) " +
    "×2 [#21], last [#23]\n";
  const score = scoreWindow(facts, readProjection(body));
  assert.equal(score.commands.right, 1);
  assert.deepEqual(score.wrong, []);
});

Deno.test("scoreWindow() takes no final outcome from a line cut short", () => {
  const text = readProjection(
    "## Commands Run\n- [#3] `pytest -q` — failed (exit 1) [#4], then succ…\n" +
      "- [#5] `grep -n TODO…\n",
  );
  assert.deepEqual(text.commands.lines, [
    { ref: "#3", display: "pytest -q", outcomes: [{ words: "failed", exit: 1, ref: "#4" }] },
    { ref: "#5", display: "grep -n TODO…", outcomes: [] },
  ]);
  const score = scoreWindow(FACTS, text);
  assert.equal(score.commands.present, 1);
  assert.equal(score.commands.right, 0);
  assert.deepEqual(score.wrong, []);
});

Deno.test("readProjection() reads counts, elided runs and fences of any length", () => {
  const text = readProjection(
    "## Commands Run\n" +
      "- [t4] ``` a `` b ``` — failed (exit 1) ×3 [t5], then … 2 more, then timed out [t9], " +
      "then no match (exit 1) [t11]\n" +
      "- `x` — succeeded\n",
  );
  assert.deepEqual(text.commands.lines, [
    {
      ref: "t4",
      display: "a `` b",
      outcomes: [
        { words: "failed", exit: 1, ref: "t5" },
        { words: "timed out", ref: "t9" },
        { words: "no match", exit: 1, ref: "t11" },
      ],
      final: { words: "no match", exit: 1, ref: "t11" },
    },
    { display: "x", outcomes: [] },
  ]);
  assert.equal(text.commands.omitted, 0);
});

Deno.test("runRecall() totals each corpus at each budget, then all corpora together", () => {
  const window = (id: string) => ({
    id,
    rows: [
      { role: "user", content: "List the files", _row_id: 1 },
      calls(2, call("c1", "terminal", { command: "ls -la" })),
      result(3, "c1", { output: "total 0", exit_code: 0, error: null }),
    ],
  });
  const run = runRecall(
    [{ name: "a", windows: [window("w1"), window("w2")] }, { name: "b", windows: [window("w3")] }],
    [1500, 4000],
  );
  assert.deepEqual(
    run.totals.map((row) => [row.corpus, row.budgetTokens, row.windows, row.commands.total]),
    [["a", 1500, 2, 2], ["a", 4000, 2, 2], ["b", 1500, 1, 1], ["b", 4000, 1, 1], [
      "all",
      1500,
      3,
      3,
    ], ["all", 4000, 3, 3]],
  );
  for (const row of run.totals) {
    assert.equal(row.commands.right, row.windows, `${row.corpus}@${row.budgetTokens}`);
    assert.equal(row.requests.present, row.windows);
    assert.equal(row.exactCounts.commands, row.windows);
    assert.equal(row.wrong, 0);
  }
});

Deno.test("vcc bench recall scores a folder of windows and prints counts only", async () => {
  const dir = Deno.makeTempDirSync();
  const secret = "ls /home/someone/private-notes";
  Deno.writeTextFileSync(
    `${dir}/one.json`,
    JSON.stringify({
      session_id: "s1",
      messages: [
        { role: "user", content: "Show me my notes", _row_id: 1 },
        calls(2, call("c1", "terminal", { command: secret })),
        result(3, "c1", { output: "notes.md", exit_code: 0, error: null }),
      ],
    }),
  );
  Deno.writeTextFileSync(`${dir}/ignored.txt`, "not a window");
  const cache = Deno.makeTempDirSync();
  const run = await runVcc(["bench", "recall", dir, "--budgets", "1500"], cache);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^CORPUS +BUDGET +WINDOWS +COMMANDS +PRESENT +RIGHT +WRONG/m);
  assert.match(run.stdout, new RegExp(`^${dir} +1500 +1 +1 +100% +100% +0 `, "m"));
  assert.match(run.stdout, /^PASS; report: /m);
  assert.doesNotMatch(run.stdout, /private-notes|Show me/, "no transcript text on the console");
  assert.match(run.stderr, /^recall: 1\/1$/m);
  const report = `${cache}/vcc/recall.json`;
  assert.equal(Deno.statSync(report).mode! & 0o777, 0o600);

  const json = await runVcc(["bench", "recall", `${dir}/one.json`, "--demo", "--json"], cache);
  assert.equal(json.code, 0, json.stdout);
  const summary = JSON.parse(json.stdout);
  assert.deepEqual(summary.budgets, [1500, 4000, 8000]);
  assert.deepEqual(
    [...new Set(summary.totals.map((row: { corpus: string }) => row.corpus))],
    [`${dir}/one.json`, "demo", "all"],
  );
  assert.doesNotMatch(json.stdout, /private-notes/);
});

Deno.test("vcc bench recall --db scores the store's compaction windows, leaving it untouched", async () => {
  const store = tempStore();
  const args = ["bench", "recall", "--db", store.path, "--budgets", "4000", "--json"];
  const run = await runVccOnStore(store.path, args, Deno.makeTempDirSync());
  assert.equal(run.code, 0, run.stdout);
  const summary = JSON.parse(run.stdout);
  const [totals] = summary.totals;
  assert.match(totals.corpus, /^db-[0-9a-f]{12}$/);
  assert.ok(totals.windows >= 2);
  assert.ok(totals.commands.present > 0);
  assert.deepEqual(summary.wrong, []);
});

Deno.test("vcc bench recall rejects bad input with exit code 2", async () => {
  const empty = Deno.makeTempDirSync();
  const broken = `${empty}/broken.json`;
  for (
    const [args, message] of [
      [[], /give window files or folders, --db PATH, or --demo/],
      [[empty], /no \.json or \.jsonl window files/],
      [[`${empty}/missing`], /cannot read/],
      [["--demo", "--budgets", "1500,x"], /--budgets: expected token counts/],
    ] as const
  ) {
    const run = await runVccWithoutStore(["bench", "recall", ...args]);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
  Deno.writeTextFileSync(broken, "[{");
  const run = await runVcc(["bench", "recall", broken]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /broken\.json/);
});
