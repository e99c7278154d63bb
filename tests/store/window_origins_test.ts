/**
 * A window matched to its stored originals, on stores laid out as Hermes 0.22 and 0.19 write them
 * (the shapes live runs showed: re-stored head rows with shared `message_uid`s and stub content,
 * 0.19 windows without row ids or times and with shortened call arguments). The expected originals
 * are the rows these tests insert.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { schemaStatements } from "../../src/store/fixture/schema.ts";
import { StateDb, StoredWindowReader, windowOrigins } from "../../src/store/mod.ts";

type Row = Record<string, string | number | null>;

function store(schema: "v31" | "v30", rows: readonly Row[]): string {
  const path = `${Deno.makeTempDirSync()}/state.db`;
  const db = new DatabaseSync(path);
  for (const statement of schemaStatements(schema)) db.exec(statement);
  db.prepare("INSERT INTO sessions (id, started_at) VALUES ('s', 1000)").run();
  for (const row of rows) {
    const columns = Object.keys(row);
    db.prepare(
      `INSERT INTO messages (session_id, ${columns.join(", ")}) VALUES ('s', ${
        columns.map(() => "?").join(", ")
      })`,
    ).run(...Object.values(row));
  }
  db.close();
  return path;
}

const call = (id: string, command: string) =>
  JSON.stringify([{
    id,
    type: "function",
    function: { name: "terminal", arguments: JSON.stringify({ command }) },
  }]);
const FAILED = JSON.stringify({
  output: "E   AssertionError: assert 1 == 2\n1 failed",
  exit_code: 1,
});
const STUB = "[terminal] ran `pytest -q` -> exit 1, 1 lines output";

function originsOf(path: string, window: unknown[]) {
  using db = StateDb.open(path);
  return db.read(() => windowOrigins(db, "s", window));
}

Deno.test("windowOrigins() gives Hermes 0.22's re-stored head its original rows, times and output", () => {
  const path = store("v31", [
    { id: 2, role: "user", content: "Make the tests pass.", timestamp: 1000, message_uid: "u1" },
    {
      id: 3,
      role: "assistant",
      content: "",
      tool_calls: call("call_000", "pytest -q"),
      timestamp: 1001,
      message_uid: "u2",
    },
    {
      id: 4,
      role: "tool",
      content: FAILED,
      tool_call_id: "call_000",
      tool_name: "terminal",
      timestamp: 1002,
      message_uid: "u3",
    },
    // Stored again after the first compaction: same uids and times, the result pruned.
    { id: 25, role: "user", content: "Make the tests pass.", timestamp: 1000, message_uid: "u1" },
    {
      id: 26,
      role: "assistant",
      content: "",
      tool_calls: call("call_000", "pytest -q"),
      timestamp: 1001,
      message_uid: "u2",
    },
    {
      id: 27,
      role: "tool",
      content: STUB,
      tool_call_id: "call_000",
      tool_name: "terminal",
      timestamp: 1002,
      message_uid: "u3",
    },
  ]);
  const window = [
    {
      role: "user",
      content: "Make the tests pass.",
      _row_id: 25,
      message_uid: "u1",
      timestamp: 1000,
    },
    {
      role: "assistant",
      content: "",
      tool_calls: JSON.parse(call("call_000", "pytest -q")),
      _row_id: 26,
      message_uid: "u2",
    },
    { role: "tool", content: STUB, tool_call_id: "call_000", _row_id: 27, message_uid: "u3" },
  ];
  const { messages, matched } = originsOf(path, window);
  assert.equal(matched, 3);
  assert.deepEqual(messages.map((m) => (m as Row)._row_id), [2, 3, 4]);
  assert.equal((messages[2] as Row).content, FAILED, "the pruned result reads as its output");
  assert.equal((messages[2] as Row).timestamp, 1002);
  assert.equal(window[2]!._row_id, 27, "the caller's window is not changed");
});

Deno.test("windowOrigins() finds Hermes 0.19's rows without row ids, and restores shortened calls", () => {
  const long = `python -c "${"x = 1; ".repeat(120)}print(x)"`;
  const path = store("v30", [
    { id: 7, role: "user", content: "Fix the parser.", timestamp: 2000 },
    {
      id: 8,
      role: "assistant",
      content: "Running it.",
      tool_calls: call("call_9", long),
      timestamp: 2001,
    },
    {
      id: 9,
      role: "tool",
      content: FAILED,
      tool_call_id: "call_9",
      tool_name: "terminal",
      timestamp: 2002,
    },
  ]);
  const shortened = JSON.parse(
    call("call_9", `${long.slice(0, 200)}⟪HERMES-CONTEXT-COMPRESSION: 700 of 900 chars omitted⟫`),
  );
  const window = [
    { role: "user", content: "Fix the parser." },
    { role: "assistant", content: "Running it.", tool_calls: shortened },
    { role: "tool", content: STUB, tool_call_id: "call_9" },
    { role: "user", content: "A message not saved yet." },
  ];
  const { messages, matched } = originsOf(path, window);
  assert.equal(matched, 3);
  assert.deepEqual(messages.map((m) => (m as Row)._row_id), [7, 8, 9, undefined]);
  const args =
    (messages[1] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]!.function
      .arguments;
  assert.equal(JSON.parse(args).command, long);
  assert.deepEqual(messages.map((m) => (m as Row).timestamp), [2000, 2001, 2002, undefined]);
});

Deno.test("windowOrigins() matches no row where a call id was reused or the output differs", () => {
  const path = store("v30", [
    { id: 1, role: "assistant", content: "", tool_calls: call("call_0", "ls"), timestamp: 1 },
    {
      id: 2,
      role: "tool",
      content: JSON.stringify({ output: "a", exit_code: 0 }),
      tool_call_id: "call_0",
      timestamp: 2,
    },
    // A model that numbers its calls from 0 every turn: the same id for another call.
    {
      id: 3,
      role: "assistant",
      content: "",
      tool_calls: call("call_0", "rm -rf build"),
      timestamp: 3,
    },
    {
      id: 4,
      role: "tool",
      content: JSON.stringify({ output: "", exit_code: 1 }),
      tool_call_id: "call_0",
      timestamp: 4,
    },
    { id: 5, role: "assistant", content: "", tool_calls: call("call_5", "cat x"), timestamp: 5 },
    {
      id: 6,
      role: "tool",
      content: JSON.stringify({ output: "x", exit_code: 0 }),
      tool_call_id: "call_5",
      timestamp: 6,
    },
  ]);
  const window = [
    { role: "tool", content: STUB, tool_call_id: "call_0" },
    {
      role: "tool",
      content: JSON.stringify({ output: "different", exit_code: 0 }),
      tool_call_id: "call_5",
    },
  ];
  const { messages, matched } = originsOf(path, window);
  assert.equal(matched, 0);
  assert.deepEqual(messages, window);
});

Deno.test("StoredWindowReader finds the newest stored summary, standalone or merged into a tail row", () => {
  const prefix = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted.";
  const end =
    "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";
  const path = store("v30", [
    {
      role: "user",
      content: `${prefix}\n## Goal\nold\n\n${end}`,
      timestamp: 1,
      _compressed_summary: 1,
    },
    {
      role: "assistant",
      content: `[PRIOR CONTEXT — for reference only; not a new message]\nearlier reply\n\n` +
        `[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n\n${prefix}\n## Goal\nnewest\n\n${end}`,
      timestamp: 2,
    },
    { role: "user", content: "Thanks.", timestamp: 3 },
  ]);
  assert.equal(new StoredWindowReader().read([], path, "s").latestSummary, "## Goal\nnewest");
});

Deno.test("StoredWindowReader passes over a copy of an older summary Hermes 0.19 stored again", () => {
  const summary = (goal: string) =>
    "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted.\n## Goal\n" + goal;
  const path = store("v30", [
    { id: 27, role: "user", content: summary("first"), timestamp: 1 },
    { id: 41, role: "assistant", content: summary("second"), timestamp: 2 },
    { id: 42, role: "user", content: summary("first"), timestamp: 3 },
    { id: 43, role: "user", content: "Go on.", timestamp: 4 },
  ]);
  assert.equal(new StoredWindowReader().read([], path, "s").latestSummary, "## Goal\nsecond");
});

Deno.test("StoredWindowReader leaves the window as given when the store cannot be read", () => {
  const window = [{ role: "user", content: "hi" }];
  const read = new StoredWindowReader().read(window, "/nonexistent/state.db", "s");
  assert.deepEqual([read.messages, read.matched], [window, 0]);
  assert.match(read.problem ?? "", /no state database at \/nonexistent\/state\.db/);
});

Deno.test("windowOrigins() keeps a message repeated in earnest on its own row, not the earlier one", () => {
  const path = store("v31", [
    { id: 2, role: "user", content: "continue", timestamp: 1000 },
    { id: 3, role: "assistant", content: "Done.", timestamp: 1001 },
    { id: 9, role: "user", content: "continue", timestamp: 1500 },
    { id: 10, role: "assistant", content: "Done.", timestamp: 1501 },
  ]);
  const withIds = originsOf(path, [
    { role: "user", content: "continue", _row_id: 9 },
    { role: "assistant", content: "Done.", _row_id: 10 },
  ]);
  assert.deepEqual(withIds.messages.map((m) => (m as Row)._row_id), [9, 10]);
  const withoutIds = originsOf(path, [
    { role: "assistant", content: "Done." },
    { role: "user", content: "continue" },
    { role: "assistant", content: "Done." },
    { role: "user", content: "continue" },
  ]);
  assert.deepEqual(
    withoutIds.messages.map((m) => (m as Row)._row_id),
    [3, 9, 10, undefined],
    "in window order; the last one was never saved",
  );
});

Deno.test("StoredWindowReader reads rows stored since its last read, and a rewound store again", () => {
  const path = store("v31", [{ id: 2, role: "user", content: "Fix it.", timestamp: 1000 }]);
  const reader = new StoredWindowReader();
  const ids = (window: unknown[]) =>
    reader.read(window, path, "s").messages.map((m) => (m as Row)._row_id);
  assert.deepEqual(ids([{ role: "user", content: "Fix it." }]), [2]);
  const db = new DatabaseSync(path);
  db.prepare(
    "INSERT INTO messages (session_id, id, role, content, tool_call_id, tool_name, timestamp) " +
      "VALUES ('s', 3, 'tool', ?, 'call_1', 'terminal', 1001)",
  ).run(FAILED);
  assert.deepEqual(
    ids([{ role: "user", content: "Fix it." }, {
      role: "tool",
      content: STUB,
      tool_call_id: "call_1",
    }]),
    [2, 3],
    "the row stored after the first read is found",
  );
  db.exec("DELETE FROM messages WHERE id >= 2");
  db.prepare(
    "INSERT INTO messages (session_id, id, role, content, timestamp) VALUES ('s', 2, 'user', 'Other.', 5)",
  ).run();
  db.close();
  assert.deepEqual(
    ids([{ role: "user", content: "Fix it." }, { role: "user", content: "Other." }]),
    [
      undefined,
      2,
    ],
    "rows read before the store was rewound are forgotten",
  );
});

Deno.test("windowOrigins() matches a stub whose command spans lines, and 0.19's re-stamped copies", () => {
  const command = 'python3 -c "import hashlib\nfor i in range(480): print(i)"';
  const stub = `[terminal] ran \`${command.slice(0, 77)}...\` -> exit 0, 480 lines output`;
  const output = JSON.stringify({ output: "0\n1\n2", exit_code: 0 });
  const path = store("v30", [
    { id: 5, role: "assistant", content: "", tool_calls: call("call_h", command), timestamp: 10 },
    { id: 6, role: "tool", content: output, tool_call_id: "call_h", timestamp: 11 },
    // 0.19 stores the kept rows again after a compaction, stamped with a new time.
    { id: 40, role: "assistant", content: "", tool_calls: call("call_h", command), timestamp: 90 },
    { id: 41, role: "tool", content: stub, tool_call_id: "call_h", timestamp: 91 },
  ]);
  const window = [
    {
      role: "assistant",
      content: "",
      tool_calls: JSON.parse(call("call_h", command)),
      timestamp: 90,
    },
    { role: "tool", content: stub, tool_call_id: "call_h", timestamp: 91 },
  ];
  const { messages, matched } = originsOf(path, window);
  assert.equal(matched, 2);
  assert.deepEqual(
    messages.map((m) => (m as Row)._row_id),
    [5, 6],
    "the first rows that stored them",
  );
  assert.equal((messages[1] as Row).content, output, "the stub reads as the stored output");
});

Deno.test("windowOrigins() puts the stored call before a result whose call the window lacks", () => {
  const output = JSON.stringify({ output: "E   KeyError: 'sku'", exit_code: 1 });
  const path = store("v30", [
    {
      id: 3,
      role: "assistant",
      content: "Checking.",
      tool_calls: call("call_k", "pytest -q"),
      timestamp: 5,
    },
    { id: 4, role: "tool", content: output, tool_call_id: "call_k", timestamp: 6 },
  ]);
  const window = [{ role: "tool", content: STUB, tool_call_id: "call_k" }];
  const origins = originsOf(path, window);
  assert.deepEqual(origins.messages.map((m) => (m as Row)._row_id), [4], "one for one");
  assert.deepEqual(origins.window.map((m) => (m as Row)._row_id), [3, 4]);
  const stored = origins.window[0] as { role: string; tool_calls: { id: string }[] };
  assert.deepEqual([stored.role, stored.tool_calls.map((c) => c.id)], ["assistant", ["call_k"]]);
});

Deno.test("the newest stored summary is found in 0.19's merged row, whose assistant made calls", () => {
  const summary = (body: string) =>
    "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted.\n" + body +
    "\n\n--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";
  const merged =
    "[PRIOR CONTEXT — for reference only; not a new message]\nReading the module.\n\n" +
    "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n\n" +
    summary(
      "## Commands Run\n- [#3] `make a` — succeeded (exit 0) [#4]\n- [#5] `make b` — succeeded (exit 0) [#6]",
    );
  const path = store("v30", [
    {
      id: 10,
      role: "user",
      content: summary("## Commands Run\n- [#3] `make a` — succeeded (exit 0) [#4]"),
      timestamp: 50,
    },
    {
      id: 20,
      role: "assistant",
      content: merged,
      tool_calls: call("call_m", "make c"),
      timestamp: 60,
    },
  ]);
  const read = new StoredWindowReader().read([{ role: "user", content: "next" }], path, "s");
  assert.match(read.latestSummary ?? "", /make b/, "the merged summary is the newest");
});

Deno.test("windowOrigins() cites a restated request as the row that made it", async (t) => {
  // Hermes 0.22's words when it restates an unfinished request after a compaction boundary.
  const restated =
    "[STILL IN PROGRESS — this is the active request, restated after the compaction " +
    "boundary because it was not finished yet. Continue it; do not start over.]\nRun the report.";
  const request: Row = {
    id: 2,
    role: "user",
    content: "Run the report.",
    timestamp: 1000,
    message_uid: "u1",
  };
  // The same words asked again later, in earnest: a different request.
  const again: Row = { ...request, id: 9, timestamp: 1009, message_uid: "u9" };
  const survivor: Row = {
    id: 30,
    role: "user",
    content: restated,
    timestamp: 1030,
    message_uid: "u30",
  };
  const message = { role: "user", content: restated, message_uid: "u30", timestamp: 1030 };
  const cases: ReadonlyArray<readonly [string, Row[], Record<string, unknown>, number]> = [
    ["the restatement stored, naming the row it absorbed", [request, again, survivor], {
      ...message,
      _absorbed_message_uids: ["u9"],
    }, 9],
    ["the restatement stored, naming the first request", [request, again, survivor], {
      ...message,
      _absorbed_message_uids: ["u1"],
    }, 2],
    ["the restatement not stored", [request], { ...message, _absorbed_message_uids: ["u1"] }, 2],
    ["no absorbed uid: the first row with its words", [request, survivor], message, 2],
  ];
  for (const [name, rows, window, expected] of cases) {
    await t.step(name, () => {
      const { messages, matched } = originsOf(store("v31", rows), [window]);
      assert.equal(matched, 1);
      assert.equal((messages[0] as Row)._row_id, expected);
    });
  }
});

Deno.test("windowOrigins() matches every shape of Hermes's pruning lines to the result it replaced", async (t) => {
  // Lines Hermes's releases write for pruned results, of tools vcc reads no stub of too.
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    [
      "todo",
      JSON.stringify({ todos: [{ id: "1", content: "read", status: "done" }] }),
      "[todo] updated task list",
    ],
    ["memory", JSON.stringify({ success: true, entries: 3 }), "[memory] add on user"],
    [
      "terminal",
      JSON.stringify({ status: "blocked", error: "BLOCKED: force push refused" }),
      "[terminal] `git push --force origin feature_6` BLOCKED, not run",
    ],
    [
      "write_file",
      JSON.stringify({ success: false, error: "stale write: file changed since read" }),
      "[write_file] notes/a.md FAILED: stale write: file changed since read",
    ],
    [
      "text_to_speech",
      JSON.stringify({ audio: "a.mp3" }),
      "[text_to_speech] generated audio (22 chars)",
    ],
  ];
  for (const [tool, output, line] of cases) {
    await t.step(line, () => {
      const path = store("v31", [
        { id: 3, role: "assistant", content: "", tool_calls: call("call_7", "x"), timestamp: 5 },
        {
          id: 4,
          role: "tool",
          content: output,
          tool_call_id: "call_7",
          tool_name: tool,
          timestamp: 6,
        },
        // Stored again after a compaction, pruned.
        {
          id: 30,
          role: "tool",
          content: line,
          tool_call_id: "call_7",
          tool_name: tool,
          timestamp: 6,
        },
      ]);
      const window = [{ role: "tool", content: line, tool_call_id: "call_7", tool_name: tool }];
      const { messages, matched } = originsOf(path, window);
      assert.equal(matched, 1);
      assert.equal((messages[0] as Row)._row_id, 4);
      assert.equal((messages[0] as Row).content, output);
    });
  }
});

Deno.test("windowOrigins() keeps a result whose window text is neither its stored text nor a stub", () => {
  const path = store("v31", [
    { id: 4, role: "tool", content: "first output", tool_call_id: "call_7", timestamp: 6 },
  ]);
  // A model that reuses call ids: another result under the same id, several lines long.
  const window = [{ role: "tool", content: "[x] other\noutput", tool_call_id: "call_7" }];
  const { messages, matched } = originsOf(path, window);
  assert.equal(matched, 0);
  assert.equal((messages[0] as Row)._row_id, undefined);
});
