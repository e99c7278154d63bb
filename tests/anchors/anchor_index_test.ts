/** buildAnchorIndex(): Hermes's anchor index, checked here without Python. */
import assert from "node:assert/strict";
import { buildAnchorIndex } from "../../src/anchors/mod.ts";
import { EXPECTED_CASES, generatedWindows } from "./anchor_windows.ts";

Deno.test("buildAnchorIndex() builds Hermes's index for each rule", async (t) => {
  for (const [name, turns, expected] of EXPECTED_CASES) {
    await t.step(name, () => assert.equal(buildAnchorIndex(turns), expected));
  }
});

Deno.test("buildAnchorIndex() throws a TypeError where Hermes's builder raises", () => {
  for (const turns of [null, "text", { content: "#1234" }, [null], ["row"], [[]]]) {
    assert.throws(() => buildAnchorIndex(turns), TypeError, JSON.stringify(turns));
  }
});

Deno.test("buildAnchorIndex() keeps the category lines within 7,000 characters", () => {
  for (const [name, turns] of Object.entries(generatedWindows())) {
    const index = buildAnchorIndex(turns);
    const lines = index.split("\n").slice(3, -1);
    const size = lines.reduce((sum, line) => sum + [...line].length, 0);
    assert.ok(size <= 7_000, `${name}: ${size}`);
  }
});

Deno.test("buildAnchorIndex() does not depend on earlier calls", () => {
  const windows = Object.values(generatedWindows());
  const first = windows.map(buildAnchorIndex);
  assert.deepEqual([...windows].reverse().map(buildAnchorIndex).reverse(), first);
});
