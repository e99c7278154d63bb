/**
 * Terminal commands given a working directory (`workdir`), in generated sessions: the same command
 * lines run in several directories, some quoted for the shell, some under the projection's root.
 * The oracle is the recall bench, which reads the window's rows and the projection by rules of its
 * own: a line stands for a command when the row it cites ran it and its text shows that command
 * as run there.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { readProjection, scoreWindow, windowFacts } from "../../src/bench/recall/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";
import { callRows } from "../support/call_rows.ts";

const DIRECTORIES = [
  "/home/dev/shop/api",
  "/home/dev/shop/web",
  "/home/dev/My Projects/shop",
  "/srv/releases/2026-12-01",
  "services/billing",
];
const COMMANDS = ["pytest -q", "npm test", "make build", "git status --short", "cargo test"];

/** A session of `calls` terminal calls, each in a directory (or none) and exiting 0 or 1. */
function session(random: SeededRandom, calls: number): unknown[] {
  const rows: unknown[] = [{
    role: "user",
    content: "Run the checks of every package.",
    _row_id: 1,
  }];
  for (let index = 0; index < calls; index++) {
    const args: Record<string, unknown> = { command: random.pick(COMMANDS) };
    if (random.chance(0.8)) args.workdir = random.pick(DIRECTORIES);
    const exitCode = random.chance(0.3) ? 1 : 0;
    rows.push(
      ...callRows(2 + 2 * index, "terminal", args, {
        output: exitCode ? "1 failed" : "ok",
        exit_code: exitCode,
      }),
    );
  }
  return rows;
}

Deno.test("a command run in a named directory is told apart by where it ran, and its outcome is its own", () => {
  const random = new SeededRandom(3);
  for (let round = 0; round < 40; round++) {
    const rows = session(random, random.range(2, 12));
    const { body } = project(rows, { sessionId: "s", budgetTokens: 4000 });
    const score = scoreWindow(windowFacts(rows), readProjection(body)).commands;
    const context = `round ${round}\n${body}`;
    assert.equal(score.present, score.total, `every command's line is its own: ${context}`);
    assert.equal(score.right, score.checkable, `every final outcome is stated: ${context}`);
    assert.equal(score.wrong, 0, context);
    assert.equal(score.sameText, 0, context);
  }
});

Deno.test("a command run in a named directory keeps its key across compactions, also from lines that did not show the directory", () => {
  const call = (row: number, id: string) => ({
    role: "assistant",
    content: "",
    _row_id: row,
    tool_calls: [{
      id,
      type: "function",
      function: {
        name: "terminal",
        arguments: JSON.stringify({ command: "pytest -q", workdir: "/srv/api" }),
      },
    }],
  });
  const result = (row: number, id: string, exitCode: number) => ({
    role: "tool",
    tool_call_id: id,
    content: JSON.stringify({ output: exitCode ? "1 failed" : "3 passed", exit_code: exitCode }),
    _row_id: row,
  });
  const first = [
    { role: "user", content: "Fix the api tests.", _row_id: 1 },
    call(2, "a"),
    result(3, "a", 1),
  ];
  const earlier = project(first, { sessionId: "s", budgetTokens: 4000 }).body;
  assert.match(
    earlier,
    /^## Blocked\n- \[#2\] terminal `cd \/srv\/api && pytest -q` \(id \w+\) — failed/m,
  );
  // Earlier releases showed the line without its directory, by the same id.
  for (const previous of [earlier, earlier.replaceAll("cd /srv/api && pytest -q", "pytest -q")]) {
    const { body } = project([call(4, "b"), result(5, "b", 0)], {
      sessionId: "s",
      budgetTokens: 4000,
      previous,
    });
    assert.doesNotMatch(body, /## Blocked/, body);
    assert.match(
      body,
      /^- \[#2\] `(?:cd \/srv\/api && )?pytest -q` \(id \w+\) — failed \(exit 1\) \[#3\], then succeeded \(exit 0\) \[#5\]$/m,
      body,
    );
  }
});
