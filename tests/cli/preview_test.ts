/**
 * `vcc preview` shows what the plugin would write: the window Hermes would hand over, read against
 * the store as `vcc serve` reads it, so a result Hermes saved to a file is stated as the output
 * the file holds. The oracle is the test run each case generates and saves.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SPILLOVER_DIR } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { type FixtureRow, writeStore } from "../../src/store/fixture/mod.ts";
import { persistedBlock, testRun } from "../support/persisted_output.ts";
import { runVccOnStore } from "../support/vcc_harness.ts";

/** A session whose test run, saved to a file, lies between earlier turns and later ones. */
function session(random: SeededRandom, block: string): FixtureRow[] {
  const turn = (index: number): FixtureRow[] => [
    { role: "user", content: `Step ${index}: check module_${random.hex(4)} and report.` },
    { role: "assistant", content: `Checked it; ${"nothing else changed there. ".repeat(8)}` },
  ];
  return [
    ...turn(1),
    ...turn(2),
    ...turn(3),
    {
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "call_9",
        type: "function",
        function: {
          name: "terminal",
          arguments: JSON.stringify({ command: "python -m pytest -q" }),
        },
      }],
    },
    { role: "tool", tool_call_id: "call_9", tool_name: "terminal", content: block },
    ...Array.from({ length: 14 }, (_, index) => turn(index + 4)).flat(),
  ];
}

Deno.test("vcc preview states a saved test run as its file holds it, on generated runs", async () => {
  for (let seed = 1; seed <= 4; seed++) {
    const random = new SeededRandom(seed);
    const home = Deno.makeTempDirSync({ prefix: "vcc-preview-" });
    const store = join(home, "state.db");
    Deno.mkdirSync(join(home, SPILLOVER_DIR), { recursive: true });
    const output = testRun(random, random.pick([1, 3]));
    const content = JSON.stringify({ output, exit_code: 1, error: null });
    const saved = join(home, SPILLOVER_DIR, "call_9.txt");
    Deno.writeTextFileSync(saved, content);
    const block = persistedBlock(content, saved);
    const tally = output.slice(output.lastIndexOf("\n") + 1);
    assert.ok(!block.includes(tally), `seed ${seed}: the block's preview holds no tally`);
    writeStore(store, "v31", [{ id: "s", startedAt: 1000, rows: session(random, block) }]);

    const args = ["preview", "s", "--db", store, "--context-tokens", "4000"];
    const run = await runVccOnStore(store, [...args, "--budget-tokens", "3000"]);
    assert.equal(run.code, 0, run.stderr);
    const line = run.stdout.split("\n").find((text) => text.includes("pytest")) ?? "";
    assert.match(line, /failed \(exit 1\)/, `seed ${seed}: ${line}\n${run.stdout}`);
    assert.ok(run.stdout.includes(tally), `seed ${seed}: ${tally} in\n${run.stdout}`);
  }
});
