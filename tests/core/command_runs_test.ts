/**
 * Commands Run's history of a command: each run of the same outcome cites its first row and, when
 * it holds several, its last, so the order of commands that change state (an upgrade, a downgrade,
 * the upgrade again) reads from the rows cited. The windows are generated; the oracle is the rows
 * the generator wrote each result to.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { callRows, type Row } from "../support/call_rows.ts";

const COMMANDS = ["alembic upgrade head", "alembic downgrade -1", "helm upgrade api ./chart"];

/** A window of `count` calls of the commands, each exiting 0, and each command's result rows. */
function session(random: SeededRandom, count: number, first: number) {
  const rows: Row[] = [{ role: "user", _row_id: first, content: "Migrate staging." }];
  const results = new Map<string, number[]>();
  for (let call = 0; call < count; call++) {
    const command = random.pick(COMMANDS);
    const id = first + 1 + call * 2;
    rows.push(...callRows(id, "terminal", { command }, { output: "done", exit_code: 0 }));
    results.set(command, [...(results.get(command) ?? []), id + 1]);
  }
  return { rows, results };
}

/**
 * The history a command's line states, after its command; a command that succeeded once is a part
 * of the line shared by such commands, which cites its result before it.
 */
function history(body: string, command: string): string | undefined {
  const lines = body.split("\n");
  const own = lines.find((text) => text.includes(`\`${command}\` — `));
  if (own !== undefined) return own.split(" — ")[1];
  const shared = lines.find((text) => text.startsWith("- succeeded (exit 0) once each: "));
  const part = shared?.match(new RegExp(`(\\[#\\d+\\]) \`${RegExp.escape(command)}\``));
  return part ? `succeeded (exit 0) ${part[1]}` : undefined;
}

/** What a history of `rows`, all successes, states. */
function expected(rows: readonly number[]): string {
  const [first, ...more] = rows;
  return more.length === 0
    ? `succeeded (exit 0) [#${first}]`
    : `succeeded (exit 0) ×${rows.length} [#${first}], last [#${more.at(-1)}]`;
}

Deno.test("a command's runs cite their first and last rows, so the commands' order reads from them", () => {
  const random = new SeededRandom(53);
  for (let trial = 0; trial < 30; trial++) {
    const { rows, results } = session(random, random.range(3, 9), 1);
    const { body } = project(rows, { sessionId: "s", budgetTokens: 8000 });
    for (const [command, resultRows] of results) {
      assert.equal(history(body, command), expected(resultRows), body);
    }
  }
});

Deno.test("a run's last row is kept when the history is read back and joined after a compaction", () => {
  const random = new SeededRandom(59);
  for (let trial = 0; trial < 20; trial++) {
    const before = session(random, random.range(2, 6), 1);
    const after = session(random, random.range(2, 6), 100);
    const first = project(before.rows, { sessionId: "s", budgetTokens: 8000 }).body;
    const { body } = project(after.rows, { sessionId: "s", budgetTokens: 8000, previous: first });
    for (const command of COMMANDS) {
      const all = [...(before.results.get(command) ?? []), ...(after.results.get(command) ?? [])];
      if (all.length > 0) {
        assert.equal(history(body, command), expected(all), `${first}\n\n${body}`);
      }
    }
  }
});
