/** `vcc sessions|stats|show|preview` against a generated store, which they never change. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { basename, dirname } from "node:path";
import { runVcc, runVccOnStore, tempStore } from "../support/vcc_harness.ts";

const store = tempStore();
const [compacted, cooldown] = store.sessions;

Deno.test("vcc sessions lists every session with rows, compacted rows and compactions", async () => {
  const run = await runVccOnStore(store.path, ["sessions", "--db", store.path]);
  assert.equal(run.code, 0);
  const lines = run.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^ID\s+STARTED\s+ROWS\s+COMPACTED\s+COMPACTIONS\s+HELD BACK\s+TITLE$/);
  assert.equal(lines.length, store.sessions.length + 1);
  const first = lines[1]!.split(/\s{2,}/);
  assert.equal(first[0], compacted!.id);
  assert.equal(first[2], String(compacted!.rows));
  assert.equal(first[3], String(compacted!.compactedRows));
  assert.equal(first[4], String(compacted!.summaryRowIds.length));
  const json = await runVccOnStore(store.path, ["sessions", "--db", store.path, "--json"]);
  assert.deepEqual(
    JSON.parse(json.stdout).sessions.map((s: { id: string }) => s.id),
    store.sessions.map((s) => s.id),
  );
});

Deno.test("vcc stats reports compacted rows, rotations and the cooldown with its error", async () => {
  const run = await runVccOnStore(store.path, ["stats", "--db", store.path]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, new RegExp(`compacted rows: ${compacted!.compactedRows}\n`));
  assert.match(run.stdout, /rotated sessions: 1\n/);
  // The cron session's cooldown holds until its time passes; one fallback summary is a warning.
  const reader = new DatabaseSync(store.path, { readOnly: true });
  const until = Number(
    reader.prepare("SELECT compression_failure_cooldown_until AS t FROM sessions WHERE id = ?")
      .get(cooldown!.id)!.t,
  );
  reader.close();
  const over = until <= Date.now() / 1000;
  assert.match(
    run.stdout,
    over
      ? /sessions whose compaction Hermes holds back: 0\nsessions with compaction notes: 1\n/
      : /sessions whose compaction Hermes holds back: 1\n/,
  );
  assert.match(
    run.stdout,
    new RegExp(
      `  ${cooldown!.id}  automatic compaction held back until [^:]*:\\d\\d:\\d\\dZ` +
        `${over ? " \\(over\\)" : ""}: the summary step failed: host compress_context timeout`,
    ),
  );
  assert.match(run.stdout, new RegExp(`  ${cooldown!.id}  note: 1 fallback summary`));
  const json = JSON.parse(
    (await runVccOnStore(store.path, ["stats", "--db", store.path, "--json"])).stdout,
  );
  assert.equal((over ? json.noted : json.held)[0].sessionId, cooldown!.id);
});

Deno.test("vcc show prints the rows around [#N], archived ones included", async () => {
  const args = ["show", compacted!.id, "--around", "12", "--window", "2", "--db", store.path];
  const run = await runVccOnStore(store.path, args);
  assert.equal(run.code, 0);
  const heads = run.stdout.split("\n").filter((line) => /^[ >]\[#\d+\]/.test(line));
  assert.deepEqual(heads.map((line) => line.slice(0, 6)), [
    " [#10]",
    " [#11]",
    ">[#12]",
    " [#13]",
    " [#14]",
  ]);
  assert.ok(heads.every((line) => line.includes("archived")));
  // deno-lint-ignore no-control-regex
  const raw = /[\x00-\x08\x1b\u202e]/;
  assert.doesNotMatch(run.stdout, raw, "control characters are shown escaped");
  const json = JSON.parse((await runVccOnStore(store.path, [...args, "--json"])).stdout);
  assert.equal(json.around_message_id, 12);
  assert.deepEqual(json.messages.map((m: { id: number }) => m.id), [10, 11, 12, 13, 14]);
  assert.equal(json.messages[2].anchor, true);
});

Deno.test("vcc preview prints the summary a compaction now would produce", async () => {
  const args = ["preview", compacted!.id, "--db", store.path, "--context-tokens", "32000"];
  const run = await runVccOnStore(store.path, args);
  assert.equal(run.code, 0);
  assert.match(
    run.stdout,
    /^\(vcc projection of session [^\n]*\)\n(?:\(… is \/\S+\)\n)?\n## Historical Task Snapshot\n/,
  );
  assert.doesNotMatch(
    run.stdout,
    /## Earlier Summary/,
    "the stored projection merges as vcc's own",
  );
  assert.match(
    run.stderr,
    /^preview: rows \[#\d+\]\.\.\[#\d+\] .* the previous summary is merged\n$/,
  );
  const json = JSON.parse((await runVccOnStore(store.path, [...args, "--json"])).stdout);
  assert.equal(json.body, run.stdout.trimEnd());
  assert.ok(json.cut.windowRows > 0 && json.cut.tailRows >= 3);
  assert.equal(json.cut.hermes, "0.22", "the sample store has schema 31");
  assert.ok(json.stats.chars <= json.cut.budgetTokens * 4);
});

Deno.test("vcc preview refuses a budget too small for the header, naming the least that holds it", async () => {
  const args = ["preview", compacted!.id, "--db", store.path];
  const header = (await runVccOnStore(store.path, args)).stdout.split("\n\n")[0]!;
  const least = Math.ceil(header.length / 4);
  const small = await runVccOnStore(store.path, [...args, "--budget-tokens", String(least - 1)]);
  assert.equal(small.code, 2);
  assert.equal(small.stdout, "");
  assert.match(small.stderr, new RegExp(`the least that does is ${least} tokens\n$`));
  const enough = await runVccOnStore(store.path, [...args, "--budget-tokens", String(least)]);
  assert.equal(enough.code, 0);
  assert.ok(enough.stdout.startsWith(header));
});

Deno.test("vcc preview says so when a session has nothing to compact", async () => {
  const empty = store.sessions.find((session) => session.kind === "empty")!;
  const run = await runVccOnStore(store.path, ["preview", empty.id, "--db", store.path]);
  assert.equal(run.code, 0);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /has nothing to compact \(0 live rows, cut as Hermes 0\.22\)/);
});

Deno.test("inspection commands fail with one line on a bad database or unknown ids", async () => {
  const dir = Deno.makeTempDirSync();
  Deno.writeTextFileSync(`${dir}/corrupt.db`, "garbage ".repeat(200));
  const locked = new DatabaseSync(`${dir}/locked.db`);
  locked.exec("CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id INTEGER)");
  locked.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO sessions VALUES (1)");
  const foreign = new DatabaseSync(`${dir}/foreign.db`);
  foreign.exec("CREATE TABLE notes (id INTEGER)");
  foreign.close();
  const window = `${dir}/window.json`;
  Deno.writeTextFileSync(window, '[{"role": "user", "content": "hi"}]');
  // A store that cannot be read is bad input, exit 2, whichever command names it; one that
  // another process holds locked is a failure of the moment, exit 1.
  const cases: [string[], number, RegExp][] = [
    [["sessions", "--db", `${dir}/missing.db`], 2, /^vcc: no state database at .*missing\.db$/],
    [["stats", "--db", `${dir}/corrupt.db`], 2, /^vcc: .*corrupt\.db is not a readable SQLite/],
    [["sessions", "--db", `${dir}/foreign.db`], 2, /^vcc: .*foreign\.db has no Hermes "sessions"/],
    [
      ["project", window, "--session-id", "s1", "--db", `${dir}/missing.db`],
      2,
      /^vcc: no state database at .*missing\.db$/,
    ],
    [
      ["project", window, "--session-id", "s1", "--db", `${dir}/corrupt.db`],
      2,
      /^vcc: .*corrupt\.db is not a readable SQLite/,
    ],
    [
      ["project", window, "--session-id", "s1", "--db", `${dir}/foreign.db`],
      2,
      /^vcc: .*foreign\.db has no Hermes "sessions"/,
    ],
    [
      ["bench", "proofs", "--db", `${dir}/missing.db`],
      2,
      /^vcc: no state database at .*missing\.db$/,
    ],
    [
      ["sessions", "--db", `${dir}/locked.db`],
      1,
      /^vcc: .*locked\.db is locked by another process/,
    ],
    [["show", "nope", "--around", "1", "--db", store.path], 2, /^vcc: no session nope in /],
    [["show", compacted!.id, "--around", "999999", "--db", store.path], 2, /has no row 999999$/],
    [["preview", "nope", "--db", store.path], 2, /^vcc: no session nope in /],
    [
      ["project", window, "--session-id", "nope", "--db", store.path],
      2,
      /^vcc: no session nope in /,
    ],
  ];
  for (const [args, code, message] of cases) {
    const run = await runVcc(args);
    assert.equal(run.code, code, args.join(" "));
    assert.equal(run.stdout, "");
    assert.match(run.stderr.trimEnd(), message);
    assert.equal(run.stderr.trimEnd().split("\n").length, 1);
  }
  locked.close();
});

/** Runs `body` with `HERMES_HOME` set to `home`. */
async function withHermesHome<T>(home: string, body: () => Promise<T>): Promise<T> {
  const previous = Deno.env.get("HERMES_HOME");
  Deno.env.set("HERMES_HOME", home);
  try {
    return await body();
  } finally {
    if (previous === undefined) Deno.env.delete("HERMES_HOME");
    else Deno.env.set("HERMES_HOME", previous);
  }
}

Deno.test("--db defaults to $HERMES_HOME/state.db", async () => {
  const run = await withHermesHome(store.dir, () => runVccOnStore(store.path, ["stats"]));
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^sessions: 6\n/);
});

Deno.test("bench proofs and bench recall given no source read the default store", async (t) => {
  const sources: ReadonlyArray<readonly [string, string]> = [
    ["proofs", "choose one of --synthetic or --db PATH"],
    ["recall", "give window files or folders, --db PATH, or --demo"],
  ];
  for (const [bench, alternatives] of sources) {
    await t.step(bench, async () => {
      const cache = Deno.makeTempDirSync();
      const args = ["bench", bench, "--json"];
      const named = JSON.parse((await runVcc([...args, "--db", store.path], cache)).stdout);
      const run = await withHermesHome(store.dir, () => runVccOnStore(store.path, args, cache));
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), named, "the same as --db naming that store");
      const empty = Deno.makeTempDirSync();
      const missing = await withHermesHome(empty, () => runVcc(args, cache));
      assert.equal(missing.code, 2);
      assert.equal(
        missing.stderr,
        `vcc: no state database at ${empty}/state.db (the default store); ${alternatives}\n`,
      );
    });
  }
});

Deno.test("project --db names the store from the root in its recovery command, however it was given", async () => {
  const dir = Deno.makeTempDirSync();
  const window = `${dir}/window.json`;
  Deno.writeTextFileSync(window, '[{"role": "user", "content": "hi"}]');
  const started = Deno.cwd();
  Deno.chdir(dirname(store.path));
  try {
    const run = await runVcc([
      "project",
      window,
      "--session-id",
      compacted!.id,
      "--db",
      basename(store.path),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes(`--db ${store.path}\``), run.stdout.split("\n")[0]);
  } finally {
    Deno.chdir(started);
  }
});
