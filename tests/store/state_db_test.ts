/** Reading Hermes's store: schema versions, snapshots under a concurrent writer, bad files. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  listSessions,
  readMessages,
  scrollAround,
  StateDb,
  StoreError,
  storeStats,
  toWindowRow,
} from "../../src/store/mod.ts";
import { fileSha256, tempStore } from "../support/vcc_harness.ts";

for (const schema of ["v31", "v30", "v22", "minimal"] as const) {
  Deno.test(`listSessions() reads a ${schema} store and reports what was written`, async () => {
    const store = tempStore({ schema });
    const before = await fileSha256(store.path);
    using db = StateDb.open(store.path);
    const sessions = db.read(() => listSessions(db));
    assert.deepEqual(sessions.map((s) => s.id), store.sessions.map((s) => s.id));
    for (const written of store.sessions) {
      const read = sessions.find((session) => session.id === written.id)!;
      assert.equal(read.rows, written.rows, written.kind);
      assert.equal(read.compactedRows, schema === "minimal" ? 0 : written.compactedRows);
    }
    const compacted = sessions[0]!;
    assert.ok(compacted.compactions >= 2, "the long session was compacted in place");
    db.close();
    assert.equal(await fileSha256(store.path), before);
  });
}

Deno.test("storeStats() counts compacted rows and rotations, and holds by the time", () => {
  const store = tempStore();
  using db = StateDb.open(store.path);
  const sessions = db.read(() => listSessions(db));
  const cooldown = store.sessions.find((session) => session.kind === "cooldown")!;
  const stats = storeStats(sessions, 0);
  assert.equal(stats.rows, store.sessions.reduce((sum, s) => sum + s.rows, 0));
  assert.equal(stats.compactedRows, store.sessions[0]!.compactedRows);
  assert.equal(stats.rotatedSessions, 1);
  // The cron session's cooldown holds compaction back before it ends, not after.
  assert.deepEqual(stats.held.map((held) => held.sessionId), [cooldown.id]);
  assert.match(stats.held[0]!.holds[0]!.why, /the summary step failed: .*timeout/);
  const later = storeStats(sessions, Number.MAX_SAFE_INTEGER);
  assert.deepEqual(later.held, []);
  assert.deepEqual(later.noted.map((noted) => noted.sessionId), [cooldown.id]);
});

Deno.test("StateDb.read() sees one snapshot while another connection writes", () => {
  const store = tempStore();
  using db = StateDb.open(store.path);
  const writer = new DatabaseSync(store.path);
  const count = () => Number(db.get("SELECT COUNT(*) AS n FROM messages")!.n);
  const [first, second] = db.read(() => {
    const first = count();
    writer.exec(
      "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('x', 'user', 'hi', 1)",
    );
    return [first, count()];
  });
  assert.equal(second, first, "the snapshot does not move inside one read");
  assert.equal(db.read(count), first + 1, "the next read sees the commit");
  writer.close();
});

Deno.test("readMessages() keeps text with NUL characters and decodes calls and parts", () => {
  const store = tempStore();
  using db = StateDb.open(store.path);
  const rows = db.read(() =>
    store.sessions.flatMap((session) => readMessages(db, session.id).map(toWindowRow))
  );
  assert.ok(rows.some((row) => String(row.content).includes("\u0000")), "NUL survives");
  assert.ok(rows.some((row) => Array.isArray(row.tool_calls)), "tool_calls decoded");
  assert.ok(rows.some((row) => Array.isArray(row.content)), "content parts decoded");
  assert.ok(
    rows.some((row) => (row.content as { _multimodal?: unknown })?._multimodal === true),
    "multimodal dict decoded",
  );
  assert.ok(rows.every((row) => Number.isInteger(row._row_id)));
});

Deno.test("scrollAround() shows the window around a row, archived rows included", () => {
  const store = tempStore();
  const session = store.sessions[0]!;
  using db = StateDb.open(store.path);
  const view = db.read(() => scrollAround(db, session.id, 10, 3))!;
  assert.deepEqual(view.messages.map((row) => row.id), [7, 8, 9, 10, 11, 12, 13]);
  assert.equal(view.messagesBefore, 6);
  assert.equal(view.messagesBefore + view.messages.length + view.messagesAfter, session.rows);
  assert.ok(view.messages.every((row) => row.compacted), "the first rows were archived");
  assert.equal(db.read(() => scrollAround(db, session.id, 999_999)), undefined);
});

const badFiles: [string, (dir: string) => string, string][] = [
  ["a missing file", (dir) => `${dir}/nope.db`, "missing"],
  ["a directory", (dir) => dir, "missing"],
  ["a text file", (dir) => {
    Deno.writeTextFileSync(`${dir}/t.db`, "not a database ".repeat(100));
    return `${dir}/t.db`;
  }, "corrupt"],
  ["an SQLite file without Hermes's tables", (dir) => {
    const other = new DatabaseSync(`${dir}/o.db`);
    other.exec("CREATE TABLE notes (id INTEGER)");
    other.close();
    return `${dir}/o.db`;
  }, "not-hermes"],
  ["a database locked by a writer", (dir) => {
    const locked = new DatabaseSync(`${dir}/l.db`);
    locked.exec("CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER)");
    locked.exec(
      "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO sessions VALUES ('a')",
    );
    return `${dir}/l.db`;
  }, "locked"],
];

for (const [what, make, problem] of badFiles) {
  Deno.test(`StateDb.open() refuses ${what} with one line`, () => {
    const path = make(Deno.makeTempDirSync());
    assert.throws(() => StateDb.open(path, 50), (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(error.problem, problem);
      assert.ok(!error.message.includes("\n"));
      return true;
    });
  });
}
