/**
 * Readers of `config.yaml` that share no code with vcc's editor: each installed Hermes release's
 * own loader (through `read_config_as_hermes.py`, run by that release's Python), and the npm
 * `js-yaml` package as a YAML 1.1 reader (vcc parses with the `yaml` package). The config shape
 * tests take their expectations from them.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { loadAll, YAML11_SCHEMA } from "js-yaml";
import { installedReleases, releaseLabel } from "../support/hermes_releases.ts";

/** What a reader made of one file: the settings it read, or the error it stopped at. */
export type Reading = { readonly value: unknown } | { readonly error: string };

/** A reader of config files, reading many at once. */
export interface ConfigReader {
  readonly name: string;
  /** Whether it is a Hermes release's own loader. */
  readonly hermes: boolean;
  read(paths: readonly string[]): Promise<Reading[]>;
}

const SCRIPT = fileURLToPath(new URL("read_config_as_hermes.py", import.meta.url));

/**
 * The npm `js-yaml` package reading UTF-8 text as YAML 1.1: no document is `{}` (as for Hermes), a
 * second document an error.
 */
export const jsYamlReader: ConfigReader = {
  name: "js-yaml",
  hermes: false,
  read: (paths) =>
    Promise.all(paths.map(async (path): Promise<Reading> => {
      try {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
        const documents = loadAll(text, { schema: YAML11_SCHEMA });
        if (documents.length > 1) return { error: `${documents.length} documents` };
        return { value: documents[0] ?? {} };
      } catch (error) {
        return { error: String(error) };
      }
    })),
};

/**
 * One reader per installed Hermes release and Python (a release can be installed on two Pythons,
 * whose YAML parsers differ), named after both; `undefined` when no Hermes is installed.
 */
export async function hermesReaders(): Promise<ConfigReader[] | undefined> {
  const releases = await installedReleases();
  return releases?.map(({ release, pythonVersion, python }) => ({
    name: `${releaseLabel(release)} on Python ${pythonVersion}`,
    hermes: true,
    read: async (paths) => {
      const child = new Deno.Command(python, {
        args: ["-I", SCRIPT],
        cwd: "/",
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(JSON.stringify(paths)));
      await writer.close();
      const { code, stdout, stderr } = await child.output();
      const decoder = new TextDecoder();
      if (code !== 0) throw new Error(`${python} ${SCRIPT} failed: ${decoder.decode(stderr)}`);
      return JSON.parse(decoder.decode(stdout)) as Reading[];
    },
  }));
}
