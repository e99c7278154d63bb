/**
 * Runs the Hermes plugin's Python tests (tests/plugin, pytest) as part of `deno test`, with the
 * interpreter of `.venv` when there is one, else `python3`. pytest writes to this process's
 * standard output, so its summary line reaches the CI log. Without pytest the test is ignored,
 * and its name says why and how to install it.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const venvPython = join(repo, ".venv", "bin", "python");
const python = (await Deno.stat(venvPython).catch(() => undefined)) ? venvPython : "python3";
const hasPytest = await new Deno.Command(python, {
  args: ["-c", "import pytest"],
  stdout: "null",
  stderr: "null",
}).output().then((output) => output.success, () => false);

Deno.test({
  name: hasPytest
    ? `plugin tests pass under pytest (${python})`
    : `plugin tests skipped: ${python} has no pytest ` +
      `(python3 -m venv .venv && .venv/bin/pip install pytest)`,
  ignore: !hasPytest,
  async fn() {
    // The Deno running this test comes first on PATH, so the plugin starts `vcc serve` with it.
    const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
    const pytest = new Deno.Command(python, {
      args: ["-m", "pytest", "-p", "no:cacheprovider", "tests/plugin"],
      cwd: repo,
      env: { PATH: path, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
      stdout: "inherit",
      stderr: "inherit",
    });
    const { code } = await pytest.spawn().status;
    assert.equal(code, 0, `pytest exited with code ${code}; its report is above`);
  },
});
