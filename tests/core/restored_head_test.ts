/**
 * Hermes 0.22 keeps the first exchange as its protected head, and after a compaction stores it
 * again under new row ids (same call ids, original timestamps). At the next compaction that old
 * failure arrives after the success the previous projection already recorded; the projection
 * must still state the history in the order it happened.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";

const call = (id: number, time: number, callId: string, command: string) => ({
  role: "assistant",
  _row_id: id,
  timestamp: time,
  content: "",
  tool_calls: [{
    id: callId,
    type: "function",
    function: { name: "terminal", arguments: JSON.stringify({ command }) },
  }],
});
const result = (id: number, time: number, callId: string, content: unknown) => ({
  role: "tool",
  _row_id: id,
  timestamp: time,
  tool_call_id: callId,
  tool_name: "terminal",
  content: typeof content === "string" ? content : JSON.stringify(content),
});

// The first compaction's window: the protected head (the request and the failing run) is not in it.
const firstWindow = [
  call(5, 1003, "c2", "cat src/app.py"),
  result(6, 1004, "c2", { output: "def f(): return 1", exit_code: 0 }),
  call(10, 1010, "c5", "pytest -q"),
  result(11, 1011, "c5", { output: "3 passed", exit_code: 0 }),
];
// The second: the head stored again as #26–#28 (its result pruned to a stub), then new work.
const secondWindow = [
  { role: "user", _row_id: 26, timestamp: 1000, content: "Make the tests pass." },
  call(27, 1001, "c1", "pytest -q"),
  result(28, 1002, "c1", "[terminal] ran `pytest -q` -> exit 1, 40 lines output"),
  call(29, 1100, "c9", "git status"),
  result(30, 1101, "c9", { output: "nothing to commit", exit_code: 1 }),
];

Deno.test("project() orders a re-stored failure before the success recorded after it", () => {
  const first = project(firstWindow, { sessionId: "s", budgetTokens: 4000 }).body;
  const { body } = project(secondWindow, { sessionId: "s", budgetTokens: 4000, previous: first });
  assert.match(
    body,
    /- \[#27\] `pytest -q` — failed \(exit 1\) \[#28\], then succeeded \(exit 0\) \[#11\]/,
  );
  assert.doesNotMatch(body, /## Blocked[^#]*pytest/);
  assert.match(
    body,
    /- \[#27\] terminal `pytest -q` — failed \(exit 1\) \[#28\] → fixed at \[#11\]/,
  );
  assert.match(body, /## Goal\n\[#26\] Make the tests pass\./);
});

Deno.test("project() states a header span from the earliest message of every layer", () => {
  const first = project(firstWindow, { sessionId: "s" }).body;
  const { body } = project(secondWindow, { sessionId: "s", previous: first });
  assert.match(
    body.split("\n")[0] ?? "",
    /Messages from 1970-01-01T00:16:40.000Z to 1970-01-01T00:18:21.000Z\.\)$/,
  );
});

Deno.test("project() logs a re-stored message before the earlier layer when it is older by less than a second", () => {
  const first = project([
    call(5, 1000.6, "c2", "cat src/app.py"),
    result(6, 1000.7, "c2", { output: "def f(): return 1", exit_code: 0 }),
  ], { sessionId: "s" }).body;
  const { body } = project([
    { role: "user", _row_id: 26, timestamp: 1000.2, content: "Make the tests pass." },
    call(29, 1100, "c9", "git status"),
  ], { sessionId: "s", previous: first });
  const log = body.slice(body.indexOf("## Detailed Session Log"));
  const order = [...log.matchAll(/^\[#(\d+)\]/gm)].map((match) => Number(match[1]));
  // The calls are listed in Commands Run, so the log shows the request and the result's words.
  assert.deepEqual(order, [26, 6]);
});

const logOrder = (body: string) =>
  [...body.slice(body.indexOf("## Detailed Session Log")).matchAll(/^\[#(\d+)\]/gm)].map((match) =>
    Number(match[1])
  );

Deno.test("project() logs a row once when Hermes passes it again after the projection that logged it", () => {
  const request = { role: "user", _row_id: 1, timestamp: 1000, content: "Make the tests pass." };
  const later = { role: "user", _row_id: 3, timestamp: 1002, content: "Then lint the package." };
  const first = project([request, call(2, 1001, "c1", "pytest -q")], { sessionId: "s" }).body;
  const { body } = project([request, later], { sessionId: "s", previous: first });
  // Once, and the call only in Commands Run; the latest request only in the snapshot.
  assert.deepEqual(logOrder(body), [1]);
  assert.match(body, /## Historical Task Snapshot\n\[#3\] Then lint the package\.\n/);
  assert.match(body, /- \[#2\] `pytest -q` — no result \[#2\]/);
});

Deno.test("project() logs the request Hermes restates after a compaction where it was stored", () => {
  const { body } = project([
    {
      role: "user",
      _row_id: 24,
      timestamp: 1200,
      content: "[STILL IN PROGRESS — this is the active request, restated.]\nMake the tests pass.",
    },
    call(14, 1100, "c6", "cat data/a.txt"),
    result(15, 1101, "c6", { output: "ledger a balanced", exit_code: 0 }),
    { role: "user", content: "Not saved yet." },
  ], { sessionId: "s" });
  assert.deepEqual(logOrder(body), [15, 24]);
  assert.match(body, /\[#24\] user: .*\n\[t4\] user: Not saved yet\.$/);
});

Deno.test("project() reads Hermes's grounded snapshot of a restated request as the request", () => {
  const first = project([{ role: "user", _row_id: 1, content: "Make the tests pass." }], {
    sessionId: "s",
  }).body;
  const grounded = first.replace(
    /## Historical Task Snapshot\n.*\n/,
    "## Historical Task Snapshot\nUser asked (deterministic, from compacted turns): '[STILL IN " +
      "PROGRESS — this is the active request, restated.] Make the tests pass.'\n",
  );
  const { body } = project([call(5, 1, "c1", "ls")], { sessionId: "s", previous: grounded });
  assert.match(body, /## Historical Task Snapshot\nMake the tests pass\.\n/);
});
