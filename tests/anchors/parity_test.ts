/**
 * buildAnchorIndex() gives the same bytes as Hermes's own `_build_anchor_index` on generated
 * sessions, hand-made edge cases and random windows. Runs against every installed Hermes that
 * has the builder (`.ci/hermes.sh` installs one; CI always runs it).
 */
import assert from "node:assert/strict";
import { buildAnchorIndex } from "../../src/anchors/mod.ts";
import { findAnchorReferences, runReference } from "./anchor_reference.ts";
import { EDGE_WINDOWS, EXPECTED_CASES, generatedWindows, randomWindows } from "./anchor_windows.ts";

/** Inputs Hermes's builder raises on; ours must throw too. */
const RAISING_WINDOWS: Readonly<Record<string, unknown>> = {
  "turns is null": null,
  "a row is a string": [{ role: "user", content: "#1234" }, "not a message"],
  "a row is null": [null],
  "a row is a list": [[{ role: "user", content: "#1234" }]],
};

const WINDOWS: Readonly<Record<string, unknown>> = {
  ...EDGE_WINDOWS,
  ...Object.fromEntries(EXPECTED_CASES.map(([name, turns]) => [`expected: ${name}`, turns])),
  ...generatedWindows(),
  ...randomWindows(400, 20_251_130),
  ...RAISING_WINDOWS,
};

const references = await findAnchorReferences();

Deno.test({
  name: references.length > 0
    ? "buildAnchorIndex() matches Hermes's _build_anchor_index byte for byte"
    : "buildAnchorIndex() matches Hermes's _build_anchor_index (ignored: no installed Hermes " +
      "has _build_anchor_index; run .ci/hermes.sh)",
  ignore: references.length === 0,
  async fn(t) {
    for (const reference of references) {
      await t.step(`against ${reference.name}`, async () => {
        const expected = await runReference(reference, WINDOWS);
        const mismatches: string[] = [];
        for (const [name, turns] of Object.entries(WINDOWS)) {
          const want = expected[name];
          assert.ok(want !== undefined, `no reference result for ${name}`);
          if ("error" in want) {
            assert.throws(() => buildAnchorIndex(turns), TypeError, `${name} (${want.error})`);
          } else if (buildAnchorIndex(turns) !== want.index) {
            mismatches.push(name);
          }
        }
        // Names first, so a failure says which windows differ; then the first difference.
        assert.deepEqual(mismatches, [], `windows that differ from ${reference.release}`);
      });
    }
  },
});

Deno.test("the parity windows cover every category and both empty and raising results", () => {
  const outputs = Object.entries(WINDOWS).flatMap(([name, turns]) =>
    name in RAISING_WINDOWS ? [] : [buildAnchorIndex(turns)]
  );
  assert.ok(Object.keys(WINDOWS).length >= 20 + 400);
  assert.ok(outputs.includes(""));
  for (const label of ["PRs/issues", "commits", "branches", "files", "errors", "handles", "urls"]) {
    assert.ok(outputs.some((out) => out.includes(`\n${label}: `)), label);
  }
});
