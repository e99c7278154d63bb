import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { SessionRecord } from "../../src/bench/replay/measure/session_record.ts";
import type { ChatMessage, ChatRequest } from "../../src/bench/replay/model/chat_request.ts";

function store(dir: string): DatabaseSync {
  const db = new DatabaseSync(join(dir, "state.db"));
  db.exec(`CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT,
    tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL, active INTEGER DEFAULT 1,
    compacted INTEGER DEFAULT 0, display_order INTEGER)`);
  return db;
}

function add(db: DatabaseSync, id: number, role: string, content: string): void {
  db.prepare(
    "INSERT INTO messages (id, session_id, role, content, timestamp) VALUES (?, 's', ?, ?, ?)",
  )
    .run(id, role, content, id);
}

const turn = (messages: ChatMessage[]): ChatRequest => ({ messages, tools: [] });
const user: ChatMessage = { role: "user", content: "fix it" };
const call: ChatMessage = { role: "assistant", content: "", tool_calls: [{ id: "call_000" }] };
const result: ChatMessage = { role: "tool", tool_call_id: "call_000", content: "ok" };

Deno.test("SessionRecord tells rewritten rows and prefix breaks from what compactions do", () => {
  const dir = Deno.makeTempDirSync();
  const db = store(dir);
  const record = new SessionRecord({
    root: dir,
    store: join(dir, "state.db"),
    log: join(dir, "none"),
  });
  add(db, 1, "user", "fix it");
  record.request("turn", turn([user]));
  add(db, 2, "assistant", "");
  add(db, 3, "tool", "ok");
  db.exec("UPDATE messages SET display_order = 7 WHERE id = 1"); // bookkeeping, not a message
  record.request("turn", turn([user, call, result]));
  db.exec("UPDATE messages SET content = 'fix it now' WHERE id = 1");
  record.request("turn", turn([user, result])); // drops a message: no compaction explains it
  record.request(
    "summary",
    turn([{ role: "user", content: "TURNS TO SUMMARIZE:\n[USER]: fix it" }]),
    "## x",
  );
  db.exec("UPDATE messages SET active = 0, compacted = 1 WHERE id IN (1, 2)");
  db.exec("UPDATE messages SET content = 'stub' WHERE id = 3");
  record.request("turn", turn([{ role: "user", content: "[CONTEXT COMPACTION — x]" }, result]));
  db.exec("UPDATE messages SET content = 'late' WHERE id = 3");
  record.finish();
  db.close();
  const main = record.main.map(({ compaction, prefixBreak, rewritten }) => ({
    compaction,
    prefixBreak,
    rewritten,
  }));
  assert.deepEqual(main, [
    { compaction: false, prefixBreak: false, rewritten: [] },
    { compaction: false, prefixBreak: false, rewritten: [] },
    { compaction: false, prefixBreak: true, rewritten: [{ id: 1, columns: ["content"] }] },
    { compaction: true, prefixBreak: false, rewritten: [] },
  ]);
  assert.deepEqual(record.finalRewritten, [{ id: 3, columns: ["content"] }]);
  assert.deepEqual(record.kinds, { turn: 4, subagent: 0, summary: 1, title: 0, other: 0 });
  assert.equal(record.summaries.length, 1);
  assert.ok(
    record.main[1]!.cachedTokens > 0 && record.main[1]!.cachedTokens < record.main[1]!.tokens,
  );
});
