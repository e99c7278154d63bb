/**
 * Runs the Hermes plugin's Python tests (tests/plugin, pytest) as part of `deno test`, with the
 * interpreter of `.venv` when there is one, else `python3`. Without pytest the test is ignored,
 * and its name says why and how to install it.
 */
import { join } from "node:path";
import { repo, runPytest } from "./support/hermes_releases.ts";

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
  fn: () => runPytest(python, ["tests/plugin"]),
});
