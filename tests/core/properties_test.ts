/**
 * Properties that hold for every window: generated realistic windows of many sizes and seeds, and
 * arbitrary JSON values. The projection never throws, never exceeds its budget, cites only rows
 * that exist, quotes only words its rows contain, and gives the same bytes every time.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { generateWindow, randomJsonValue } from "../../src/sample/mod.ts";
import { checkLines, lineHolds, windowLookup } from "../../src/bench/proofs/mod.ts";

const SEEDS = [1, 2, 3, 5, 8, 13, 21, 34];
const SIZES = [300, 2_000, 12_000, 60_000];
const BUDGETS = [1, 50, 300, 1_500, 8_000];

function* windows(): Generator<{ name: string; rows: Record<string, unknown>[] }> {
  for (const seed of SEEDS) {
    for (const targetTokens of SIZES) {
      yield {
        name: `seed ${seed}, ~${targetTokens} tokens`,
        rows: generateWindow({ seed, targetTokens, rowIdStart: 100 }),
      };
    }
  }
}

Deno.test("project() sizes every section within the budget: the last-resort cut never acts", () => {
  for (const { name, rows } of windows()) {
    for (const budgetTokens of BUDGETS) {
      const { body, stats } = project(rows, { budgetTokens, sessionId: "s", focus: "pytest" });
      assert.ok(
        body.length <= budgetTokens * 4,
        `${name}, budget ${budgetTokens}: ${body.length} chars`,
      );
      assert.equal(stats.chars, body.length);
      assert.equal(stats.safetyCut, 0, `${name}, budget ${budgetTokens}: the safety cut acted`);
    }
  }
});

Deno.test("project() cites only rows of its input and quotes only their words", () => {
  for (const { name, rows } of windows()) {
    const { body } = project(rows, { budgetTokens: 3_000, sessionId: "s" });
    const failed = checkLines(body, windowLookup(rows)).filter((verdict) => !lineHolds(verdict));
    assert.deepEqual(failed, [], `${name}: ${JSON.stringify(failed.slice(0, 3))}`);
  }
});

Deno.test("project() gives the same bytes twice, whatever the key order of each message", () => {
  for (const { name, rows } of windows()) {
    const first = project(rows, { budgetTokens: 2_000, sessionId: "s" }).body;
    const again = project(structuredClone(rows), { budgetTokens: 2_000, sessionId: "s" }).body;
    const reordered = rows.map((row) => Object.fromEntries(Object.entries(row).reverse()));
    assert.equal(again, first, name);
    assert.equal(project(reordered, { budgetTokens: 2_000, sessionId: "s" }).body, first, name);
  }
});

// The roles a message may carry (older and newer names), written out as the contract states them.
const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

function unusable(entry: unknown): boolean {
  return typeof entry !== "object" || entry === null || Array.isArray(entry) ||
    !ROLES.has((entry as { role?: unknown }).role as string);
}

Deno.test("project() accepts any JSON value without throwing and counts what it skipped", () => {
  for (let seed = 0; seed < 300; seed++) {
    const value = randomJsonValue(seed);
    const asWindow = Array.isArray(value) ? value : [value, { role: "user", content: value }];
    for (const input of [value, asWindow]) {
      const { body, stats } = project(input, { budgetTokens: 200 });
      assert.ok(body.length <= 800);
      if (Array.isArray(input)) {
        assert.equal(stats.inputMessages, input.length);
        assert.equal(stats.skippedMessages, input.filter(unusable).length);
      } else {
        assert.deepEqual([stats.inputMessages, stats.skippedMessages], [0, 1]);
      }
    }
  }
});

Deno.test("project() merges its own previous projection without losing the goal", () => {
  for (const seed of SEEDS) {
    const first = generateWindow({ seed, targetTokens: 8_000, rowIdStart: 1 });
    const second = generateWindow({ seed: seed + 100, targetTokens: 8_000, rowIdStart: 5_000 });
    const before = project(first, { budgetTokens: 2_000, sessionId: "s" });
    const after = project(second, { budgetTokens: 2_000, sessionId: "s", previous: before.body });
    const goal = /## Goal\n(\[#\d+\][^\n]*)/.exec(before.body)?.[1];
    assert.ok(goal !== undefined, `seed ${seed}: the first projection has a goal`);
    assert.ok(after.body.includes(goal), `seed ${seed}: the first goal line carries forward`);
    assert.ok(after.body.length <= 8_000);
    assert.equal(after.stats.merged, true);
  }
});

/** The `command` of a terminal call's arguments; `undefined` for arguments that are not JSON. */
function parsedCommand(args: string | undefined): string | undefined {
  try {
    return JSON.parse(args ?? "").command;
  } catch {
    return undefined;
  }
}

Deno.test("project() lists every command again after a merge, shared lines and all", () => {
  const commandSection = (body: string) =>
    /## Commands Run\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "";
  let sharedSeen = false;
  for (const seed of SEEDS) {
    const first = generateWindow({ seed, targetTokens: 8_000, rowIdStart: 1 });
    const second = generateWindow({ seed: seed + 100, targetTokens: 2_000, rowIdStart: 5_000 });
    const before = project(first, { budgetTokens: 60_000, sessionId: "s" });
    const after = project(second, { budgetTokens: 60_000, sessionId: "s", previous: before.body });
    sharedSeen ||= commandSection(before.body).includes(" once each: ");
    // The oracle is the window: each command it ran is cited by both, by its first call or (a
    // command that ran once) by its result.
    const cites = new Map<string, string[]>();
    const resultOf = new Map<string, string>();
    for (const row of first) {
      if (typeof row.tool_call_id === "string") resultOf.set(row.tool_call_id, `[#${row._row_id}]`);
    }
    for (const row of first) {
      for (
        const call of (row.tool_calls ?? []) as { id: string; function: Record<string, string> }[]
      ) {
        if (call.function.name !== "terminal") continue;
        const command = parsedCommand(call.function.arguments);
        if (command === undefined || cites.has(command)) continue;
        cites.set(command, [`[#${row._row_id}]`, resultOf.get(call.id) ?? "no result"]);
      }
    }
    assert.ok(cites.size > 0, `seed ${seed}: the window ran commands`);
    for (const [command, refs] of cites) {
      const cited = (body: string) => refs.some((ref) => commandSection(body).includes(ref));
      assert.ok(cited(before.body), `seed ${seed}: ${command} listed`);
      assert.ok(cited(after.body), `seed ${seed}: ${command} carried`);
    }
  }
  assert.ok(sharedSeen, "some projection shows commands that succeeded once on shared lines");
});

// How much wider than the widest line Goal shows its next line may be.
const WIDTH_MARGIN = 8;

Deno.test("project() leaves no room unused that Goal could fill with a request it dropped", () => {
  const goalLines = (body: string) =>
    (/## Goal\n([\s\S]*?)(?:\n\n## |$)/.exec(body)?.[1] ?? "").split("\n")
      .filter((line) => line.startsWith("[#"));
  for (const { name, rows } of windows()) {
    // Every request, as Goal shows it when nothing must go.
    const every = goalLines(project(rows, { budgetTokens: 1_000_000, sessionId: "s" }).body);
    for (let budgetTokens = 200; budgetTokens <= 2_000; budgetTokens += 150) {
      const { body, stats } = project(rows, { budgetTokens, sessionId: "s" });
      if (stats.sections.requests.omitted === 0) continue;
      const shown = new Set(goalLines(body).map((line) => line.slice(0, line.indexOf(" "))));
      // Goal keeps its newest requests: the next it would keep is the newest it dropped, shown
      // about as wide as the widest it shows (its width can differ by a few characters), or whole.
      const next = every.findLast((line) => !shown.has(line.slice(0, line.indexOf(" "))));
      const widest = Math.max(...goalLines(body).map((line) => line.length));
      const needs = Math.min(next!.length, widest + WIDTH_MARGIN) + 1;
      // A log keeps the least room its lines are shown in (its heading and 120 characters).
      const log = body.indexOf("\n\n## Detailed Session Log");
      const logSlack = log === -1 ? 0 : Math.max(0, 160 - (body.length - log));
      // The sizing counts a blank line after every section, the last one's too.
      const unused = budgetTokens * 4 - body.length - logSlack - "\n\n".length;
      assert.ok(
        unused < needs,
        `${name}, budget ${budgetTokens}: ${unused} chars unused, the next request needs ${needs}`,
      );
    }
  }
});
