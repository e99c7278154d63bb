/**
 * hermesTokens() counts a window as Hermes does: the counts in tests/shared/hermes_tokens.json come
 * from Hermes itself (the Hermes integration tests check each installed release against them).
 */
import assert from "node:assert/strict";
import { hermesTokens, pythonNumberText } from "../../src/compaction/hermes_tokens.ts";
import type { HermesTokenCases } from "../../src/tooling/hermes_token_cases.ts";

const shared: HermesTokenCases = JSON.parse(
  await Deno.readTextFile(new URL("../shared/hermes_tokens.json", import.meta.url)),
);

Deno.test(`hermesTokens() gives ${shared.model}'s count for every shared case`, async (t) => {
  for (const { what, messages, tokens } of shared.cases) {
    await t.step(what, () => {
      assert.equal(hermesTokens(messages), tokens?.[shared.model], what);
    });
  }
});

Deno.test("hermesTokens() leaves out vcc's _row_id, which Hermes never counts", () => {
  const rows = [{ role: "user", content: "Fix the build" }, { role: "assistant", content: "ok" }];
  const withIds = rows.map((row, index) => ({ ...row, _row_id: 1000 + index }));
  assert.equal(hermesTokens(withIds), hermesTokens(rows));
});

Deno.test("pythonNumberText() writes numbers as Python's str() does", () => {
  const cases: [number, string][] = [
    [2, "2"],
    [-3, "-3"],
    [0.25, "0.25"],
    [-3.5, "-3.5"],
    [123.456, "123.456"],
    [1e-5, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [0.0001, "0.0001"],
    [1234567.125, "1234567.125"],
  ];
  for (const [value, text] of cases) assert.equal(pythonNumberText(value), text, String(value));
});
