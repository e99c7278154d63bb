/**
 * The files a command line changes where they are: generated lines, each built from steps whose
 * effect on files the step states itself (what it edits in place or removes, or the directory it
 * changes to), joined in every way a shell line joins them, with a leading `cd` and here-documents
 * whose bodies hold words that would change files if they were commands. A file named from a
 * directory the line names absolutely is that directory's; one in the home directory is named as
 * written.
 */
import assert from "node:assert/strict";
import { type CommandFile, commandFiles } from "../../src/core/command_files.ts";
import { SeededRandom } from "../../src/sample/random.ts";

/** A step of a line and what it does to files, or the directory it changes to. */
interface Step {
  readonly text: string;
  readonly files: readonly CommandFile[];
  readonly cd?: string;
}

const FILES = [
  "src/app.py",
  "notes.txt",
  "/srv/pkg/mod/util.go",
  "README.md",
  "out/result.json",
  "~/.cache/hub/models--llama",
  "config.yml~",
];

const STEPS: ReadonlyArray<(file: string, other: string) => Step> = [
  (file) => ({ text: `sed -i 's/old/new/g' ${file}`, files: [{ path: file, change: "modified" }] }),
  (file) => ({
    text: `sed -i.bak -e 's/a/b/' ${file}`,
    files: [{ path: file, change: "modified" }],
  }),
  (file, other) => ({
    text: `sed --in-place 's/a/b/' ${file} ${other} 2>&1`,
    files: [{ path: file, change: "modified" }, { path: other, change: "modified" }],
  }),
  (file) => ({ text: `perl -pi -e 's/a/b/' ${file}`, files: [{ path: file, change: "modified" }] }),
  (file) => ({ text: `rm -f ${file}`, files: [{ path: file, change: "deleted" }] }),
  (file, other) => ({
    text: `rm -rf ${file} ${other} > /dev/null`,
    files: [{ path: file, change: "deleted" }, { path: other, change: "deleted" }],
  }),
  (file) => ({
    text: `cat > ${file} << 'EOF'\nrm -rf everything\nsed -i 's/a/b/' x.py\nEOF`,
    files: [],
  }),
  (file) => ({ text: `git diff > ${file}`, files: [] }),
  (file, other) => ({ text: `cp ${file} ${other}`, files: [] }),
  (file) => ({ text: `sed -n '1,20p' ${file}`, files: [] }),
  (file) => ({ text: `python -m pytest ${file} 2>/dev/null`, files: [] }),
  () => ({ text: "rm -rf build/*.o", files: [] }),
  () => ({ text: "cd lib", files: [], cd: "lib" }),
  () => ({ text: "cd /opt/tool", files: [], cd: "/opt/tool" }),
  () => ({ text: "cd ~/other", files: [], cd: "~/other" }),
];
// Where a line starts: nowhere named, in a directory it names absolutely, or one it does not.
const STARTS = [undefined, "/srv/app", "~/app"];
const JOINS = [" && ", "; ", "\n", " || ", " | "];

Deno.test("a command line's changed files are what its steps edit in place and remove", () => {
  const random = new SeededRandom(16);
  for (let trial = 0; trial < 400; trial++) {
    const steps = Array.from(
      { length: 1 + random.int(3) },
      () => random.pick(STEPS)(random.pick(FILES), random.pick(FILES)),
    );
    // A here-document ends with its closing word alone on its line; the steps after a `cd` run
    // in its directory (`&&`).
    const joined = steps.map((step, index) => {
      const before = steps[index - 1];
      if (before === undefined) return step.text;
      const join = before.text.endsWith("EOF")
        ? "\n"
        : before.cd !== undefined || step.cd !== undefined
        ? " && "
        : random.pick(JOINS);
      return `${join}${step.text}`;
    }).join("");
    const start = random.pick(STARTS);
    const line = start === undefined ? joined : `cd ${start} && ${joined}`;
    // Files named from a directory the line names absolutely are that directory's.
    let directory = start?.startsWith("/") ? start : undefined;
    const expected: CommandFile[] = [];
    for (const step of steps) {
      if (step.cd !== undefined) {
        directory = step.cd.startsWith("/")
          ? step.cd
          : step.cd.startsWith("~") || directory === undefined
          ? undefined
          : `${directory}/${step.cd}`;
      }
      for (const named of step.files) {
        // A path in the home directory is named as written, wherever the line runs.
        const path = /^[/~]/.test(named.path) || directory === undefined
          ? named.path
          : `${directory}/${named.path}`;
        if (!expected.some((seen) => seen.path === path && seen.change === named.change)) {
          expected.push({ path, change: named.change });
        }
      }
    }
    assert.deepEqual(commandFiles(line), expected, JSON.stringify(line));
  }
});

Deno.test("a line the reader cannot follow changes no file it could name", () => {
  for (
    const line of [
      "sed -i 's/a/b/' $(ls *.py)",
      "rm -f `cat list.txt`",
      "sed -i 's/a/b/ unterminated.py",
      "rm -rf ~ $HOME/tmp ~dev/cache",
    ]
  ) {
    assert.deepEqual(commandFiles(line), [], line);
  }
});
