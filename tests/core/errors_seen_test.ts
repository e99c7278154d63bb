/**
 * Errors Seen: the error lines outputs printed, whatever the exit code, told apart by their
 * fingerprints. The windows are the shapes the replay bench plants (a large log printed by a
 * command that exits 0, tagged lines in other scripts); the expected lines are written by hand.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";

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
    /^- ERROR payment declined for order A-1204 \(card ending 4242\) ×2 \(first at \[#12\]\)$/m,
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
    /^- ERROR payment declined for order A-1204 \(card ending 4242\) ×4 \(first at \[#12\]\)$/m,
  );
  assert.equal(body.match(/^- ERROR payment declined/gm)?.length, 1, "one line for the one error");
});
