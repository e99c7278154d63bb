/** How every result shape and pruning stub reads as an outcome, and how that outcome is worded. */
import assert from "node:assert/strict";
import { readOutcome } from "../../src/core/outcome.ts";
import { describeState } from "../../src/core/outcome_words.ts";

const json = (value: unknown) => JSON.stringify(value);

// [result text, command tool?, expected wording]
const CASES: ReadonlyArray<readonly [string, boolean, string]> = [
  [json({ output: "ok", exit_code: 0, error: null }), true, "succeeded (exit 0)"],
  [json({ output: "1 failed", exit_code: 1, error: null }), true, "failed (exit 1)"],
  [json({ output: "usage: x", exit_code: 2 }), true, "failed (exit 2)"],
  [json({ output: "bash: foo: command not found", exit_code: 127 }), true, "failed (exit 127)"],
  [json({ output: "Killed", exit_code: 137 }), true, "failed (exit 137)"],
  [json({ output: "", exit_code: -1, error: "spawn failed" }), true, "failed (exit -1)"],
  [
    json({ output: "partial", exit_code: -1, error: "Command timed out after 180s" }),
    true,
    "timed out (exit -1)",
  ],
  // Hermes's shell backends end the output with a note of their own when the deadline passed or
  // the user interrupted; a program printing those words earlier says nothing of the kind.
  [
    json({ output: "slow 3\n[Command timed out after 5s]", exit_code: 124, error: null }),
    true,
    "timed out (exit 124)",
  ],
  [json({ output: "[Command timed out after 5s]", exit_code: 124 }), true, "timed out (exit 124)"],
  [
    json({ output: "partial\n[Command interrupted]\n", exit_code: 130, error: null }),
    true,
    "interrupted (exit 130)",
  ],
  [
    json({ output: "[Command timed out after 5s]\nretried: done", exit_code: 0, error: null }),
    true,
    "succeeded (exit 0)",
  ],
  [
    json({
      output: "",
      exit_code: null,
      error: null,
      status: "yielded_to_background",
      session_id: "proc_1",
      notify_on_complete: true,
    }),
    true,
    "started in background",
  ],
  [json({ output: "no exit code here" }), true, "ran (no exit code)"],
  [json({ output: "", error: "permission denied" }), true, "failed (error)"],
  [json({ status: "blocked", error: "denied by user" }), true, "blocked"],
  [json({ status: "BLOCKED" }), true, "blocked"],
  // Hermes 0.22's refusals in approval mode, as stored.
  [
    json({ status: "error", error: "BLOCKED: execute_code runs arbitrary local Python." }),
    true,
    "blocked",
  ],
  [
    json({ output: "", exit_code: -1, error: "BLOCKED: this command matches a deny rule." }),
    true,
    "blocked (exit -1)",
  ],
  [json({ status: "pending_approval", message: "needs approval" }), true, "pending approval"],
  [json({ status: "approval_required" }), true, "pending approval"],
  [json({ status: "interrupted", output: "^C" }), true, "interrupted"],
  [json({ status: "running" }), true, "still running"],
  [json({ status: "exited", exit_code: 3 }), true, "failed (exit 3)"],
  ["[terminal] ran `pytest -q` -> exit 1, 40 lines output", true, "failed (exit 1)"],
  ["[terminal] ran `pytest -q` -> exit 0, 3 lines output", true, "succeeded (exit 0)"],
  ["[terminal] ran `make` -> exit ?, 1,204 lines output", true, "ran (no exit code)"],
  ["[terminal] ran `sleep 1` -> exit 137, 1 line output", true, "failed (exit 137)"],
  ["[execute_code] `print(1)` (1 lines output)", true, "ran (no exit code)"],
  // Hermes 0.22's pruning lines of refused calls keep the refusal.
  ["[terminal] `git push --force origin feature_6` BLOCKED, not run", true, "blocked"],
  [
    "[execute_code] BLOCKED, not run; the user did NOT consent, do not retry or reach the same outcome another way",
    true,
    "blocked",
  ],
  ["[terminal] `rm -rf build` awaiting the user's approval, not run", true, "pending approval"],
  ["[write_file] `notes/a.md` BLOCKED, not run", false, "blocked"],
  ["[process] poll session=proc_1", true, "ran (no exit code)"],
  ["[Old tool output cleared to save context space]", true, "output cleared"],
  ["[Duplicate tool output — same content as a more recent call]", true, "output cleared"],
  [
    "[terminal output demoted at compaction — 9,120 chars preserved in session history. Recover with session_search(query=..., session_id='s')]",
    true,
    "output cleared",
  ],
  ['{"output": "truncated JSON", "exit_code": 2, "err', true, "failed (exit 2)"],
  ["plain text, no status", true, "ran (no exit code)"],
  ["BLOCKED: rm -rf / is never allowed", true, "blocked"],
  ["This command requires approval from the user", true, "pending approval"],
  ["", true, "ran (no exit code)"],
  ["[read_file] read src/a.py from line 1 (3,660 chars)", false, "ok"],
  ["[write_file] wrote to src/a.py (12 lines)", false, "ok"],
  ["[search_files] content search for 'x' in src -> 4 matches", false, "ok"],
  ["[patch] replace in src/a.py (1,208 chars result)", false, "ok"],
  ["[web_search] query='deno' (2,001 chars result)", false, "ok"],
  [json({ error: "File not found: src/b.py" }), false, "error"],
  [json({ success: false, message: "old_string not found" }), false, "error"],
  ["Error: no such file", false, "error"],
  ["1|import os", false, "ok"],
  [json({ total_count: 0, matches: [] }), false, "ok"],
];

Deno.test("readOutcome() reads every result shape, stub and exit code", async (t) => {
  for (const [text, command, expected] of CASES) {
    await t.step(`${command ? "command" : "tool"} ${text.slice(0, 70)}`, () => {
      assert.equal(describeState(readOutcome(text, { command })), expected);
    });
  }
});

Deno.test("readOutcome() never reports an unknown command outcome as success", () => {
  for (const text of ["", "done", "[Old tool output cleared to save context space]", "{}", "[]"]) {
    assert.doesNotMatch(describeState(readOutcome(text, { command: true })), /succeeded/);
  }
});

Deno.test("readOutcome() keeps the stub it read so the command can be recovered", () => {
  const outcome = readOutcome(
    "[terminal] ran `python -m pytest tests/integration -x -q --maxfail=1 --disable-warnings -p no...` -> exit 1, 57 lines output",
    { command: true },
  );
  assert.equal(outcome.stub?.kind, "terminal");
  assert.ok(outcome.stub?.kind === "terminal" && outcome.stub.truncated);
});

Deno.test("readOutcome() treats a background start without exit code as started", () => {
  const outcome = readOutcome(
    json({ output: "Background process started", session_id: "proc_1" }),
    { command: true, background: true },
  );
  assert.equal(describeState(outcome), "started in background");
});

Deno.test("readOutcome() takes an explicit success or failure status without an exit code", () => {
  assert.equal(
    describeState(readOutcome(json({ status: "success", output: "4" }), { command: true })),
    "succeeded",
  );
  assert.equal(
    describeState(readOutcome(json({ status: "error", output: "NameError" }), { command: true })),
    "failed (error)",
  );
  assert.equal(
    describeState(readOutcome(json({ success: true }), { command: true })),
    "succeeded",
  );
  assert.equal(
    describeState(readOutcome(json({ status: "completed" }), { command: false })),
    "ok",
  );
});

// [what the result says, as Hermes's process tool writes it, how the job's run is stated]
const JOB_STATUSES: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
  ["exited", { status: "exited", command: "x", exit_code: 3, output: "boom" }, "failed (exit 3)"],
  ["exited 0", { status: "exited", exit_code: 0, output: "done" }, "succeeded (exit 0)"],
  ["already exited", { status: "already_exited", exit_code: 1 }, "failed (exit 1)"],
  ["still running", { status: "running", session_id: "proc_1" }, "still running"],
  [
    "a wait whose window elapsed",
    { status: "timeout", output: "...", process_running: true, timeout_note: "Wait window" },
    "still running",
  ],
  ["killed", { status: "killed", session_id: "proc_1", completion_reason: "killed" }, "killed"],
  ["unknown process", { status: "not_found", error: "No process with ID proc_9" }, "error"],
];

Deno.test("readOutcome() reads a process tool's result as its job's status", async (t) => {
  for (const [what, result, expected] of JOB_STATUSES) {
    await t.step(what, () => {
      const outcome = readOutcome(json(result), { command: true, process: true });
      assert.equal(describeState(outcome), expected);
    });
  }
});

Deno.test("readOutcome() reads a background start as started, whatever its exit code", () => {
  const start = json({ output: "Background process started", session_id: "proc_7", exit_code: 0 });
  const outcome = readOutcome(start, { command: true, background: true });
  assert.equal(describeState(outcome), "started in background");
  assert.equal(outcome.job, "proc_7");
});

Deno.test("readOutcome() reads a JSON result Hermes appended a note to as the JSON", () => {
  const text = '{"output": "", "exit_code": 1, "error": null, "exit_code_meaning": ' +
    '"No matches found (not an error)"}\n\n[Tool loop warning: this exact call repeated 3 times]';
  const outcome = readOutcome(text, { command: true, commandLine: "grep -rn NOSUCHTOKEN ." });
  assert.equal(describeState(outcome), "no match (exit 1)");
});

Deno.test("readOutcome() keeps where a persisted output was saved, and its size", () => {
  const block = "<persisted-output>\nThis tool result was too large (52,004 characters, 50.8 KB)." +
    "\nFull output saved to: /h/cache/spillover/call_7.txt\nUse the read_file tool with offset " +
    'and limit to access specific sections of this output.\n\nPreview (first 40 chars):\n{"output": ' +
    '"2026-12-01 ERROR order A-1 declined\\nok\n...\n</persisted-output>';
  const outcome = readOutcome(block, { command: true, commandLine: "cat big.log" });
  assert.deepEqual(outcome.saved, { path: "/h/cache/spillover/call_7.txt", size: 52004 });
  assert.equal(describeState(outcome), "ran (no exit code)");
  assert.match(outcome.detail, /^2026-12-01 ERROR order A-1 declined\nok/);
});
