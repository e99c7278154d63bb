/**
 * No two lines of a section show the same text for different commands, however alike the commands
 * are: generated families of commands that differ in one place only (inside a here-document's
 * body, a quoted script, a long path, an option), at every budget. The oracle is the recall bench,
 * which reads the projection's lines and matches them to the window's commands by its own rules.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { readProjection, scoreWindow, windowFacts } from "../../src/bench/recall/mod.ts";
import { SeededRandom } from "../../src/sample/mod.ts";

const BUDGETS = [1500, 4000, 8000];

/** Filler words of a script body: a line of code repeated with small changes. */
function body(random: SeededRandom, lines: number): string[] {
  return Array.from(
    { length: lines },
    (_, index) => `value_${index} = compute(${random.range(1, 9)})`,
  );
}

/** Commands alike but for one place, `mark` (a distinct token per command). */
const FAMILIES: ReadonlyArray<(random: SeededRandom, mark: string, size: number) => string> = [
  // A file written by a here-document, then run; the bodies differ in one line.
  (random, mark, size) => {
    const lines = body(random, size);
    lines.splice(Math.floor(lines.length * random.next()), 0, `check("${mark}")`);
    return `cat > test_edge_cases.py << 'EOF'\n${lines.join("\n")}\nEOF\npython test_edge_cases.py`;
  },
  // A quoted script passed to the interpreter.
  (random, mark, size) => {
    const lines = body(random, size);
    lines.splice(Math.floor(lines.length / 2), 0, `print("${mark}")`);
    return `cd /work/repo && python3 -c "${lines.join("; ")}"`;
  },
  // A long path whose middle directory differs.
  (_random, mark, size) =>
    `pytest -q /home/dev/projects/service/${"nested/".repeat(size)}${mark}/${
      "deeper/".repeat(size)
    }tests/test_api.py`,
  // An option in the middle of a long line.
  (_random, mark, size) =>
    `docker compose -f deploy/compose.e2e.yml run --rm --profile=${mark} ${
      "--service-ports ".repeat(size)
    }playwright npx playwright test --project=chromium`,
];

/** A window running each command once, in turn; half of them fail. */
function windowOf(commands: readonly string[]): unknown[] {
  const rows: unknown[] = [{ role: "user", content: "Check the edge cases.", _row_id: 1 }];
  commands.forEach((command, index) => {
    const id = `c${index}`;
    rows.push({
      role: "assistant",
      content: "",
      _row_id: rows.length + 1,
      tool_calls: [{
        id,
        type: "function",
        function: { name: "terminal", arguments: JSON.stringify({ command }) },
      }],
    });
    rows.push({
      role: "tool",
      tool_call_id: id,
      _row_id: rows.length + 1,
      content: JSON.stringify({ output: `run ${index}`, exit_code: index % 2, error: null }),
    });
  });
  return rows;
}

Deno.test("commands alike but in one place never show the same text on two lines", () => {
  const random = new SeededRandom(16);
  for (const family of FAMILIES) {
    for (const size of [2, 8, 40, 120]) {
      const count = random.range(2, 6);
      const commands = Array.from(
        { length: count },
        (_, index) => family(random, `m${index}x`, size),
      );
      const window = windowOf(commands);
      const facts = windowFacts(window);
      assert.equal(facts.commands.length, count, "the window's commands are distinct");
      for (const budgetTokens of BUDGETS) {
        const { body } = project(window, { budgetTokens });
        const score = scoreWindow(facts, readProjection(body));
        assert.equal(
          score.commands.sameText,
          0,
          `${count} commands of size ${size} at ${budgetTokens} tokens:\n${body}`,
        );
        assert.equal(score.wrong.length, 0);
      }
    }
  }
});
