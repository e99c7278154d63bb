/**
 * `deno task mutants`: whether the tests can fail. For each mutant of `mutants.ts` it copies the
 * checkout's source and tests to a temporary directory, makes the mutant's edits there and runs the
 * projector's quick tests (`TESTS`) on the copy; a mutant the tests all pass on survived. An
 * unmutated copy runs first, so a kill is the mutant's and not a broken copy's. Prints a line per
 * mutant with the tests that failed on it, and exits with 1 when the unmutated copy fails, a
 * mutant's text is not found, no test ran on a mutant or one survived.
 *
 * @module
 */
import { cp, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pooled } from "../bench/pooled.ts";
import { MUTANTS, mutatedFiles } from "./mutants.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What a copy holds of the checkout; `node_modules` is linked, not copied. */
const COPIED = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "package.json",
  "src",
  "plugin",
  "tests",
  "bench",
];

/** The quick tests of the projector, its merging and its proofs, run on every mutant. */
const TESTS = [
  "tests/core",
  "tests/compaction",
  "tests/bench/golden_test.ts",
  "tests/bench/proofs_test.ts",
  "tests/bench/recall_test.ts",
  "src/core",
];

/** The tests' environment: `deno task test`'s, with a fuzz test of fewer windows. */
const TEST_ENV = { TZ: "UTC", LC_ALL: "C", FUZZ_WINDOWS: "500" };

/** How a run of `TESTS` on one copy ended. */
type TestRun =
  | { readonly ran: true; readonly failed: readonly string[] }
  | { readonly ran: false; readonly output: string };

/**
 * The failed tests a `deno test` report lists (its FAILURES section, `name => ./file:line:col`),
 * each once however many of its steps failed, or `undefined` when the report has no summary line
 * (no test ran).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failedTests } from "./mutation_check.ts";
 * const report = " FAILURES \n\nfits => ./tests/a_test.ts:3:6\n" +
 *   "reads ... case 1 => ./tests/b_test.ts:9:13\nreads ... case 2 => ./tests/b_test.ts:9:13\n\n" +
 *   "FAILED | 1 passed | 2 failed (1s)\n";
 * assert.deepEqual(failedTests(report), ["fits (tests/a_test.ts)", "reads (tests/b_test.ts)"]);
 * assert.equal(failedTests("error: The module's source code could not be parsed"), undefined);
 * ```
 */
export function failedTests(report: string): string[] | undefined {
  if (!/^(ok|FAILED) \| \d+ passed/m.test(report)) return undefined;
  const failures = report.split(/^ FAILURES $/m)[1] ?? "";
  const tests = [...failures.matchAll(/^(.+?)(?: \.\.\. .*)? => \.\/(\S+?):\d+:\d+$/gm)]
    .map(([, name = "", file = ""]) => name === file ? name : `${name} (${file})`);
  return [...new Set(tests)];
}

/** Runs `TESTS` on a copy of the checkout with `files` (path and text) written over its own. */
async function runOnCopy(files: ReadonlyMap<string, string>): Promise<TestRun> {
  const copy = await Deno.makeTempDir({ prefix: "vcc-mutant-" });
  try {
    for (const path of COPIED) await cp(join(ROOT, path), join(copy, path), { recursive: true });
    await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
    for (const [path, text] of files) await Deno.writeTextFile(join(copy, path), text);
    const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      // Type errors are no test failing: a mutant is run as it is.
      args: [
        "test",
        "--no-check",
        "--doc",
        "--allow-read",
        "--allow-write",
        "--allow-run",
        "--allow-env",
        "--allow-net=127.0.0.1",
        ...TESTS,
      ],
      cwd: copy,
      env: { ...TEST_ENV, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    // Test names as in the checkout, doc tests' included.
    const output = (new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr))
      .replaceAll(`file://${copy}/`, "");
    const failed = failedTests(output);
    // What a run that ran no test printed last says why.
    const tail = output.trimEnd().split("\n").slice(-30).join("\n");
    return failed === undefined ? { ran: false, output: tail } : { ran: true, failed };
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

/** Runs the check and prints its report; the exit code is 0 when every mutant was killed. */
export async function mutationCheck(width = navigator.hardwareConcurrency): Promise<number> {
  const began = performance.now();
  // Every mutant's text is found before any test runs.
  const mutated = await Promise.all(MUTANTS.map((mutant) => mutatedFiles(ROOT, mutant)));
  const [baseline, ...runs] = await pooled(
    [new Map(), ...mutated].map((files) => () => runOnCopy(files)),
    width,
  );
  const lines: string[] = [];
  let problems = 0;
  if (!baseline!.ran) {
    problems++;
    lines.push(`mutants: no test ran on the unmutated copy:\n${baseline!.output}`);
  } else if (baseline!.failed.length > 0) {
    problems++;
    lines.push(`mutants: tests fail on the unmutated copy: ${baseline!.failed.join("; ")}`);
  }
  MUTANTS.forEach((mutant, index) => {
    const run = runs[index]!;
    if (!run.ran) {
      problems++;
      lines.push(`no test ran: ${mutant.name}\n${run.output}`);
    } else if (run.failed.length === 0) {
      problems++;
      lines.push(`SURVIVED: ${mutant.name}`);
    } else {
      const tests = run.failed.length === 1 ? "1 test" : `${run.failed.length} tests`;
      lines.push(`killed: ${mutant.name}, by ${tests}:`, ...run.failed.map((test) => `  ${test}`));
    }
  });
  const seconds = Math.round((performance.now() - began) / 1000);
  lines.push(`mutants: ${MUTANTS.length} mutants, ${problems} problems, in ${seconds} s`);
  // deno-lint-ignore no-console
  console.log(lines.join("\n"));
  return problems === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await mutationCheck());
