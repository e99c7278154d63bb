/**
 * Runs the Hermes integration tests (tests/hermes_integration, pytest) once per Hermes Agent
 * release that `.ci/hermes.sh` installed, each as its own Deno test named after the release and
 * its Python, with that release's interpreter. pytest writes to this process's standard output,
 * so its summary line (`=== N passed, K skipped in Xs ===`) and skip reasons reach the CI log.
 *
 * Each run gets a fresh temporary `HERMES_HOME`, removed afterwards; the suite also gives every
 * test its own, so nothing reads or writes `~/.hermes`. Without `.cache/hermes/installed.txt`
 * (no `bash .ci/hermes.sh` yet) the tests are ignored, and the ignored test's name says why; CI
 * always installs Hermes first, so there they run.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  INSTALLED_LISTING,
  type InstalledRelease,
  installedReleases,
  releaseLabel,
} from "./support/hermes_releases.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const suite = join("tests", "hermes_integration");

async function runSuite({ python }: InstalledRelease): Promise<void> {
  const found = await Deno.stat(python).catch(() => undefined);
  assert.ok(found?.isFile, `${python} is gone; run \`bash .ci/hermes.sh\` to reinstall`);
  const home = await Deno.makeTempDir({ prefix: "vcc-hermes-home-" });
  try {
    // The Deno running this test comes first on PATH, so the plugin starts `vcc serve` with it.
    const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
    const pytest = new Deno.Command(python, {
      args: ["-m", "pytest", "-p", "no:cacheprovider", "-rs", suite],
      cwd: repo,
      env: { PATH: path, HERMES_HOME: home, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
      stdout: "inherit",
      stderr: "inherit",
    });
    const { code } = await pytest.spawn().status;
    assert.equal(code, 0, `pytest exited with code ${code}; its report is above`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const installed = await installedReleases();

if (installed === undefined) {
  Deno.test({
    name: "Hermes integration tests skipped: no Hermes Agent is installed " +
      "(.cache/hermes/installed.txt is absent; run `bash .ci/hermes.sh`)",
    ignore: true,
    fn() {},
  });
} else if (installed.length === 0) {
  Deno.test("Hermes integration tests have a Hermes Agent release to run on", () => {
    assert.fail(`${INSTALLED_LISTING} lists no release; run \`bash .ci/hermes.sh\``);
  });
} else {
  for (const entry of installed) {
    Deno.test({
      name: `Hermes integration tests pass on ${releaseLabel(entry.release)} ` +
        `(Python ${entry.pythonVersion})`,
      fn: () => runSuite(entry),
    });
  }
}
