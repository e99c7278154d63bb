/**
 * Runs the plugin's fast-anchor tests (tests/plugin/test_fast_anchors.py) under every installed
 * Hermes that has Hermes's anchor builder (`.ci/hermes.sh` installs one; CI always runs it), so
 * the engine is checked against Hermes's real builder and lean augmentation.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { findAnchorReferences } from "./anchors/anchor_reference.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const references = await findAnchorReferences();

Deno.test({
  name: references.length > 0
    ? "plugin fast anchors pass against Hermes's own anchor builder"
    : "plugin fast anchors against Hermes's own anchor builder (ignored: no installed Hermes " +
      "has _build_anchor_index; run .ci/hermes.sh)",
  ignore: references.length === 0,
  async fn(t) {
    // The Deno running this test comes first on PATH, so the plugin starts `vcc serve` with it.
    const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
    for (const { release, name, python } of references) {
      await t.step(name, async () => {
        const pytest = new Deno.Command(python, {
          args: [
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rs",
            "tests/plugin/test_fast_anchors.py",
          ],
          cwd: repo,
          env: { PATH: path, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
          stdout: "inherit",
          stderr: "inherit",
        });
        const { code } = await pytest.spawn().status;
        assert.equal(code, 0, `pytest under ${release} exited with code ${code}; see above`);
      });
    }
  },
});
