/**
 * What a command printed as an error, as opposed to what it showed: the lines of files people
 * write (source, configuration, documentation) printed or searched by a command, and the lines of
 * a diff's hunks, are content, whatever words they hold; a log's lines, a program's own reports
 * and anything printed outside a hunk are errors where they read as one. Commands, files and
 * outputs are generated; what each case must give is stated by the case, not by the code.
 */
import assert from "node:assert/strict";
import { commandErrorLines } from "../../src/core/error_output.ts";
import { errorLines } from "../../src/core/error_lines.ts";

// Lines that read as error lines wherever they are printed.
const ERRORISH = [
  "ERROR payment declined order=A-1204",
  "    # FAIL when the cache is empty",
  "KeyError: 'sku'",
  "fatal: not a git repository",
];
const WRITTEN = ["src/app/config.py", "tests/test_io.py", "deploy/settings.yaml", "README.md"];
const LOGS = ["logs/app.log", "/var/log/syslog", "build/output.txt"];
const PRINTERS = [
  (file: string) => `cat ${file}`,
  (file: string) => `sed -n 1,80p ${file}`,
  (file: string) => `head -n 40 ${file}`,
  (file: string) => `tail -50 ${file}`,
  (file: string) => `cd /repo && nl ${file} | head -20`,
  (file: string) => `grep -n -C2 "order" ${file}`,
];

Deno.test("a file people write, printed or searched, holds no errors; a log shown keeps them", () => {
  for (const print of PRINTERS) {
    for (const line of ERRORISH) {
      const output = `first line\n${line}\nlast line`;
      for (const file of WRITTEN) {
        assert.deepEqual(commandErrorLines(print(file), output), [], print(file));
      }
      for (const file of LOGS) {
        assert.equal(commandErrorLines(print(file), output).length, 1, `${print(file)}: ${line}`);
      }
    }
  }
});

Deno.test("a printing program's own report of a file it could not read is an error", () => {
  for (const file of WRITTEN) {
    const report = `cat: ${file}: No such file or directory`;
    assert.deepEqual(commandErrorLines(`cat ${file}`, report).map((line) => line.text), [report]);
  }
});

Deno.test("a command that writes a file or runs more than printers is read for errors", () => {
  const output = "Traceback (most recent call last):\nKeyError: 'sku'";
  for (const file of WRITTEN) {
    for (
      const command of [
        `cat > ${file} << 'EOF'\nprint(1)\nEOF\npython ${file}`,
        `cat ${file} && python ${file}`,
        `python ${file} | tail -5`,
      ]
    ) {
      assert.equal(commandErrorLines(command, output).length, 1, command);
    }
  }
});

Deno.test("a search's hits in files people write are no errors; hits in logs are", () => {
  for (const written of WRITTEN) {
    for (const log of LOGS) {
      const output = [`${written}:12:    # FAIL when empty`, `${log}:9:ERROR disk full`].join("\n");
      const found = commandErrorLines(`grep -rn -e FAIL -e ERROR src ${log}`, output);
      assert.deepEqual(found.map((line) => line.text), [`${log}:9:ERROR disk full`]);
    }
  }
});

/** A unified diff of `hunks` hunks, each with lines of every kind holding error-like words. */
function diff(hunks: number, seed: number): string {
  const lines = [
    "diff --git a/t.py b/t.py",
    "index 3a8593e..c1ece72 100644",
    "--- a/t.py",
    "+++ b/t.py",
  ];
  for (let hunk = 0; hunk < hunks; hunk++) {
    const body = [...ERRORISH.map((line, index) => "+-  "[(index + seed + hunk) % 4] + line)];
    // An empty context line, as some tools print one.
    body.push("");
    const before = body.filter((line) => !line.startsWith("+")).length;
    const after = body.filter((line) => !line.startsWith("-")).length;
    lines.push(`@@ -${10 * hunk + 1},${before} +${10 * hunk + 1},${after} @@ def f():`, ...body);
  }
  return lines.join("\n");
}

Deno.test("the lines of a diff's hunks are code, not errors; what follows the diff is read", () => {
  for (let hunks = 1; hunks <= 4; hunks++) {
    for (let seed = 0; seed < 4; seed++) {
      const text = diff(hunks, seed);
      assert.deepEqual(errorLines(text), [], text);
      const after = `${text}\nERROR after the diff\nfatal: bad revision`;
      assert.deepEqual(errorLines(after).map((line) => line.text), [
        "ERROR after the diff",
        "fatal: bad revision",
      ]);
    }
  }
});
