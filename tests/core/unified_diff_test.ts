/**
 * Reading the diffs an output holds: generated diffs of several files (git's and plain `diff -u`
 * headers, files added and removed, hunks whose lines look like headers), each file's name and
 * counts stated by the generator as it writes them, read back among other output.
 */
import assert from "node:assert/strict";
import { type DiffFile, diffFiles, hunkBodies } from "../../src/core/unified_diff.ts";
import { SeededRandom } from "../../src/sample/random.ts";

/** A diff of one file, its lines (each saying whether it is a header), and what it is. */
function fileDiff(
  random: SeededRandom,
  path: string,
): { lines: [string, boolean][]; file?: DiffFile } {
  const kind = random.pick(["changed", "added", "removed", "plain", "combined"] as const);
  if (kind === "combined") return { lines: combinedDiff(random, path).map((line) => [line, true]) };
  const blobs = `${random.hex(9)}..${random.hex(9)}`;
  const lines: string[] = [];
  if (kind !== "plain") {
    lines.push(`diff --git a/${path} b/${path}`);
    if (kind === "added") lines.push("new file mode 100644");
    if (kind === "removed") lines.push("deleted file mode 100644");
    lines.push(`index ${blobs}${kind === "changed" ? " 100644" : ""}`);
  }
  lines.push(kind === "added" ? "--- /dev/null" : `--- a/${path}`);
  lines.push(kind === "removed" ? "+++ /dev/null" : `+++ b/${path}`);
  let added = 0;
  let removed = 0;
  // Which of `lines` are hunks' lines, not headers.
  const bodyLines: number[] = [];
  for (let hunk = random.range(1, 4); hunk > 0; hunk--) {
    const body: string[] = [];
    for (let line = random.range(1, 8); line > 0; line--) {
      // Lines whose words look like a diff's own headers once their mark is taken off.
      const words = random.pick(["-- a/x.py", "++ b/y.py", "@ -1 +1 @@", "ok", ""]);
      const mark = kind === "added" ? "+" : kind === "removed" ? "-" : random.pick(["+", "-", " "]);
      body.push(`${mark}${words}`);
      if (mark === "+") added++;
      if (mark === "-") removed++;
    }
    const before = body.filter((line) => !line.startsWith("+")).length;
    const after = body.filter((line) => !line.startsWith("-")).length;
    lines.push(`@@ -${before === 0 ? 0 : 1},${before} +${after === 0 ? 0 : 1},${after} @@`);
    bodyLines.push(...body.map((_, index) => lines.length + index));
    lines.push(...body);
  }
  return {
    lines: lines.map((line, index) => [line, !bodyLines.includes(index)]),
    file: { path, ...(kind === "plain" ? {} : { blobs }), added, removed },
  };
}

/**
 * git's combined diff of a file with a merge conflict (`diff --cc`): its lines count no file's
 * lines added or removed, and no hunk of its is a unified diff's.
 */
function combinedDiff(random: SeededRandom, path: string): string[] {
  const body = ["  fn load() {", "++<<<<<<< HEAD", " +    parse(a)", "++=======", "+     parse(b)"];
  return [
    `diff --cc ${path}`,
    `index ${random.hex(9)},${random.hex(9)}..0000000`,
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@@ -1,3 -1,3 +1,7 @@@",
    ...body,
    "++>>>>>>> feature",
    "  }",
  ];
}

Deno.test("a diff's files are read with their names, blobs and the lines they add and remove", () => {
  const random = new SeededRandom(16);
  for (let trial = 0; trial < 300; trial++) {
    const paths = ["src/a.py", "docs/read me.md", "lib/x.go", "t/test_b.py"].slice(
      0,
      random.range(1, 4),
    );
    const diffs = paths.map((path) => fileDiff(random, path.replace(" ", "_")));
    const lines: [string, boolean][] = [
      ["$ git diff", true],
      ...diffs.flatMap((diff) => diff.lines),
      ["2 files changed", true],
    ];
    const text = lines.map(([line]) => line).join("\n");
    // A merge's combined diff states no counts: its file is none of the diff's files.
    assert.deepEqual(diffFiles(text), diffs.flatMap((diff) => diff.file ?? []), text);
    // Every line of a hunk lies in a body, and no header does.
    const bodies = hunkBodies(text);
    let at = 0;
    for (const [line, header] of lines) {
      const inBody = bodies.some(([from, to]) => at >= from && at < to);
      assert.equal(inBody, !header, `${JSON.stringify(line)} in ${text}`);
      at += line.length + 1;
    }
  }
});
