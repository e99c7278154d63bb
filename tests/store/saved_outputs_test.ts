/**
 * The whole outputs behind Hermes's persisted-output blocks, read from the files Hermes saved them
 * to, and what the projection then states of the commands that printed them. Blocks are written
 * as Hermes writes them (`tools/tool_result_storage.py`: `generate_preview`,
 * `_build_persisted_message`); the oracle is the output each test generates and saves.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { project, SAVED_OUTPUT_FIELD, SPILLOVER_DIR } from "../../src/core/mod.ts";
import { SeededRandom } from "../../src/sample/random.ts";
import { withSavedOutputs } from "../../src/store/saved_outputs.ts";
import { persistedBlock, testRun } from "../support/persisted_output.ts";

/** A home with a store path in it and its spillover folder created. */
function hermesHome(): { home: string; store: string; spillover: string } {
  const home = Deno.makeTempDirSync();
  const spillover = join(home, SPILLOVER_DIR);
  Deno.mkdirSync(spillover, { recursive: true });
  return { home, store: join(home, "state.db"), spillover };
}

function window(block: string, command = "python -m pytest -q") {
  return [
    { role: "user", content: "Run the test suite and fix what fails.", _row_id: 1 },
    {
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "call_9",
        type: "function",
        function: { name: "terminal", arguments: JSON.stringify({ command }) },
      }],
      _row_id: 2,
    },
    { role: "tool", tool_call_id: "call_9", content: block, _row_id: 3 },
  ];
}

/** The Commands Run line of the window's one command. */
function commandLine(body: string): string {
  return body.split("\n").find((line) => line.includes("pytest") && line.includes("[#3]")) ?? "";
}

Deno.test("a saved test run is stated with the exit code and tally its file holds, on generated runs", () => {
  const { store, spillover } = hermesHome();
  for (let seed = 1; seed <= 30; seed++) {
    const random = new SeededRandom(seed);
    const failed = random.pick([0, 0, 1, 3]);
    const exitCode = failed > 0 ? 1 : 0;
    const output = testRun(random, failed);
    const content = JSON.stringify({ output, exit_code: exitCode, error: null });
    const path = join(spillover, `call_${seed}.txt`);
    Deno.writeTextFileSync(path, content);
    const block = persistedBlock(content, path, random.range(300, 1500));
    assert.ok(!block.includes('"exit_code"'), `seed ${seed}: the preview holds no exit code`);

    const read = withSavedOutputs(window(block), store);
    assert.equal((read[2] as Record<string, unknown>)[SAVED_OUTPUT_FIELD], content, `seed ${seed}`);
    const { body } = project(read, { sessionId: "s", budgetTokens: 4000 });
    const line = commandLine(body);
    assert.match(line, new RegExp(`\\(exit ${exitCode}\\)`), `seed ${seed}: ${line}`);
    assert.ok(body.includes(path), `seed ${seed}: the saved file is still named:\n${body}`);
    const tally = output.slice(output.lastIndexOf("\n") + 1);
    if (failed > 0) assert.ok(body.includes(tally), `seed ${seed}: ${tally} in\n${body}`);
  }
});

Deno.test("a block's own preview is what is read when no file matches it", () => {
  const { store, spillover } = hermesHome();
  const random = new SeededRandom(7);
  const content = JSON.stringify({ output: testRun(random, 2), exit_code: 1, error: null });
  const path = join(spillover, "call_9.txt");
  const block = persistedBlock(content, path);
  const other = JSON.stringify({ output: testRun(random, 0), exit_code: 0, error: null });
  const cases: Array<[string, () => void]> = [
    ["the file is gone", () => {}],
    // Another session's call of the same id saved its own output there.
    ["the file holds another output", () => Deno.writeTextFileSync(path, other)],
    [
      "the file holds more than the block states",
      () => Deno.writeTextFileSync(path, content + "\nmore"),
    ],
    ["a folder stands there", () => Deno.mkdirSync(path)],
  ];
  for (const [name, arrange] of cases) {
    Deno.removeSync(spillover, { recursive: true });
    Deno.mkdirSync(spillover);
    arrange();
    const read = withSavedOutputs(window(block), store);
    assert.equal((read[2] as Record<string, unknown>)[SAVED_OUTPUT_FIELD], undefined, name);
    const line = commandLine(project(read, { sessionId: "s", budgetTokens: 4000 }).body);
    assert.match(line, /no exit code/, `${name}: ${line}`);
  }
});

Deno.test("only Hermes's folders for saved outputs are read", () => {
  const { store } = hermesHome();
  const content = JSON.stringify({ output: testRun(new SeededRandom(3), 1), exit_code: 1 });
  const elsewhere = join(Deno.makeTempDirSync(), "notes", "call_9.txt");
  Deno.mkdirSync(join(elsewhere, ".."));
  Deno.writeTextFileSync(elsewhere, content);
  const read = withSavedOutputs(window(persistedBlock(content, elsewhere)), store);
  assert.equal((read[2] as Record<string, unknown>)[SAVED_OUTPUT_FIELD], undefined);
});

Deno.test("0.19's temporary folder and a sandbox's host copy are read", () => {
  const { store, spillover } = hermesHome();
  const content = JSON.stringify({ output: testRun(new SeededRandom(5), 1), exit_code: 1 });
  const temporary = join(Deno.makeTempDirSync(), "hermes-results", "call_9.txt");
  Deno.mkdirSync(join(temporary, ".."));
  Deno.writeTextFileSync(temporary, content);
  const host = join(spillover, "call_9.txt");
  Deno.writeTextFileSync(host, content);
  const mounted = `/root/.hermes/${SPILLOVER_DIR}/call_9.txt [host: ${host}]`;
  for (const path of [temporary, mounted]) {
    const read = withSavedOutputs(window(persistedBlock(content, path)), store);
    assert.equal((read[2] as Record<string, unknown>)[SAVED_OUTPUT_FIELD], content, path);
  }
});

Deno.test("a saved output larger than the most read for one stays its preview", () => {
  const { store, spillover } = hermesHome();
  const output = "x".repeat(9 * 1024 * 1024) + "\n1 failed, 2 passed";
  const content = JSON.stringify({ output, exit_code: 1 });
  const path = join(spillover, "call_9.txt");
  Deno.writeTextFileSync(path, content);
  const read = withSavedOutputs(window(persistedBlock(content, path)), store);
  assert.equal((read[2] as Record<string, unknown>)[SAVED_OUTPUT_FIELD], undefined);
});
