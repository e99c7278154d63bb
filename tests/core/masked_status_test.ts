/**
 * A command line that exits 0 is stated as a success only when no work in it failed: lines are
 * generated from work steps that pass or fail, programs that pass output on, fallbacks and shell
 * setup, joined in every way a line joins them, and run by bash with stand-ins for the work
 * programs that record their own failures. The oracle is what bash did: the line's exit code and
 * whether a work step failed.
 */
import assert from "node:assert/strict";
import { readOutcome } from "../../src/core/outcome.ts";
import { describeState } from "../../src/core/outcome_words.ts";
import { SeededRandom } from "../../src/sample/random.ts";

// Stand-ins for programs that do work: each fails when its arguments name `bad`, and then writes
// `failed` to the file `$FAILURES` names.
const STAND_INS = ["pytest", "make", "npm", "cargo"].map((program) =>
  `${program}() { if [[ "$*" == *bad* ]]; then echo "1 failed in 0.1s"; echo failed >> "$FAILURES"; ` +
  `return 1; fi; echo "3 passed in 0.1s"; }`
).join("\n");

const WORK = ["pytest -q tests/{}.py", "make {}", "npm test -- {}", "cargo test {}"];
const PASSERS = ["tail -1", "head -5", "tee out.log", "cat"];
const OTHERS = ["echo done", "true", "export CI=1", "cd .", "sleep 0", "ls > /dev/null"];
const JOINS = [" && ", " || ", "; ", "\n", " | "];

/** A generated line: steps joined, each work step passing or failing. */
function line(random: SeededRandom): string {
  const steps = Array.from(
    { length: random.range(2, 4) },
    () =>
      random.chance(0.5)
        ? random.pick(WORK).replace("{}", random.chance(0.5) ? "bad" : "good")
        : random.pick([...PASSERS, ...OTHERS]),
  );
  let text = steps[0] as string;
  for (const step of steps.slice(1)) {
    const join = random.pick(JOINS);
    // A pipe into a work step or setup is read as its work; a passer is piped into.
    text += `${join}${join === " | " ? random.pick(PASSERS) : step}`;
  }
  return text;
}

Deno.test("a line that exits 0 is no success when work in it failed (bash is the oracle)", async () => {
  const random = new SeededRandom(23);
  const dir = await Deno.makeTempDir({ prefix: "vcc-masked-" });
  try {
    let hidden = 0;
    for (let trial = 0; trial < 120; trial++) {
      const command = line(random);
      const failures = `${dir}/failures-${trial}`;
      const run = await new Deno.Command("bash", {
        args: ["-c", `${STAND_INS}\n${command}`],
        cwd: dir,
        env: { FAILURES: failures },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const output = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      const workFailed = await Deno.stat(failures).then(() => true, () => false);
      const outcome = readOutcome(JSON.stringify({ output, exit_code: run.code }), {
        command: true,
        commandLine: command,
      });
      const stated = describeState(outcome);
      if (run.code !== 0) {
        assert.match(stated, new RegExp(`^failed \\(exit ${run.code}\\)`), command);
      } else if (workFailed) {
        hidden++;
        assert.doesNotMatch(stated, /^succeeded/, `${JSON.stringify(command)}: ${stated}`);
      }
    }
    // The generator makes lines whose status hides a failure: the test is not empty.
    assert.ok(hidden >= 10, `${hidden} lines hid a failure`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
