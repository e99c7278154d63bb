/** The faithfulness proofs: what a line may say, the negative control, and the commands. */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import {
  checkLines,
  INVENTED_WORD,
  lineCheckable,
  lineHolds,
  plantAndCheck,
  proveWindow,
  totalProofs,
  windowLookup,
} from "../../src/bench/proofs/mod.ts";
import { buildWindows, GOLDEN_SPECS } from "../../src/bench/window_spec.ts";
import { runVcc, runVccOnStore, runVccWithoutStore, tempStore } from "../support/vcc_harness.ts";

const ROWS = [
  { role: "user", content: "Fix the parser in app/parser.py", _row_id: 7 },
  {
    role: "assistant",
    content: "Running the suite.",
    tool_calls: [{
      id: "c1",
      type: "function",
      function: { name: "terminal", arguments: '{"command":"pytest -q\\ntests/"}' },
    }],
    _row_id: 8,
  },
  {
    role: "tool",
    tool_call_id: "c1",
    tool_name: "terminal",
    content: '{"output":"\\u001b[31mE   ImportError: cannot import\\u001b[0m","exit_code":1}',
    _row_id: 9,
  },
  { role: "assistant", content: "Unsaved remark" },
];

Deno.test("checkLines() holds lines that quote their cited rows and flags the rest", () => {
  const cases: [string, boolean][] = [
    ["[#7] user: Fix the parser in app/parser.py", true],
    ["[#8] → terminal: `pytest -q tests/`", true],
    ["[#9] ← terminal exit 1: E ImportError: cannot import", true],
    ["- [#8] `pytest -q tests/` — failed (exit 1) ×2 [#9], then … 3 more", true],
    ["- ImportError (first at [#9])", true],
    ["[#9] ← terminal exit 1: E ImportErr…", true],
    ["[#9] ← terminal exit 1: E Importx…", false],
    ["[t4] assistant: Unsaved remark", true],
    ["[#7] user: Fix the lexer", false],
    ["[#8] → terminal: `pytest -x`", false],
    ["[#42] user: Fix the parser", false],
    ["[t9] assistant: Unsaved remark", false],
  ];
  const lookup = windowLookup(ROWS);
  for (const [line, holds] of cases) {
    const [verdict] = checkLines(`## Detailed Session Log (oldest first)\n${line}`, lookup);
    assert.equal(verdict && lineHolds(verdict), holds, line);
  }
  assert.deepEqual(checkLines("## Goal\n(no references here)", lookup), []);
});

Deno.test("checkLines() reads Hermes's snapshot words as labels and its quote as a quote", () => {
  const lookup = windowLookup(ROWS);
  const snapshot = (line: string) =>
    checkLines(`## Historical Task Snapshot\n${line}`, lookup).map(lineHolds);
  const grounded = "[#7] User asked (deterministic, from compacted turns):";
  assert.deepEqual(snapshot(`${grounded} 'Fix the parser in app/parser.py'`), [true]);
  assert.deepEqual(snapshot(`${grounded} 'Fix the par ...[truncated]'`), [true], "0.19's cut");
  assert.deepEqual(
    snapshot(`${grounded} 'Fix the pars⟪HERMES-CONTEXT-COMPRESSION: 9 of 30 chars omitted.⟫'`),
    [true],
    "0.22's cut",
  );
  assert.deepEqual(snapshot(`${grounded} 'Fix the lexer'`), [false], "the quote is still checked");
  assert.deepEqual(
    snapshot("[#7] User asked the lexer"),
    [false],
    "only Hermes's phrase is a label",
  );
});

Deno.test("checkLines() does not check lines that cite no stored row, and says so", () => {
  // Every row has an id, as in a stored session: a window position names none of them. (In a
  // window with unsaved rows, an unknown position is an unresolved reference: see above.)
  const stored = windowLookup(ROWS.slice(0, 3));
  const lines = [
    "## Commands Run",
    "- [t2] `pytest -q tests/` — failed (exit 1) [t3]",
    "- [unsaved] `pytest -x` — failed (exit 1) [unsaved]",
    "- [#8] `pytest -q tests/` — failed (exit 1) [unsaved]",
    "- [#8] `pytest -q tests/` — failed (exit 1) [#9]",
    "- [#42] `pytest -q tests/` — failed (exit 1) [#9]",
  ].join("\n");
  const verdicts = checkLines(lines, stored);
  assert.deepEqual(verdicts.map(lineCheckable), [false, false, false, true, true]);
  assert.deepEqual(verdicts.map(lineHolds), [true, true, true, true, false], "#42 names no row");
  const header = "(vcc projection: [#N] quotes message N; [tN] and [unsaved] were never saved.)";
  assert.deepEqual(checkLines(`${header}\n## Goal\n[#7] Fix the parser`, stored).length, 1);
});

Deno.test("plantAndCheck() catches an invented word in every kind of line", () => {
  const proofs = buildWindows(GOLDEN_SPECS).map(proveWindow);
  const totals = totalProofs(proofs);
  assert.deepEqual(totals.kindsNeverSeen, []);
  assert.equal(totals.caught, totals.planted);
  assert.ok(Object.keys(totals.plantedByKind).length >= 11);
  const body = "## Goal\n[#7] Fix the parser";
  assert.deepEqual(plantAndCheck(body, windowLookup(ROWS)), [{
    kind: "requests",
    index: 1,
    caught: true,
  }]);
  assert.ok(!JSON.stringify(ROWS).includes(INVENTED_WORD));
});

Deno.test("every line of the golden windows quotes the rows it cites", () => {
  const totals = totalProofs(buildWindows(GOLDEN_SPECS).map(proveWindow));
  assert.equal(totals.linesHeld, totals.lines, JSON.stringify(totals.failed.slice(0, 5)));
  assert.equal(totals.refsResolved, totals.refs);
});

const CORPUS = "../shared/corpus/swe-agent";

Deno.test({
  name: `every line quotes its rows on real agent traces (ignored when ${CORPUS} is absent)`,
  ignore: !existsSync(CORPUS),
  fn: async () => {
    const windows = [];
    for (const entry of Deno.readDirSync(CORPUS)) {
      if (!entry.name.endsWith(".json")) continue;
      const text = await Deno.readTextFile(`${CORPUS}/${entry.name}`);
      const { session_id: sessionId, messages } = JSON.parse(text);
      for (const budgetTokens of [1500, 8000]) {
        windows.push({
          id: `${entry.name}@${budgetTokens}`,
          rows: messages,
          options: { sessionId, budgetTokens },
        });
      }
    }
    const totals = totalProofs(windows.map(proveWindow));
    assert.ok(totals.lines > 0);
    assert.equal(totals.linesHeld, totals.lines, JSON.stringify(totals.failed.slice(0, 5)));
    assert.equal(totals.caught, totals.planted);
  },
});

Deno.test("vcc bench proofs --synthetic passes and prints counts only", async () => {
  const cache = Deno.makeTempDirSync();
  const run = await runVcc(["bench", "proofs", "--synthetic"], cache);
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.stdout, /negative control, planted words caught: (\d+)\/\1 /);
  assert.match(run.stdout, /^PASS; report: /m, "every line of a generated window is checkable");
  assert.doesNotMatch(run.stdout, /pytest|\/home\/dev|please/, "no transcript text on the console");
  assert.match(run.stderr, /^proofs: \d+\/\d+$/m);
  const report = `${cache}/vcc/proofs/synthetic.json`;
  assert.equal(Deno.statSync(report).mode! & 0o777, 0o600);
  assert.equal(JSON.parse(Deno.readTextFileSync(report)).holds, true);
});

Deno.test("vcc bench proofs --db checks windows and stored summaries, resolving every [#N]", async () => {
  const store = tempStore();
  const cache = Deno.makeTempDirSync();
  const args = ["bench", "proofs", "--db", store.path, "--context-tokens", "32000", "--json"];
  const run = await runVccOnStore(store.path, args, cache);
  assert.equal(run.code, 0, run.stdout);
  const summary = JSON.parse(run.stdout);
  assert.equal(summary.holds, true);
  assert.ok(summary.windows.windows >= 2);
  const stored = summary.storedSummaries;
  assert.ok(stored.windows >= 3, "two in-place summaries and one handoff after rotation");
  assert.ok(stored.refs > 0);
  assert.equal(stored.refsResolved, stored.refs);
  assert.equal(stored.caught, stored.planted);
});

Deno.test("vcc bench proofs without a source or a default store says where it looked", async () => {
  const run = await runVccWithoutStore(["bench", "proofs"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /no state database at \S+state\.db \(the default store\)/);
  assert.match(run.stderr, /choose one of --synthetic or --db PATH/);
});
