/**
 * What a call that runs no command is shown as: the argument that says what it was about. The
 * calls are the shapes Hermes's tools take; the expected lines are written by hand.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";

function window(calls: ReadonlyArray<readonly [string, Record<string, unknown>]>) {
  let row = 1;
  return [
    { role: "user", content: "Note the batch: batch 6 settles in units.", _row_id: row++ },
    ...calls.flatMap(([name, args], index) => [
      {
        role: "assistant",
        content: "",
        _row_id: row++,
        tool_calls: [{
          id: `c${index}`,
          type: "function",
          function: { name, arguments: JSON.stringify(args) },
        }],
      },
      {
        role: "tool",
        tool_call_id: `c${index}`,
        content: JSON.stringify({ success: true }),
        _row_id: row++,
      },
    ]),
  ];
}

Deno.test("a call that names an action is shown with what the action was done with", () => {
  const { body } = project(
    window([
      ["memory", { action: "add", target: "memory", content: "batch 6 settles in units" }],
      ["memory", { action: "remove", target: "memory", old_text: "batch 5 settles" }],
      ["cronjob", { action: "create", schedule: "0 9 * * *", prompt: "check the ledger" }],
      ["memory", { action: "list" }],
    ]),
    { budgetTokens: 4000, sessionId: "s" },
  );
  assert.match(body, /\[#2\] → memory: `add batch 6 settles in units`/);
  assert.match(body, /\[#4\] → memory: `remove batch 5 settles`/);
  assert.match(body, /\[#6\] → cronjob: `create check the ledger`/);
  assert.match(body, /\[#8\] → memory: `list`/, "an action done with nothing named stays as it is");
});
