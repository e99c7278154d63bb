/**
 * The session log's omission note counts the messages it left out that had a line to show, never
 * those that had none (a call Commands Run lists, whose output said nothing). Generated windows of
 * requests and replies between quiet commands: every request and reply has a line (but the latest
 * request where the snapshot quotes it whole), no quiet call or result has one, so the note's
 * count plus the messages the log cites is the number of requests and replies.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { generateWindow, SeededRandom } from "../../src/sample/mod.ts";

const WORDS = ["parser", "retry", "cache", "index", "schema", "ledger", "shard", "queue", "token"];
// Few distinct commands, so Commands Run lists them all at every budget tried.
const COMMANDS = ["make fmt", "git status --short", "true"];

/** A window of text messages (each row id noted) and quiet commands between them. */
function window(
  seed: number,
): { rows: Record<string, unknown>[]; texts: number; latest: string } {
  const random = new SeededRandom(seed);
  const rows: Record<string, unknown>[] = [];
  let id = 1;
  let texts = 0;
  let latest = "";
  const sentence = () =>
    Array.from({ length: random.range(4, 40) }, () => WORDS[random.int(WORDS.length)]).join(" ");
  for (let turn = 0; turn < random.range(20, 60); turn++) {
    const request = `Please look at the ${sentence()}`;
    latest = `[#${id}] ${request}`;
    rows.push({ role: "user", content: request, _row_id: id++ });
    texts++;
    for (let step = 0; step < random.range(1, 4); step++) {
      const callId = `c${id}`;
      const command = COMMANDS[random.int(COMMANDS.length)];
      // A reply that also makes a call is no turn's close: it is logged, never quoted whole.
      const said = random.chance(0.5);
      rows.push({
        role: "assistant",
        content: said ? `Next I check the ${sentence()}` : "",
        tool_calls: [{
          id: callId,
          type: "function",
          function: { name: "terminal", arguments: JSON.stringify({ command }) },
        }],
        _row_id: id++,
      });
      if (said) texts++;
      rows.push({
        role: "tool",
        tool_call_id: callId,
        content: JSON.stringify({ output: "", exit_code: 0, error: null }),
        _row_id: id++,
      });
    }
  }
  return { rows, texts, latest };
}

const NOTE = /^\((\d+) older log entries omitted/m;

Deno.test("the session log's omission note counts exactly the messages with a line it left out", () => {
  let noted = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const { rows, texts, latest } = window(seed);
    for (const budgetTokens of [1_500, 2_500, 4_000]) {
      const { body, stats } = project(rows, { budgetTokens });
      const name = `seed ${seed}, budget ${budgetTokens}`;
      assert.equal(stats.sections.commands.omitted, 0, `${name}: a command went unlisted`);
      const log = body.slice(body.indexOf("## Detailed Session Log"));
      const cited = new Set(log.match(/^\[#\d+\]/gm) ?? []);
      const omitted = Number(NOTE.exec(log)?.[1] ?? 0);
      // The latest request, when the snapshot quotes it whole, has no line of its own.
      const quoted = body.includes(`## Historical Task Snapshot\n${latest}\n`) ? 1 : 0;
      assert.equal(omitted + cited.size, texts - quoted, name);
      assert.equal(stats.sections.log.omitted, omitted, name);
      if (omitted > 0) noted++;
    }
  }
  // The windows are long enough for the budgets to leave messages out.
  assert.ok(noted > 60, `only ${noted} projections left messages out`);
});

Deno.test("a log none of whose lines fit still names what it left out where room is left", () => {
  let noted = 0;
  for (let seed = 1; seed <= 30; seed++) {
    for (const targetTokens of [2_000, 20_000]) {
      const rows = generateWindow({ seed, targetTokens });
      for (let budgetTokens = 100; budgetTokens <= 1_500; budgetTokens += 50) {
        const { body, stats } = project(rows, { budgetTokens });
        const { shown, omitted } = stats.sections.log;
        if (shown > 0 || omitted === 0) continue;
        const note =
          `## Detailed Session Log (oldest first)\n(${omitted} older log entries omitted)`;
        const name = `seed ${seed}, ${targetTokens} tokens, budget ${budgetTokens}`;
        if (body.endsWith(`\n\n${note}`)) noted++;
        // Else there was no room for it: the blank line before it, and the one the sizing counts
        // after every section.
        else assert.ok(budgetTokens * 4 - body.length < note.length + 4, `${name}:\n${body}`);
      }
    }
  }
  assert.ok(noted > 10, `only ${noted} notes alone`);
});
