/**
 * Finds the Hermes installs `.ci/hermes.sh` made that have Hermes's own anchor-index builder
 * (`agent.context_compressor._build_anchor_index`), and runs it through
 * `tests/plugin/anchor_parity.py`.
 */
import { join } from "node:path";
import { installedReleases, repo } from "../support/hermes_releases.ts";

const HARNESS = join(repo, "tests", "plugin", "anchor_parity.py");

/** A Hermes release with the builder, and the venv Python it runs in. */
export interface AnchorReference {
  readonly release: string;
  /** The release and its Python version, unique per installed venv (for step names). */
  readonly name: string;
  readonly python: string;
}

/** What the reference builder returned for one window, or the exception type it raised. */
export type ReferenceResult = { readonly index: string } | { readonly error: string };

/** Exit status of the harness when the Hermes it imports has no `_build_anchor_index`. */
const NO_BUILDER = 3;

/**
 * The installed releases whose Hermes has `_build_anchor_index`, in `installed.txt` order;
 * empty when `.ci/hermes.sh` has not run or installed none of them.
 */
export async function findAnchorReferences(): Promise<AnchorReference[]> {
  const found: AnchorReference[] = [];
  for (const { release, pythonVersion, python } of (await installedReleases()) ?? []) {
    const { code } = await new Deno.Command(python, {
      args: ["-I", HARNESS, "--probe"],
      stdout: "null",
      stderr: "null",
    }).output();
    if (code === 0) found.push({ release, name: `${release} on Python ${pythonVersion}`, python });
    else if (code !== NO_BUILDER) {
      throw new Error(`Probing ${python} for Hermes's anchor builder failed with status ${code}`);
    }
  }
  return found;
}

/** Runs the reference builder on each named window. */
export async function runReference(
  reference: AnchorReference,
  windows: Readonly<Record<string, unknown>>,
): Promise<Record<string, ReferenceResult>> {
  const dir = await Deno.makeTempDir({ prefix: "vcc-anchor-parity-" });
  try {
    const input = `${dir}/windows.json`;
    const output = `${dir}/results.json`;
    await Deno.writeTextFile(input, JSON.stringify(windows));
    const { code, stderr } = await new Deno.Command(reference.python, {
      args: ["-I", HARNESS, input, output],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      throw new Error(
        `Hermes's anchor builder (${reference.release}) failed: ${
          new TextDecoder().decode(stderr)
        }`,
      );
    }
    return JSON.parse(await Deno.readTextFile(output));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
