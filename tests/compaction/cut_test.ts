/** Hermes's cut, pruning and sizes as vcc reproduces them. */
import assert from "node:assert/strict";
import {
  compactionThreshold,
  cutForCompaction,
  DUPLICATE_STUB,
  type MessageRow,
  pruneToolResults,
  replayCompactions,
  summaryBody,
  summaryRowText,
  tailTokenBudget,
} from "../../src/compaction/mod.ts";
import { generateWindow } from "../../src/sample/mod.ts";

const SMALL = { contextTokens: 32_000 };

function turns(count: number): MessageRow[] {
  const rows: MessageRow[] = [];
  for (let i = 0; i < count; i++) {
    rows.push({ role: "user", content: `request ${i}`, _row_id: rows.length + 1 });
    rows.push({
      role: "assistant",
      content: "",
      tool_calls: [{
        id: `c${i}`,
        type: "function",
        function: { name: "terminal", arguments: "{}" },
      }],
      _row_id: rows.length + 1,
    });
    rows.push({
      role: "tool",
      tool_call_id: `c${i}`,
      content: "x".repeat(4000),
      _row_id: rows.length + 1,
    });
  }
  return rows;
}

Deno.test("cutForCompaction() pins the head, keeps a token-budgeted tail and never splits a call", () => {
  const rows = turns(40);
  const cut = cutForCompaction(rows, SMALL)!;
  assert.equal(cut.head.length, 3);
  assert.ok(cut.tail.length >= 20, "at least protect_last_n rows stay");
  assert.notEqual(cut.tail[0]?.role, "tool", "the tail never starts on a tool result");
  assert.equal(cut.head.length + cut.window.length + cut.tail.length, rows.length);
  assert.ok(cut.tail.some((row) => row.role === "user"), "the last user message stays");
});

Deno.test("cutForCompaction() compacts a session whose only request is in the head", () => {
  // As the live Hermes runs: one request, then tool rounds only; the request stays in the head.
  const [request, ...rest] = turns(1);
  const rounds = turns(40).filter((row) => row.role !== "user");
  const cut = cutForCompaction([request!, ...rest, ...rounds], SMALL)!;
  assert.equal(cut.head[0], request);
  assert.ok(cut.window.length > 0, "the rounds between head and tail are compacted");
  assert.ok(!cut.tail.some((row) => row.role === "user"));
});

Deno.test("cutForCompaction() treats earlier summaries as the previous projection", () => {
  const summary = { role: "user", content: summaryRowText("## Goal\n[#1] ship it"), _row_id: 99 };
  const cut = cutForCompaction([summary, ...turns(30)], SMALL)!;
  assert.equal(cut.head.length, 0, "the head decays to nothing after a compaction");
  assert.equal(cut.previous, "## Goal\n[#1] ship it");
  assert.ok(!cut.window.includes(summary));
});

Deno.test("cutForCompaction() finds nothing in a short transcript", () => {
  assert.equal(cutForCompaction(turns(2), SMALL), undefined);
});

Deno.test("pruneToolResults() stubs long results and marks repeats, like Hermes's first phase", () => {
  const window = generateWindow({ seed: 3, targetTokens: 20_000 });
  const pruned = pruneToolResults(window, [window.at(-1)!]);
  const long = pruned.filter((row) => row.role === "tool" && typeof row.content === "string");
  assert.ok(
    long.every((row) => String(row.content).length < 400 || row.content === DUPLICATE_STUB),
  );
  assert.ok(long.some((row) => String(row.content).startsWith("[terminal] ran `")));
  assert.notEqual(window, pruned);
  assert.ok(window.some((row) => String(row.content).length > 400), "the input is unchanged");
});

Deno.test("summaryBody() recovers the body of a stored summary row", () => {
  assert.equal(summaryBody(summaryRowText("## Goal\nx")), "## Goal\nx");
});

Deno.test("sizes follow Hermes's settings", () => {
  const cases: [string, number, number][] = [
    ["threshold for 128K", compactionThreshold(128_000), 96_000],
    ["threshold for 1M", compactionThreshold(1_000_000), 256_000],
    ["threshold for 32K", compactionThreshold(32_000), 27_200],
    ["tail for 128K", tailTokenBudget(128_000), 10_000],
    ["tail for 1M", tailTokenBudget(1_000_000), 25_000],
  ];
  for (const [what, actual, expected] of cases) assert.equal(actual, expected, what);
});

Deno.test("replayCompactions() cuts a long session several times", () => {
  const rows = generateWindow({ seed: 5, targetTokens: 120_000 });
  const found = replayCompactions(rows, SMALL);
  assert.ok(found.length >= 3, `${found.length} compactions`);
  const ids = found.flatMap((compaction) => compaction.window.map((row) => row._row_id));
  assert.equal(new Set(ids).size, ids.length, "no row is summarised twice");
});
