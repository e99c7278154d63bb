/**
 * The Hermes the user runs: the `hermes` command on `PATH`, asked (with the Python interpreter its
 * script's `#!` line names) how its context-engine loader finds the engine `context.engine` names.
 *
 * @module
 */
import { delimiter, join } from "node:path";

/** What the installed Hermes says about itself. */
export interface InstalledHermes {
  /** The `hermes` command found on `PATH`. */
  readonly command: string;
  /** Its version (`hermes_cli.__version__`). */
  readonly version: string;
  /**
   * Its context-engine loader also looks in `$HERMES_HOME/plugins` for the engine `context.engine`
   * names, so a user engine needs no `plugins.enabled` entry; otherwise only the general plugin
   * manager loads user engines, and only those `plugins.enabled` lists.
   */
  readonly loadsUserEngineByName: boolean;
}

/** The installed Hermes, or why it could not be asked. */
export type HermesLookup = { readonly hermes: InstalledHermes } | { readonly problem: string };

/** How long Hermes's Python may take to answer. */
const ANSWER_TIMEOUT_MS = 15_000;

/**
 * Python run as `python -c ASK`: prints Hermes's version and whether its context-engine loader
 * resolves names in the user's plugin directory (`find_engine_dir`, which releases after 0.19
 * have) as JSON.
 */
const ASK = `import json
import hermes_cli
import plugins.context_engine as loader
print(json.dumps({"version": str(hermes_cli.__version__),
                  "loads_user_engine_by_name": callable(getattr(loader, "find_engine_dir", None))}))`;

/** Asks the first `hermes` on `searchPath` (a `PATH` value) about itself. */
export async function askInstalledHermes(searchPath: string): Promise<HermesLookup> {
  const command = await findCommand("hermes", searchPath);
  if (command === undefined) return { problem: "no hermes command on PATH" };
  const interpreter = await scriptInterpreter(command).catch(() => undefined);
  if (interpreter === undefined) {
    return { problem: `${command} is not a script that names its Python interpreter` };
  }
  const [program, ...options] = interpreter as [string, ...string[]];
  try {
    const { code, stdout, stderr } = await new Deno.Command(program, {
      args: [...options, "-I", "-B", "-c", ASK],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    }).output();
    if (code !== 0) throw new Error(new TextDecoder().decode(stderr).trim().split("\n").at(-1));
    const answer = JSON.parse(new TextDecoder().decode(stdout));
    return {
      hermes: {
        command,
        version: String(answer.version),
        loadsUserEngineByName: answer.loads_user_engine_by_name === true,
      },
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `cannot ask ${command} with ${interpreter.join(" ")}: ${reason}` };
  }
}

/** The first executable file `name` in the directories of `searchPath`. */
async function findCommand(name: string, searchPath: string): Promise<string | undefined> {
  for (const directory of searchPath.split(delimiter)) {
    if (directory === "") continue;
    const candidate = join(directory, name);
    const found = await Deno.stat(candidate).catch(() => undefined);
    if (found?.isFile && (found.mode === null || (found.mode & 0o111) !== 0)) return candidate;
  }
  return undefined;
}

/** The interpreter and its options from the `#!` line of the script `path`. */
async function scriptInterpreter(path: string): Promise<string[] | undefined> {
  const head = new Uint8Array(1024);
  const file = await Deno.open(path);
  let length: number | null;
  try {
    length = await file.read(head);
  } finally {
    file.close();
  }
  const firstLine = new TextDecoder().decode(head.subarray(0, length ?? 0)).split("\n", 1)[0]!;
  if (!firstLine.startsWith("#!")) return undefined;
  const words = firstLine.slice(2).trim().split(/\s+/).filter((word) => word !== "");
  return words.length > 0 ? words : undefined;
}
