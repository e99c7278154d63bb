/**
 * What `vcc serve` and `vcc project --db` project for a request that names its store: the window
 * matched to the store's rows, the newest stored summary over the one Hermes passed, and a
 * terminal command for opening a row. The expected values are the rows and strings this test
 * writes.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { schemaStatements } from "../../src/store/fixture/schema.ts";
import { projectionInput, StoredWindowReader } from "../../src/store/mod.ts";
import type { ProjectRequest } from "../../src/wire/mod.ts";

const SUMMARY_ROW = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted.\n" +
  "## Goal\n[#1] Fix the parser.\n\n" +
  "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

function storeWith(summary: boolean): string {
  const path = `${Deno.makeTempDirSync()}/state.db`;
  const db = new DatabaseSync(path);
  for (const statement of schemaStatements("v31")) db.exec(statement);
  db.prepare("INSERT INTO sessions (id, started_at) VALUES ('s', 1000)").run();
  const insert = db.prepare(
    "INSERT INTO messages (id, session_id, role, content, timestamp) VALUES (?, 's', ?, ?, ?)",
  );
  insert.run(1, "user", "Fix the parser.", 1000);
  if (summary) insert.run(2, "user", SUMMARY_ROW, 1001);
  db.close();
  return path;
}

const show = (store: { sessionId: string }) => `vcc show ${store.sessionId} --around N`;

function request(path: string | undefined, previous?: string): ProjectRequest {
  return {
    messages: [{ role: "user", content: "Fix the parser." }],
    options: { sessionId: "s", ...(previous === undefined ? {} : { previous }) },
    ...(path === undefined ? {} : { store: { path, sessionId: "s" } }),
  };
}

Deno.test("projectionInput() without a store is the request as given", () => {
  const given = request(undefined, "## Goal\ngiven");
  const input = projectionInput(given, new StoredWindowReader(), show);
  assert.deepEqual(input, {
    messages: given.messages,
    window: given.messages,
    options: given.options,
  });
});

Deno.test("projectionInput() matches the window to its rows and prefers the newest stored summary", () => {
  const input = projectionInput(
    request(storeWith(true), "## Goal\ngiven"),
    new StoredWindowReader(),
    show,
  );
  assert.equal((input.messages[0] as { _row_id?: number })._row_id, 1);
  assert.equal(input.options.previous, "## Goal\n[#1] Fix the parser.");
  assert.equal(input.options.recall?.shell, "vcc show s --around N");
  assert.equal(input.problem, undefined);
});

Deno.test("projectionInput() keeps the summary Hermes passed when the store holds none", () => {
  const input = projectionInput(
    request(storeWith(false), "## Goal\ngiven"),
    new StoredWindowReader(),
    show,
  );
  assert.equal(input.options.previous, "## Goal\ngiven");
});

Deno.test("projectionInput() says why a store cannot be read and projects the window as given", () => {
  const given = request("/nonexistent/state.db");
  const input = projectionInput(given, new StoredWindowReader(), show);
  assert.deepEqual(input.messages, given.messages);
  assert.match(input.problem ?? "", /state\.db/);
});
