/** Hermes's cut, pruning and sizes as vcc reproduces them, per Hermes generation. */
import assert from "node:assert/strict";
import {
  cutForCompaction,
  handoffKind,
  handoffRemainder,
  HERMES_0_19,
  HERMES_0_22,
  type MessageRow,
  pruneToolResults,
  replayCompactions,
  summaryBody,
  summaryRowText,
} from "../../src/compaction/mod.ts";
import { generateWindow } from "../../src/sample/mod.ts";

// What Hermes writes (agent/context_compressor.py), spelled out rather than taken from the code
// under test.
const DUPLICATE_STUB = "[Duplicate tool output — same content as a more recent call]";
const MERGED_PRIOR_HEADER = "[PRIOR CONTEXT — for reference only; not a new message]";
const MERGED_SUMMARY_DELIMITER = "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]";
const SUMMARY_END_MARKER =
  "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

const SMALL = { contextTokens: 32_000 };

function turns(count: number, firstId = 1): MessageRow[] {
  const rows: MessageRow[] = [];
  for (let i = 0; i < count; i++) {
    rows.push({ role: "user", content: `request ${i}`, _row_id: firstId + rows.length });
    rows.push({
      role: "assistant",
      content: "",
      tool_calls: [{
        id: `c${i}`,
        type: "function",
        function: { name: "terminal", arguments: "{}" },
      }],
      _row_id: firstId + rows.length,
    });
    rows.push({
      role: "tool",
      tool_call_id: `c${i}`,
      content: "x".repeat(4000),
      _row_id: firstId + rows.length,
    });
  }
  return rows;
}

const ids = (rows: readonly MessageRow[] | undefined) => rows?.map((row) => row._row_id);

// 32K window, 0.22: tail budget and ceiling 6,400 tokens. The 40 results are identical, so all
// but the newest become the duplicate marker and the whole transcript (~3,800 tokens) fits the
// ceiling: the tail falls back to its floor of 8 rows, 113-120 (row 113 is a call, so no split),
// which holds the user's last turn (118) already.
Deno.test("cutForCompaction() pins the head before the first compaction and keeps a tail floor", () => {
  const rows = turns(40);
  const cut = cutForCompaction(rows, SMALL)!;
  assert.deepEqual(ids(cut.head), [1, 2, 3], "protect_first_n = 3");
  assert.deepEqual(ids(cut.tail), [113, 114, 115, 116, 117, 118, 119, 120]);
  assert.deepEqual([cut.window[0]?._row_id, cut.window.at(-1)?._row_id], [4, 112]);
  assert.equal(cut.window[2]?.content, DUPLICATE_STUB, "row 6 repeats row 120");
  assert.equal(cut.head.length + cut.window.length + cut.tail.length, rows.length);
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

Deno.test("cutForCompaction() finds nothing in a short transcript", () => {
  assert.equal(cutForCompaction(turns(1), SMALL), undefined);
});

const RESTATED = "[STILL IN PROGRESS — restated]\nShip it";

Deno.test("a 0.22 summary row: the summary leaves the window, the restated request stays", () => {
  const summary = {
    role: "user",
    content: `${summaryRowText("## Goal\n[#1] ship it")}\n\n${RESTATED}`,
    _compressed_summary: true,
    _row_id: 99,
  };
  const rows = [summary, ...turns(3, 100)];
  const cut = cutForCompaction(rows, { contextTokens: 64_000, rules: HERMES_0_22 })!;
  // After a compaction the head is gone. Everything fits the tail budget, so the tail falls back
  // to its floor of 7 of the 9 rows after the summary, from row 102, a result: pulled back before
  // its call, it starts at row 101.
  assert.deepEqual(cut.head, []);
  assert.deepEqual(ids(cut.window), [99, 100]);
  assert.deepEqual(cut.window[0], { role: "user", content: RESTATED, _row_id: 99 });
  assert.deepEqual(ids(cut.tail), [101, 102, 103, 104, 105, 106, 107, 108]);
  assert.equal(cut.previous, "## Goal\n[#1] ship it");
});

Deno.test("0.19 passes no previous summary when the newest one sits in the tail", () => {
  // 64K window, 0.19: all 13 rows fit the budget, so the tail keeps its floor of 8, rows 6-13.
  // The summary row 4 (a user row, no flag) lies before it: it is the previous summary and the
  // window starts after it.
  const summary = { role: "user", content: summaryRowText("## Goal\nold"), _row_id: 4 };
  const before = cutForCompaction([...turns(1), summary, ...turns(3, 5)], {
    contextTokens: 64_000,
    rules: HERMES_0_19,
    compactedBefore: true,
  })!;
  assert.equal(before.previous, "## Goal\nold");
  assert.deepEqual(ids(before.window), [5], "the window starts after it");
  // Moved to the end it lies in the tail: 0.19 passes nothing.
  const after = cutForCompaction([...turns(3, 5), summary], {
    contextTokens: 64_000,
    rules: HERMES_0_19,
    compactedBefore: true,
  })!;
  assert.equal(after.previous, undefined);
});

Deno.test("handoff rows: standalone, flagged and merged, with what they carry besides", () => {
  const merged = `${MERGED_PRIOR_HEADER}\nReading the module.\n\n${MERGED_SUMMARY_DELIMITER}\n\n` +
    summaryRowText("## Goal\nmerged");
  const cases: [MessageRow, string | undefined, string | undefined][] = [
    [{ role: "user", content: summaryRowText("b") }, "standalone", undefined],
    [{ role: "user", content: "plain", _compressed_summary: 1 }, "standalone", undefined],
    [{ role: "assistant", content: merged }, "merged", "Reading the module."],
    [{ role: "user", content: `${summaryRowText("b")}\n\n${RESTATED}` }, "standalone", RESTATED],
    [{ role: "user", content: `${MERGED_SUMMARY_DELIMITER} not a summary` }, undefined, undefined],
    [{ role: "user", content: "hello" }, undefined, undefined],
  ];
  for (const [row, kind, rest] of cases) {
    assert.equal(handoffKind(row), kind, String(row.content));
    if (kind) assert.equal(handoffRemainder(row)?.content, rest, String(row.content));
  }
  assert.equal(summaryBody(merged), "## Goal\nmerged");
  assert.equal(summaryBody(`${summaryRowText("## Goal\nx")}\n\n${RESTATED}`), "## Goal\nx");
  assert.ok(summaryRowText("x").endsWith(SUMMARY_END_MARKER));
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

Deno.test("sizes follow each generation's settings", () => {
  const cases: [string, number, number][] = [
    ["threshold for 128K", HERMES_0_22.threshold(128_000), 96_000],
    ["threshold for 1M", HERMES_0_22.threshold(1_000_000), 256_000],
    ["0.19 threshold for 1M", HERMES_0_19.threshold(1_000_000), 500_000],
    ["threshold for 32K", HERMES_0_22.threshold(32_000), 27_200],
    // 0.22: 2.5% of the window, 10K-25K, at most 20% of it; ceiling 1.5x, at most 20%.
    ["0.22 tail for 64K", HERMES_0_22.tailBudget(64_000), 10_000],
    ["0.22 tail for 1M", HERMES_0_22.tailBudget(1_000_000), 25_000],
    ["0.22 ceiling for 64K", HERMES_0_22.softCeiling(10_000, 64_000), 12_800],
    // 0.19: 20% of its threshold (75% of the window, at least 64K, else 85% of a small one).
    ["0.19 tail for 64K", HERMES_0_19.tailBudget(64_000), 10_880],
    ["0.19 tail for 128K", HERMES_0_19.tailBudget(128_000), 19_200],
    ["0.19 ceiling for 64K", HERMES_0_19.softCeiling(10_880, 64_000), 16_320],
    // Text: 0.22 counts UTF-8 bytes rounded up, CJK one per character; 0.19 characters down.
    ["0.22 tokens of 'abcde'", HERMES_0_22.textTokens("abcde"), 2],
    ["0.22 tokens of 'é'", HERMES_0_22.textTokens("é"), 1],
    ["0.22 tokens of '漢字'", HERMES_0_22.textTokens("漢字"), 2],
    ["0.19 tokens of 'abcde'", HERMES_0_19.textTokens("abcde"), 1],
  ];
  for (const [what, actual, expected] of cases) assert.equal(actual, expected, what);
});

Deno.test("replayCompactions() cuts a long session several times", () => {
  const rows = generateWindow({ seed: 5, targetTokens: 120_000 });
  const found = replayCompactions(rows, SMALL);
  assert.ok(found.length >= 3, `${found.length} compactions`);
  const windowIds = found.flatMap((compaction) => compaction.window.map((row) => row._row_id));
  assert.equal(new Set(windowIds).size, windowIds.length, "no row is summarised twice");
});
