/** unifiedDiff(): applying its hunks to the old text gives the new one, on random edits. */
import assert from "node:assert/strict";
import { unifiedDiff } from "../../src/bench/_line_diff.ts";
import { SeededRandom } from "../../src/sample/mod.ts";

/** Applies a unified diff to `before` as `patch` would; throws when a hunk does not fit. */
function applyDiff(before: string, diff: string): string {
  const old = before.split("\n");
  const result: string[] = [];
  let next = 0;
  const lines = diff === "" ? [] : diff.replace(/\n$/, "").split("\n");
  for (let i = 0; i < lines.length;) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(lines[i++]!);
    assert.ok(header, `hunk header expected, got ${lines[i - 1]}`);
    const start = Number(header[1]) - 1;
    assert.ok(start >= next, "hunks in order and apart");
    result.push(...old.slice(next, start));
    next = start;
    let oldCount = 0;
    let newCount = 0;
    while (i < lines.length && !lines[i]!.startsWith("@@")) {
      const line = lines[i++]!;
      const text = line.slice(1);
      if (line[0] !== "+") {
        assert.equal(old[next], text, "context and removed lines are the old text");
        next++;
        oldCount++;
      }
      if (line[0] !== "-") {
        result.push(text);
        newCount++;
      }
    }
    assert.deepEqual([oldCount, newCount], [Number(header[2]), Number(header[4])]);
    assert.equal(Number(header[3]) - 1, result.length - newCount, "new start line");
  }
  return [...result, ...old.slice(next)].join("\n");
}

Deno.test("unifiedDiff() turns the old text into the new one, with only changes in hunks", () => {
  const random = new SeededRandom(7);
  const words = ["alpha", "beta", "gamma", "delta", ""];
  for (let round = 0; round < 300; round++) {
    const before = Array.from({ length: random.range(0, 40) }, () => random.pick(words));
    const after = before.flatMap((line) => {
      const roll = random.int(10);
      return roll === 0
        ? []
        : roll === 1
        ? [line, random.pick(words)]
        : roll === 2
        ? ["x"]
        : [line];
    });
    const [a, b] = [before.join("\n"), after.join("\n")];
    const diff = unifiedDiff(a, b, random.range(0, 3));
    assert.equal(applyDiff(a, diff), b, diff);
    assert.equal(diff === "", a === b);
  }
});

Deno.test("unifiedDiff() keeps hunks apart by more than twice the context", () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i}`);
  const after = before.map((line, i) => (i === 3 || i === 12 ? `${line}!` : line));
  const diff = unifiedDiff(before.join("\n"), after.join("\n"), 2);
  assert.deepEqual(diff.split("\n").filter((line) => line.startsWith("@@")), [
    "@@ -2,5 +2,5 @@",
    "@@ -11,5 +11,5 @@",
  ]);
  assert.match(diff, /^-line 3\n\+line 3!$/m);
});
