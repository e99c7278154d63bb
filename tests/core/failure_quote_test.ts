/**
 * What a failed command's line quotes: the lines of its output that name the error, including a
 * program's report in its own words that carries no error word, wherever the output puts it among
 * lines that do not name one.
 */
import assert from "node:assert/strict";
import { project } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { callRows } from "../support/call_rows.ts";

const REPORTS = [
  "patch: **** malformed patch at line 79: @@ -1,3 +1,4 @@",
  "patch: **** Only garbage was found in the patch input.",
  "make: *** [Makefile:12: test] Error 2",
];
const AROUND = ["patching file src/a.py", "checking file docs/b.md", "Hunk #1 succeeded at 4.", ""];

Deno.test("a failed command's line quotes the report its program wrote in its own words", () => {
  const random = new SeededRandom(37);
  for (let trial = 0; trial < 60; trial++) {
    const report = random.pick(REPORTS);
    const lines = Array.from({ length: random.range(0, 6) }, () => random.pick(AROUND));
    lines.splice(random.int(lines.length + 1), 0, report);
    const window = [
      { role: "user", content: "Apply the fix.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "patch -p1 < fix.diff" }, {
        output: lines.join("\n"),
        exit_code: 2,
      }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const fixes = body.split("## Errors & Fixes\n")[1]!.split("\n\n")[0]!;
    assert.ok(fixes.includes(`— failed (exit 2) [#3]: ${report}`), `${lines.join("\n")}\n${fixes}`);
  }
});

const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'rate')",
  "java.lang.IllegalStateException: ledger closed",
  "Error: connect ECONNREFUSED 127.0.0.1:5432",
  "panic: runtime error: index out of range [3] with length 3",
];
// Stack frames whose functions or files hold error words: where the error passed, not what it was.
const FRAMES = [
  "    at Object.get error [as error] (node_modules/zod/lib/types.js:55:31)",
  "    at handleError (/srv/app/src/errors.ts:12:9)",
  "    at processTicksAndRejections (node:internal/process/task_queues:95:5)",
  "\tat com.acme.ErrorHandler.handle(ErrorHandler.java:42)",
  "    at FailFastRunner.run (node_modules/runner/index.js:3:1)",
  "panic({0x9c2a40?, 0xe51c70?})",
  "\t/usr/local/go/src/runtime/panic.go:770 +0x132",
  "github.com/acme/shipd/internal/errors.Wrap(...)",
];

Deno.test("a failed command's line quotes its error, not the stack frames printed after it", () => {
  const random = new SeededRandom(41);
  for (let trial = 0; trial < 60; trial++) {
    const error = random.pick(ERRORS);
    const frames = Array.from({ length: random.range(1, 8) }, () => random.pick(FRAMES));
    const window = [
      { role: "user", content: "Run the service tests.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "npm test" }, {
        output: ["> app@1.0.0 test", error, ...frames].join("\n"),
        exit_code: 1,
      }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const fixes = body.split("## Errors & Fixes\n")[1]!.split("\n\n")[0]!;
    const quoted = fixes.slice(fixes.indexOf("[#3]: ") + 6);
    assert.ok(quoted.includes(error), `${fixes}`);
    assert.doesNotMatch(quoted, /\bat \S+.*:\d+|0x[0-9a-f]+|\.go:\d+/, fixes);
  }
});

// Maven's words after a failure: how to learn more or go on, none of them the error.
const MAVEN_HELP = [
  "[ERROR] -> [Help 1]",
  "[ERROR] ",
  "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
  "[ERROR] Re-run Maven using the -X switch to enable full debug logging.",
  "[ERROR] For more information about the errors and possible solutions, please read the following articles:",
  "[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException",
  "[ERROR] After correcting the problems, you can resume the build with the command",
  "[ERROR]   mvn <args> -rf :order-domain",
];

Deno.test("a failed Maven build's line quotes its error, not the help Maven prints after it", () => {
  const random = new SeededRandom(43);
  for (let trial = 0; trial < 30; trial++) {
    const module = random.pick(["order-domain", "order-service", "legacy-client"]);
    const error =
      `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:` +
      `compile (default-compile) on project ${module}: Compilation failure`;
    // The files a check failed on, indented under the report's tag, go on with it.
    const listed = Array.from(
      { length: random.range(0, 3) },
      (_, index) => `[ERROR]     src/main/java/com/acme/C${index}.java`,
    );
    const help = MAVEN_HELP.filter(() => random.int(4) > 0);
    const output = ["[INFO] BUILD FAILURE", error, ...listed, ...help].join("\n");
    const window = [
      { role: "user", content: "Build it.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "mvn -B verify" }, { output, exit_code: 1 }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 4000 });
    const fixes = body.split("## Errors & Fixes\n")[1]!.split("\n\n")[0]!;
    assert.ok(fixes.includes(error.slice(0, 60)), `${output}\n${fixes}`);
    for (const aside of [...help, ...listed].filter((line) => line.trim() !== "[ERROR]")) {
      assert.ok(!fixes.includes(aside.slice("[ERROR] ".length).trim()), `${aside}\n${fixes}`);
      assert.ok(!body.includes(`- ${aside.trim()}`), `${aside}\n${body}`);
    }
  }
});

Deno.test("a failed Gradle build's line quotes the Kotlin compiler's reports, not Gradle's that the task failed", () => {
  const random = new SeededRandom(41);
  for (let trial = 0; trial < 30; trial++) {
    const module = random.pick(["billing-client", "core", "api"]);
    const reports = Array.from(
      { length: random.range(1, 3) },
      (_, index) =>
        `e: file:///home/dev/ledgerd/${module}/src/main/kotlin/X${index}.kt:${
          random.range(1, 300)
        }:${random.range(1, 40)} Unresolved reference: ${
          random.pick(["toMinorUnits", "ledgerId", "split"])
        }`,
    );
    const output = [
      `> Task :${module}:compileKotlin FAILED`,
      ...reports,
      "",
      "FAILURE: Build failed with an exception.",
      "",
      "* What went wrong:",
      `Execution failed for task ':${module}:compileKotlin'.`,
      "> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction",
      "   > Compilation error. See log for more details",
      "",
      `BUILD FAILED in ${random.range(1, 59)}s`,
    ].join("\n");
    const window = [
      { role: "user", content: "Build it.", _row_id: 1 },
      ...callRows(2, "terminal", { command: "./gradlew build" }, { output, exit_code: 1 }),
    ];
    const { body } = project(window, { sessionId: "s", budgetTokens: 8000 });
    const fixes = body.split("## Errors & Fixes\n")[1]!.split("\n\n")[0]!;
    assert.ok(fixes.includes(`— failed (exit 1) [#3]: ${reports[0]}`), `${output}\n${fixes}`);
    const seen = body.split("## Errors Seen\n")[1]!.split("\n\n")[0]!;
    for (const report of reports) assert.ok(seen.includes(`- ${report}`), `${report}\n${seen}`);
  }
});
