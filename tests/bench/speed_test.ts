/** `vcc bench speed`: timings by window size, in process and through `vcc serve`. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { distribution, measureSpeed } from "../../src/bench/speed.ts";
import { ServeClient } from "../../src/bridge/client.ts";
import { scriptRunner } from "../../src/hermes/self_command.ts";
import { project } from "../../src/core/mod.ts";
import { generateWindow } from "../../src/sample/mod.ts";
import { runVcc } from "../support/vcc_harness.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const SERVE = [...scriptRunner(), MAIN, "serve"];

Deno.test("measureSpeed() reports one distribution per size, in process and through serve", async () => {
  await using server = await ServeClient.start(SERVE);
  const rows = await measureSpeed({ sizes: [1_000, 8_000], windows: 2, repeats: 2, serve: server });
  assert.deepEqual(rows.map((row) => row.tokens), [1_000, 8_000]);
  for (const row of rows) {
    assert.equal(row.inProcess.n, 4);
    assert.equal(row.serve?.n, 4);
    assert.ok(row.inProcess.min <= row.inProcess.p50 && row.inProcess.p50 <= row.inProcess.max);
    assert.ok(Math.abs(row.chars / 4 / row.tokens - 1) < 0.1);
  }
});

Deno.test("ServeClient.project() returns the same body as the in-process projector", async () => {
  await using server = await ServeClient.start(SERVE);
  const window = generateWindow({ seed: 4, targetTokens: 6_000, rowIdStart: 500 });
  const options = { sessionId: "s1", budgetTokens: 1_500, focus: "parser" };
  assert.equal((await server.project(window, options)).body, project(window, options).body);
});

Deno.test("distribution() uses nearest ranks", () => {
  assert.deepEqual(distribution([5, 1, 4, 2, 3, 6, 7, 8, 9, 10]), {
    n: 10,
    min: 1,
    p50: 5,
    p90: 9,
    max: 10,
  });
});

Deno.test("vcc bench speed --no-serve prints a table and saves the timings privately", async () => {
  const cache = Deno.makeTempDirSync();
  const args = ["bench", "speed", "--no-serve", "--max-tokens", "4000", "--windows", "1"];
  const run = await runVcc(args, cache);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^TOKENS\s+MB\s+N\s+P50 MS/);
  assert.match(run.stdout, /^1000\s+0\.00\s+3\s/m);
  assert.equal(Deno.statSync(`${cache}/vcc/speed.json`).mode! & 0o777, 0o600);
});
