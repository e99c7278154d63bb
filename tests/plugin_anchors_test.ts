/**
 * Runs the plugin's fast-anchor tests (tests/plugin/test_fast_anchors.py) under every installed
 * Hermes that has Hermes's anchor builder (`.ci/hermes.sh` installs one; CI always runs it), so
 * the engine is checked against Hermes's real builder and lean augmentation.
 */
import { findAnchorReferences } from "./anchors/anchor_reference.ts";
import { runPytest } from "./support/hermes_releases.ts";

const references = await findAnchorReferences();

Deno.test({
  name: references.length > 0
    ? "plugin fast anchors pass against Hermes's own anchor builder"
    : "plugin fast anchors against Hermes's own anchor builder (ignored: no installed Hermes " +
      "has _build_anchor_index; run .ci/hermes.sh)",
  ignore: references.length === 0,
  async fn(t) {
    for (const { name, python } of references) {
      await t.step(
        name,
        () => runPytest(python, ["-q", "-rs", "tests/plugin/test_fast_anchors.py"]),
      );
    }
  },
});
