/**
 * What Goal and the task snapshot take for the user's requests, in the shapes live Hermes hands
 * over (live-hermes.md): the request restated after a compaction, a window without any turn of
 * the user's. The expected lines are written by hand.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";

const RESTATED = "[STILL IN PROGRESS — this is the active request, restated after the compaction " +
  "boundary because it was not finished yet. Continue it; do not start over.]\n" +
  "The test suite of this project fails. Fix the bug in tally/stats.py.";

Deno.test("the request Hermes restates after a compaction reaches Goal and the snapshot", () => {
  const { body } = project([{ role: "user", content: RESTATED, _row_id: 30 }], {
    sessionId: "s",
    budgetTokens: 2000,
  });
  assert.match(
    body,
    /^## Goal\n\[#30\] The test suite of this project fails\. Fix the bug in tally\/stats\.py\.$/m,
  );
  assert.match(body, /^## Historical Task Snapshot\n\[#30\] The test suite/m);
  assert.doesNotMatch(body, /STILL IN PROGRESS/);
});

Deno.test("a request and its restatement in one window are one request", () => {
  const window = [
    {
      role: "user",
      content: "The test suite of this project fails. Fix the bug in tally/stats.py.",
      _row_id: 1,
    },
    { role: "user", content: RESTATED, _row_id: 30 },
  ];
  const { body } = project(window, { sessionId: "s", budgetTokens: 2000 });
  assert.equal(
    body.match(/^\[#\d+\] The test suite/gm)?.length,
    2,
    "once in Goal, once in the snapshot",
  );
});

Deno.test("turns without one of the user's say so in the words Hermes's provenance check wants", () => {
  const window = [
    { role: "user", content: "[System: The background process proc_1 finished.]", _row_id: 4 },
    { role: "assistant", content: "Continuing the nightly job.", _row_id: 5 },
  ];
  const { body } = project(window, { sessionId: "s", budgetTokens: 2000 });
  assert.match(
    body,
    /^## Historical Task Snapshot\nNone\. This session contains no user-authored turns\.$/m,
  );
  assert.doesNotMatch(body, /User asked/i);
  const later = project(window, {
    sessionId: "s",
    budgetTokens: 2000,
    previous: project([{ role: "user", content: "Run the nightly job.", _row_id: 1 }], {}).body,
  }).body;
  assert.match(
    later,
    /^## Historical Task Snapshot\n\[#1\] Run the nightly job\.$/m,
    "an earlier request stays",
  );
});

// Notes Hermes writes to user rows, as 0.22 words them (tools/todo_tool.py, agent/context_compressor.py,
// agent/conversation_loop.py, the gateway's delegation notice).
const HERMES_NOTES = [
  "[Your active task list was preserved across context compression]\n- [ ] 1. rerun the suite\n" +
  "- [x] 2. patch stats.py",
  "[IMPORTANT: Background process proc_4f2 completed (exit 0). Output: built 14 targets]",
  "[System: Your previous tool call was cut off because the reply ran too long; the dropped " +
  "tool calls were not run.]",
  "[ASYNC DELEGATION RESULT] task t-9 finished: 3 files patched",
];

Deno.test("the log quotes notes Hermes wrote to user rows as Hermes's, the user's turns as the user's", () => {
  for (let shift = 0; shift < HERMES_NOTES.length; shift++) {
    const notes = [...HERMES_NOTES.slice(shift), ...HERMES_NOTES.slice(0, shift)];
    const window = notes.flatMap((note, i) => [
      {
        role: "user",
        content: `Request ${i}: rebuild target ${i * 7} and report it.`,
        _row_id: 10 * i + 1,
      },
      { role: "user", content: note, _row_id: 10 * i + 2 },
    ]);
    const { body } = project(window, { sessionId: "s", budgetTokens: 8000 });
    const log = body.slice(body.indexOf("## Detailed Session Log"));
    notes.forEach((_, i) => {
      const request = new RegExp(`^\\[#${10 * i + 1}\\] user: Request ${i}:`, "m");
      // The latest request is quoted whole in the snapshot, and not again in the log.
      if (i < notes.length - 1) assert.match(log, request, log);
      else {
        assert.doesNotMatch(log, request, log);
        assert.match(
          body,
          new RegExp(`^## Historical Task Snapshot\\n\\[#${10 * i + 1}\\] Request`, "m"),
        );
      }
      assert.match(log, new RegExp(`^\\[#${10 * i + 2}\\] hermes: `, "m"), log);
    });
    assert.doesNotMatch(log, /^\[#\d*2\] user:/m, log);
  }
});

// Replies a user gives to a question or an approval prompt, written here by hand: a few of them in
// a row, in any case, make no request; followed by a task, they do.
const REPLIES = [
  "ok",
  "Okay",
  "yes",
  "y",
  "yep",
  "sure",
  "thanks",
  "thank you",
  "please",
  "go ahead",
  "go on",
  "continue",
  "proceed",
  "do it",
  "approve it",
  "approved",
  "confirm",
  "allow it",
  "lgtm",
  "sounds good",
];
const SEPARATORS = [" ", ", ", ". ", "! ", "... "];
const TASKS = [
  "rerun the failing test",
  "then deploy it to staging",
  "but keep max_retries at 7",
  "and open the PR against release/2.14",
];

Deno.test("replies that assent or approve are no requests; with a task after them they are", () => {
  const random = new SeededRandom(16);
  const pick = <T>(items: readonly T[]) => items[random.int(items.length)] as T;
  for (let trial = 0; trial < 200; trial++) {
    const words = Array.from({ length: random.range(1, 3) }, () => pick(REPLIES));
    let reply = words.map((word, i) => i === 0 ? word : pick(SEPARATORS) + word).join("");
    if (random.chance(0.5)) reply = reply.toUpperCase();
    reply += pick(["", ".", "!", " "]);
    const task = `${pick(SEPARATORS)}${pick(TASKS)}`;
    for (const [text, isRequest] of [[reply, false], [reply + task, true]] as const) {
      const window = [
        { role: "user", content: "Fix the bug in tally/stats.py.", _row_id: 1 },
        { role: "assistant", content: "The fix is ready. Shall I run the suite?", _row_id: 2 },
        { role: "user", content: text, _row_id: 3 },
      ];
      const { body } = project(window, { sessionId: "s", budgetTokens: 2000 });
      const goal = body.split("## Goal\n")[1]!.split("\n\n")[0]!;
      assert.equal(goal.includes("[#3]"), isRequest, `${JSON.stringify(text)} in Goal:\n${goal}`);
    }
  }
});

Deno.test("words asked again are one request in Goal, cited where first asked", () => {
  const random = new SeededRandom(61);
  const pool = [
    "Run the tests and fix what fails.",
    "Keep the public API unchanged.",
    "Open a PR against release/2.14 when it passes.",
    "Why does test_mean fail on empty input?",
  ];
  for (let trial = 0; trial < 50; trial++) {
    const asked = Array.from({ length: random.range(2, 8) }, () => random.pick(pool));
    const window = asked.flatMap((content, index) => [
      { role: "user", content, _row_id: 2 * index + 1 },
      { role: "assistant", content: "On it.", _row_id: 2 * index + 2 },
    ]);
    const expected = [...new Set(asked)].map((text) => `[#${2 * asked.indexOf(text) + 1}] ${text}`);
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const goal = body.split("## Goal\n")[1]!.split("\n\n")[0]!.split("\n");
    assert.deepEqual(goal, expected, JSON.stringify(asked));
  }
});

Deno.test("the snapshot shows a long latest request's start and its end, where its last step is said", () => {
  const random = new SeededRandom(37);
  const filler = "Keep the staging data as it is and tell me before touching the schema. ";
  for (let trial = 0; trial < 30; trial++) {
    const start = `Change of plan ${random.hex(6)}:`;
    const end = `Then stop and tell me the hash of ${random.hex(8)}.`;
    const request = `${start} ${filler.repeat(random.range(5, 16))}${end}`;
    const rows = [
      { role: "user", _row_id: 1, content: "Fix the nightly build." },
      { role: "assistant", _row_id: 2, content: "Fixed: the build is green again." },
      { role: "user", _row_id: 3, content: request },
    ];
    for (const budgetTokens of [1_500, 4_000]) {
      const body = project(rows, { budgetTokens }).body;
      const snapshot = /## Historical Task Snapshot\n(.*)/.exec(body)?.[1] ?? "";
      assert.ok(snapshot.startsWith(`[#3] ${start}`), snapshot);
      assert.ok(snapshot.endsWith(end), `${budgetTokens}: ${snapshot}`);
    }
  }
});
